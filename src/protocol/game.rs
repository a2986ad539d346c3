//! The interface between a game (rules + search) and the protocol loop.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::search::Limits;

/// How a finished game ended: who won, or a draw, with a human-readable reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    /// The listed seats (1-based; several for a team) won.
    Win {
        /// Winning seats, 1-based.
        seats: Vec<usize>,
        /// Why, e.g. "checkmate", "bare king".
        reason: String,
    },
    /// Nobody won.
    Draw {
        /// Why, e.g. "threefold repetition".
        reason: String,
    },
}

impl GameOutcome {
    /// The reason text, whatever the result.
    pub fn reason(&self) -> &str {
        match self {
            GameOutcome::Win { reason, .. } | GameOutcome::Draw { reason } => reason,
        }
    }
}

/// A score as the protocol shows it, from the point of view of the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the seat to move gets mated.
    Mate(i32),
}

impl ReportScore {
    /// Converts a search score (see [`crate::search::MATE`]) into centipawns or moves to mate.
    pub fn from_search(score: crate::search::Score) -> Self {
        match crate::search::UciScore(score).mate_in() {
            Some(moves) => ReportScore::Mate(moves),
            None => ReportScore::Cp(score),
        }
    }
}

/// One progress report of a running search (an UCI `info` line / a CECP thinking line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// Nominal depth finished, in plies.
    pub depth: u32,
    /// Deepest ply reached (selective depth).
    pub seldepth: u32,
    /// Score from the point of view of the seat to move.
    pub score: ReportScore,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation in the game's move notation (see [`EngineGame::pv_text`]).
    pub pv: Vec<String>,
}

impl SearchReport {
    /// A report from the shared searches' [`Info`](crate::search::Info), with the principal
    /// variation already written as move texts (see [`EngineGame::pv_text`]).
    pub fn from_info<M>(info: &crate::search::Info<M>, pv: Vec<String>) -> Self {
        SearchReport {
            depth: info.depth,
            seldepth: info.seldepth,
            score: ReportScore::from_search(info.score),
            nodes: info.nodes,
            time: info.time,
            pv,
        }
    }
}

/// The value type and range of an engine option (UCI `option ... type ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Initial value.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// Initial value.
        default: bool,
    },
    /// One of a fixed list of words.
    Combo {
        /// Initial value (one of `choices`).
        default: String,
        /// Accepted values.
        choices: Vec<String>,
    },
    /// Free text.
    Text {
        /// Initial value.
        default: String,
    },
    /// An action without a value.
    Button,
}

/// An option a game offers beyond the loop's own `Hash`, `Move Overhead` and `UCI_Variant`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Name as shown to the GUI (matched case-insensitively).
    pub name: String,
    /// Type, default and range.
    pub kind: OptionKind,
}

impl EngineOption {
    /// Checks a value against the option's type and range, returning it in canonical form
    /// (`true`/`false` for checks, the declared spelling for combos).
    pub fn check_value(&self, value: &str) -> Result<String, String> {
        match &self.kind {
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => Ok(v.to_string()),
                Ok(v) => Err(format!("{} must be in {min}..={max}, got {v}", self.name)),
                Err(_) => Err(format!("{} needs an integer, got '{value}'", self.name)),
            },
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" => Ok("true".into()),
                "false" | "0" | "off" => Ok("false".into()),
                _ => Err(format!("{} needs true or false, got '{value}'", self.name)),
            },
            OptionKind::Combo { choices, .. } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(value))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "{} must be one of {}, got '{value}'",
                        self.name,
                        choices.join(", ")
                    )
                }),
            OptionKind::Text { .. } => Ok(value.to_string()),
            OptionKind::Button => Ok(String::new()),
        }
    }
}

/// What the protocol loop needs from a game engine: rules for keeping the game record, and a
/// search that runs on its own thread.
///
/// The loop moves the whole engine into the search thread for each `go` and gets it back when the
/// search ends, so `search` may use `&mut self` freely (transposition table, history).
pub trait EngineGame: Send + 'static {
    /// A complete game state (board, seat to move, counters, repetition history).
    type Position: Clone + Send + 'static;
    /// A move; cheap to copy.
    type Move: Copy + Eq + Send + 'static;

    /// Engine name for `id name` / `myname`.
    fn engine_name(&self) -> String;

    /// Author for `id author`.
    fn engine_author(&self) -> String {
        "the Orrery authors".to_string()
    }

    /// Variant names (UCI_Variant, CECP `variants`); the first is the default.
    fn variants(&self) -> Vec<String>;

    /// The start position of a variant; `Err` for an unknown variant.
    fn start_position(&self, variant: &str) -> Result<Self::Position, String>;

    /// Parses a position string (FEN or the game's own; may contain spaces); `Err(reason)` when it
    /// is malformed or cannot arise.
    fn parse_position(&self, variant: &str, text: &str) -> Result<Self::Position, String>;

    /// Writes a position in the form [`parse_position`](EngineGame::parse_position) reads.
    fn position_text(&self, pos: &Self::Position) -> String;

    /// Parses a move and checks it is legal in `pos`; `Err(reason)` otherwise.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, String>;

    /// Writes a move in protocol notation.
    fn move_text(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// Plays a legal move.
    fn play(&self, pos: &mut Self::Position, mv: Self::Move);

    /// `Some` when the game is over in `pos`.
    fn outcome(&self, pos: &Self::Position) -> Option<GameOutcome>;

    /// Number of seats in the game of `pos`.
    fn seats(&self, pos: &Self::Position) -> usize;

    /// The seat to move, 1-based.
    fn seat_to_move(&self, pos: &Self::Position) -> usize;

    /// Perft split by root move: each legal root move in protocol notation with its leaf count.
    /// It runs on the search thread and must poll `stop` inside its recursion (a relaxed load at
    /// every node above the last ply is cheap); `None` when `stop` ended it before every root
    /// move was counted.
    fn perft_divide(
        &self,
        pos: &Self::Position,
        depth: u32,
        stop: &AtomicBool,
    ) -> Option<Vec<(String, u64)>>;

    /// Game-specific options.
    fn options(&self) -> Vec<EngineOption> {
        Vec::new()
    }

    /// Sets a game-specific option; the loop has already checked the value against its
    /// [`OptionKind`] and passes it in canonical form.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        Err(format!("unknown option '{name}' (value '{value}')"))
    }

    /// Resizes the transposition tables to `mib` MiB in all (`Hash`). Allocation must be
    /// fallible: on failure return why and keep the old tables.
    fn set_hash(&mut self, _mib: usize) -> Result<(), String> {
        Ok(())
    }

    /// A new game starts (`ucinewgame`, `new`): forget what was learnt about the last one.
    fn new_game(&mut self);

    /// Searches `pos` within `limits` until done or `stop` is set, calling `report` after each
    /// iteration; returns the best move, `None` only when there is no legal move.
    fn search(
        &mut self,
        pos: &Self::Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Option<Self::Move>;

    /// Lines the engine sends in the CECP dialect right after accepting `variant NAME`: XBoard's
    /// `setup` and `piece` commands that define a variant the GUI does not know (engine-defined
    /// variants). None by default.
    fn cecp_variant_setup(&self, _variant: &str) -> Vec<String> {
        Vec::new()
    }

    /// Writes a principal variation as move texts, each in the position it is played from.
    fn pv_text(&self, pos: &Self::Position, pv: &[Self::Move]) -> Vec<String> {
        let mut p = pos.clone();
        pv.iter()
            .map(|&mv| {
                let text = self.move_text(&p, mv);
                self.play(&mut p, mv);
                text
            })
            .collect()
    }
}

/// What the engine loop itself needs from an engine, whatever its dialect: its name and options,
/// a new game, and a search that runs on its own thread from a `Position` to an `Answer`.
///
/// Every [`EngineGame`] is one (its answer is a move); an engine whose dialect is not the board
/// games' (Space Wars: the engine gets an observation and owes a decision) implements this trait
/// directly and brings its own dialect to [`run_dialect`](super::engine_loop::run_dialect).
pub trait LoopEngine: Send + 'static {
    /// What a search starts from.
    type Position: Clone + Send + 'static;
    /// What a search returns.
    type Answer: Send + 'static;
    /// Engine name for `id name`.
    fn loop_name(&self) -> String;
    /// Author for `id author`.
    fn loop_author(&self) -> String;
    /// Variant names (the first is the default); may be empty for a dialect without variants.
    fn loop_variants(&self) -> Vec<String>;
    /// Game-specific options.
    fn loop_options(&self) -> Vec<EngineOption>;
    /// Sets a game-specific option (value already checked and canonical).
    fn loop_set_option(&mut self, name: &str, value: &str) -> Result<(), String>;
    /// Resizes the search's memory to `mib` MiB (`Hash`); on failure keeps the old size.
    fn loop_set_hash(&mut self, mib: usize) -> Result<(), String>;
    /// A new game starts: forget what was learnt about the last one.
    fn loop_new_game(&mut self);
    /// Searches `pos` within `limits` until done or `stop` is set; `None` when there is no answer.
    fn loop_search(
        &mut self,
        pos: &Self::Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Option<Self::Answer>;
}

impl<G: EngineGame> LoopEngine for G {
    type Position = G::Position;
    type Answer = G::Move;
    fn loop_name(&self) -> String {
        self.engine_name()
    }
    fn loop_author(&self) -> String {
        self.engine_author()
    }
    fn loop_variants(&self) -> Vec<String> {
        self.variants()
    }
    fn loop_options(&self) -> Vec<EngineOption> {
        self.options()
    }
    fn loop_set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.set_option(name, value)
    }
    fn loop_set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.set_hash(mib)
    }
    fn loop_new_game(&mut self) {
        self.new_game()
    }
    fn loop_search(
        &mut self,
        pos: &G::Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Option<G::Move> {
        self.search(pos, limits, stop, report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn scores_convert_to_centipawns_or_moves_to_mate() {
        assert_eq!(ReportScore::from_search(-35), ReportScore::Cp(-35));
        assert_eq!(ReportScore::from_search(MATE - 1), ReportScore::Mate(1));
        assert_eq!(ReportScore::from_search(MATE - 3), ReportScore::Mate(2));
        assert_eq!(ReportScore::from_search(-(MATE - 2)), ReportScore::Mate(-1));
    }

    #[test]
    fn option_values_are_checked() {
        let spin = EngineOption {
            name: "Hash".into(),
            kind: OptionKind::Spin {
                default: 16,
                min: 1,
                max: 64,
            },
        };
        assert_eq!(spin.check_value("64"), Ok("64".into()));
        assert!(spin.check_value("65").is_err());
        assert!(spin.check_value("x").is_err());
        let check = EngineOption {
            name: "Ponder".into(),
            kind: OptionKind::Check { default: false },
        };
        assert_eq!(check.check_value("TRUE"), Ok("true".into()));
        assert!(check.check_value("yes please").is_err());
    }
}
