//! A game at a GUI table: the referee's own adapter for the game ([`SpiderGame`], [`SolarGame`],
//! [`SpaceWarsGame`]), so that every decision is parsed, checked and applied by the same rules
//! core the referee uses, plus the per-game views the page draws.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::games::spacewars::Observation;
use crate::games::spider::Variant;
use crate::referee::game_adapter::{DynGame, RefereeGame, Refusal};
use crate::referee::game_kind::GameKind;
use crate::referee::solar_game::SolarGame;
use crate::referee::spacewars_game::SpaceWarsGame;
use crate::referee::spider_game::SpiderGame;

use super::{solar_view, spacewars_view, spider_view};

/// What game to start, as the new-game form asks for it.
#[derive(Clone, Debug)]
pub struct GameChoice {
    /// Which game.
    pub kind: GameKind,
    /// Solar setup name or Space Wars player count.
    pub setup: Option<String>,
    /// Spider-Chess variant (the built-in one or a loaded definition).
    pub variant: Option<Arc<Variant>>,
    /// Start position: a FEN (spider) or position string (solar).
    pub position: Option<String>,
    /// Deal seed (Space Wars).
    pub seed: u64,
}

/// The game of one table, behind the referee's adapters.
pub enum TableGame {
    /// Spider-Chess or a loaded variant.
    Spider(SpiderGame),
    /// Solar Chess, any setup.
    Solar(SolarGame),
    /// Space Wars.
    SpaceWars(SpaceWarsGame),
}

impl TableGame {
    /// Starts the chosen game; a bad FEN, setup or player count is refused with the reason.
    pub fn new(c: &GameChoice) -> Result<TableGame, String> {
        match c.kind {
            GameKind::SpiderChess => {
                let v = c.variant.clone().unwrap_or_else(Variant::spider_chess);
                Ok(TableGame::Spider(SpiderGame::with_variant(
                    v,
                    c.position.as_deref(),
                )?))
            }
            GameKind::SolarChess => Ok(TableGame::Solar(SolarGame::new(
                c.setup.as_deref().unwrap_or("duel"),
                c.position.as_deref(),
            )?)),
            GameKind::SpaceWars => {
                let players = c
                    .setup
                    .as_deref()
                    .unwrap_or("2")
                    .parse::<usize>()
                    .map_err(|_| "space-wars: the setup is the number of players".to_string())?;
                Ok(TableGame::SpaceWars(SpaceWarsGame::new(players, c.seed)?))
            }
            other => Err(format!("the board does not show {}", other.name())),
        }
    }

    /// A second copy of the game as it stands at the start (each engine seat keeps one and
    /// is told every decision; a Space Wars copy is dealt again from the same seed).
    pub fn replica(&self) -> Result<Box<dyn DynGame>, String> {
        Ok(match self {
            TableGame::Spider(g) => Box::new(g.clone()),
            TableGame::Solar(g) => Box::new(g.clone()),
            TableGame::SpaceWars(g) => {
                if !RefereeGame::history(g).is_empty() {
                    return Err(
                        "a Space Wars copy can only be made before the first decision".into(),
                    );
                }
                Box::new(SpaceWarsGame::new(g.state().players(), g.seed())?)
            }
        })
    }

    /// The game as the referee's object-safe view.
    pub fn dyn_game(&self) -> &dyn DynGame {
        match self {
            TableGame::Spider(g) => g,
            TableGame::Solar(g) => g,
            TableGame::SpaceWars(g) => g,
        }
    }

    /// Mutable [`TableGame::dyn_game`].
    pub fn dyn_game_mut(&mut self) -> &mut dyn DynGame {
        match self {
            TableGame::Spider(g) => g,
            TableGame::Solar(g) => g,
            TableGame::SpaceWars(g) => g,
        }
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            TableGame::Spider(_) => GameKind::SpiderChess,
            TableGame::Solar(_) => GameKind::SolarChess,
            TableGame::SpaceWars(_) => GameKind::SpaceWars,
        }
    }

    /// True for games with hidden information (each browser sees one seat's share).
    pub fn is_hidden(&self) -> bool {
        matches!(self, TableGame::SpaceWars(_))
    }

    /// Checks one seat's decision with the rules core without applying it (simultaneous steps
    /// collect every seat's decision first); returns its canonical text.
    pub fn check(&self, seat: usize, text: &str) -> Result<String, Refusal> {
        match self {
            TableGame::Spider(g) => g.parse_move(seat, text).map(|m| g.move_text(&m)),
            TableGame::Solar(g) => g.parse_move(seat, text).map(|m| g.move_text(&m)),
            TableGame::SpaceWars(g) => g.parse_move(seat, text).map(|m| g.move_text(&m)),
        }
    }

    /// The from/to squares of a Spider-Chess move before it is played (last-move marker).
    pub fn spider_squares(&self, text: &str) -> Option<((u8, u8), (u8, u8))> {
        match self {
            TableGame::Spider(g) => spider_view::move_squares(g.position(), text),
            _ => None,
        }
    }

    /// The board for a perfect-information game (the same for every viewer), with the legal
    /// moves when `with_legal`.
    pub fn board(&self, last: Option<((u8, u8), (u8, u8))>, with_legal: bool) -> Value {
        match self {
            TableGame::Spider(g) => {
                let mut b = spider_view::board(g.position(), last);
                if with_legal {
                    b["legal"] = spider_view::legal_moves(g.position());
                }
                b
            }
            TableGame::Solar(g) => {
                let mut b = solar_view::board(g.position());
                b["setup"] = json!(g.setup());
                b["layout"] = solar_view::layout();
                if with_legal {
                    b["legal"] = solar_view::legal_moves(g.position());
                }
                b
            }
            TableGame::SpaceWars(_) => json!({"kind": "spacewars"}),
        }
    }

    /// Seat `seat`'s view of a Space Wars table (its observation only) with the events it may
    /// see; `None` for the other games.
    pub fn seat_view(&self, seat: usize) -> Option<Value> {
        let TableGame::SpaceWars(g) = self else {
            return None;
        };
        let st = g.state();
        let obs = Observation::of(st, seat as u8);
        let mut v = spacewars_view::table(&obs, st.rules());
        let events: Vec<String> = st
            .events()
            .iter()
            .map(|e| e.line_for(seat as u8, st.rules()))
            .collect();
        v["events"] = json!(events);
        Some(v)
    }

    /// The name of each seat for the page ("White", "Seat 3 (Red)", ...).
    pub fn seat_labels(&self) -> Vec<String> {
        match self {
            TableGame::Spider(_) => vec!["White".into(), "Black".into()],
            TableGame::Solar(g) => {
                let pos = g.position();
                (0..pos.seats() as u8)
                    .map(|s| {
                        let colours: Vec<&str> = crate::games::solar::Colour::ALL
                            .into_iter()
                            .filter(|&c| pos.ship_owner(c) == Some(s))
                            .map(|c| c.name())
                            .collect();
                        if colours.is_empty() {
                            format!("Seat {}", s + 1)
                        } else {
                            format!("Seat {} ({})", s + 1, colours.join("+"))
                        }
                    })
                    .collect()
            }
            TableGame::SpaceWars(g) => (1..=g.state().players())
                .map(|s| format!("Seat {s}"))
                .collect(),
        }
    }
}
