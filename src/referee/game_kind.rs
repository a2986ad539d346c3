//! The games the referee knows, by command-line name, and how to start each one.

use super::game_adapter::DynGame;
use super::solar_game::SolarGame;
use super::spacewars_game::SpaceWarsGame;
use super::spider_game::SpiderGame;
use super::toy_games::{Race, TicTacToe};

/// A game the referee can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Spider-Chess (two seats).
    SpiderChess,
    /// Solar Chess, any setup (2–6 seats).
    SolarChess,
    /// Space Wars card battle (2–8 seats, hidden information).
    SpaceWars,
    /// Tic-tac-toe, a toy for tests and protocol checks.
    TicTacToe,
    /// Counting race for 2–8 seats, a toy for multi-seat tests; setup = number of seats.
    Race,
}

impl GameKind {
    /// Parses a `--game` value.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "spider-chess" | "spider" => Ok(GameKind::SpiderChess),
            "solar-chess" | "solar" => Ok(GameKind::SolarChess),
            "space-wars" | "spacewars" => Ok(GameKind::SpaceWars),
            "tic-tac-toe" | "tictactoe" => Ok(GameKind::TicTacToe),
            "race" => Ok(GameKind::Race),
            _ => Err(format!(
                "unknown game {text:?}: expected spider-chess, solar-chess, space-wars, \
                 tic-tac-toe or race"
            )),
        }
    }

    /// The command-line name.
    pub fn name(&self) -> &'static str {
        match self {
            GameKind::SpiderChess => "spider-chess",
            GameKind::SolarChess => "solar-chess",
            GameKind::SpaceWars => "space-wars",
            GameKind::TicTacToe => "tic-tac-toe",
            GameKind::Race => "race",
        }
    }

    /// The project's engine binary for this game (looked up next to `orrery`).
    pub fn engine_binary(&self) -> Option<&'static str> {
        match self {
            GameKind::SpiderChess => Some("spider-chess"),
            GameKind::SolarChess => Some("solar-chess"),
            GameKind::SpaceWars => Some("space-wars"),
            _ => None,
        }
    }

    /// True for the chess games, whose records are also written as PGN.
    pub fn is_chess(&self) -> bool {
        matches!(self, GameKind::SpiderChess | GameKind::SolarChess)
    }

    /// The setup used when none is given.
    pub fn default_setup(&self) -> Option<&'static str> {
        match self {
            GameKind::SolarChess => Some("duel"),
            GameKind::SpaceWars => Some("4"),
            GameKind::Race => Some("3"),
            _ => None,
        }
    }

    /// The variant name sent to engines (`UCI_Variant` / CECP `variant`), if any.
    pub fn variant(&self, setup: Option<&str>) -> Option<String> {
        match self {
            GameKind::SpiderChess => Some(setup.unwrap_or("spider-chess").to_string()),
            GameKind::SolarChess => Some(setup.unwrap_or("duel").to_string()),
            _ => None,
        }
    }

    /// The PGN `Variant` tag for the chess games.
    pub fn pgn_variant(&self) -> Option<&'static str> {
        match self {
            GameKind::SpiderChess => Some("spider-chess"),
            GameKind::SolarChess => Some("solar-chess"),
            _ => None,
        }
    }

    /// The PGN `Variant` tag of a game with `setup`: a loaded spider-chess variant's name.
    pub fn pgn_variant_of(&self, setup: Option<&str>) -> Option<String> {
        match (self, setup) {
            (GameKind::SpiderChess, Some(name)) => Some(name.to_string()),
            _ => self.pgn_variant().map(str::to_string),
        }
    }

    /// Starts a game: `setup` picks the setup/variant/player count, `position` an opening
    /// position, `deal_seed` the shuffle for card games.
    pub fn new_game(
        &self,
        setup: Option<&str>,
        position: Option<&str>,
        deal_seed: u64,
    ) -> Result<Box<dyn DynGame>, String> {
        match self {
            GameKind::TicTacToe => {
                let g = match position {
                    Some(p) => TicTacToe::from_text(p)?,
                    None => TicTacToe::new(),
                };
                Ok(Box::new(g))
            }
            GameKind::Race => {
                let seats = setup
                    .unwrap_or("3")
                    .parse::<usize>()
                    .map_err(|_| format!("race: setup {setup:?} must be a number of seats"))?;
                Ok(Box::new(Race::new(seats, 10)?))
            }
            GameKind::SpiderChess => Ok(Box::new(SpiderGame::with_setup(setup, position)?)),
            GameKind::SolarChess => {
                Ok(Box::new(SolarGame::new(setup.unwrap_or("duel"), position)?))
            }
            GameKind::SpaceWars => {
                if position.is_some() {
                    return Err("space-wars starts from a deal, not a position".into());
                }
                let players = setup
                    .unwrap_or("4")
                    .parse::<usize>()
                    .map_err(|_| format!("space-wars: setup {setup:?} must be a player count"))?;
                Ok(Box::new(SpaceWarsGame::new(players, deal_seed)?))
            }
        }
    }
}
