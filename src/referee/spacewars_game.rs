//! Space Wars for the referee: the spacewars rules core ([`crate::games::spacewars`]) behind
//! [`RefereeGame`]. The referee deals from the block's seed, keeps the hidden state, and sends
//! each seat only its own observation (the events it may see, then its `position` line); after
//! the game the record reveals the seed, every hand, the whole deal (hands and draw pile), each
//! reshuffle's order and the event log, so that the game replays from the record's own content
//! (`orrery replay`, or any program that knows only the rule book) without the random generator.

use std::cell::RefCell;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::games::spacewars::wire::{checked_decision, format_decision, lines_for_seat};
use crate::games::spacewars::{Card, Deal, Decision, Outcome as SwOutcome, Ruleset, State};

use super::clock::GoStyle;
use super::game_adapter::{Outcome, RefereeGame, Refusal};

/// A Space Wars game as the referee keeps it.
pub struct SpaceWarsGame {
    state: State,
    players: usize,
    seed: u64,
    decisions: Vec<String>,
    /// Per seat: events already sent.
    sent: RefCell<Vec<usize>>,
}

impl SpaceWarsGame {
    /// Deals a game for `players` seats (2..=8) from `seed`.
    pub fn new(players: usize, seed: u64) -> Result<Self, String> {
        let mut state =
            State::new(players, seed).map_err(|e| format!("space-wars: {players} players: {e}"))?;
        state.enable_log();
        Ok(SpaceWarsGame {
            state,
            players,
            seed,
            decisions: Vec::new(),
            sent: RefCell::new(vec![0; players]),
        })
    }

    /// The true state (the GUI builds each seat's [`crate::games::spacewars::Observation`]
    /// from it and sends a browser only its own seat's).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The deal seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A game from what a record reveals (`extra.deal`: the hands and the draw pile, top first;
    /// `extra.reshuffles`: each reshuffle's new draw pile, top first), with no random generator:
    /// replaying the record's decisions on it must give the recorded game.
    pub fn from_record(extra: &Value) -> Result<Self, String> {
        fn cards(v: Option<&Value>, what: &str) -> Result<Vec<Card>, String> {
            v.and_then(Value::as_array)
                .ok_or(format!("record: {what} is missing or not a list"))?
                .iter()
                .map(|c| {
                    c.as_str()
                        .ok_or(format!("record: {what} holds a card that is not text"))?
                        .parse::<Card>()
                        .map_err(|e| format!("record: {what}: {e}"))
                })
                .collect()
        }
        let deal = extra.get("deal").ok_or("record: no deal")?;
        let hands = deal
            .get("hands")
            .and_then(Value::as_array)
            .ok_or("record: the deal has no hands")?
            .iter()
            .enumerate()
            .map(|(i, h)| cards(Some(h), &format!("hand {}", i + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        let draw = cards(deal.get("draw"), "the draw pile")?;
        let reshuffles = match extra.get("reshuffles") {
            None => Vec::new(),
            Some(r) => r
                .as_array()
                .ok_or("record: reshuffles is not a list")?
                .iter()
                .enumerate()
                .map(|(i, o)| cards(Some(o), &format!("reshuffle {}", i + 1)))
                .collect::<Result<Vec<_>, _>>()?,
        };
        let deal = Deal {
            hands,
            draw,
            reshuffles,
        };
        let mut state = State::from_deal(Arc::new(Ruleset::default()), &deal)
            .map_err(|e| format!("record: {e}"))?;
        state.enable_log();
        let players = deal.hands.len();
        Ok(SpaceWarsGame {
            state,
            players,
            seed: extra.get("seed").and_then(Value::as_u64).unwrap_or(0),
            decisions: Vec::new(),
            sent: RefCell::new(vec![0; players]),
        })
    }

    /// Every event so far, with all cards shown (the record's `extra.events`).
    pub fn event_lines(&self) -> Vec<String> {
        let rules = self.state.rules();
        self.state
            .events()
            .iter()
            .map(|e| e.line_all(rules))
            .collect()
    }

    /// Checks a game replayed [`from_record`](SpaceWarsGame::from_record) against the record:
    /// every reshuffle order fitted the discard pile and was used, and the event log (every card
    /// dealt and drawn, every attack, block, loss, capture) is the record's, event by event.
    pub fn check_record(&self, extra: &Value) -> Result<(), String> {
        if let Some(e) = self.state.deck_error() {
            return Err(e.to_string());
        }
        let used = self.state.deal().map_or(0, |d| d.reshuffles.len());
        let recorded = extra
            .get("reshuffles")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if used != recorded {
            return Err(format!(
                "the game reshuffled {used} times, the record orders {recorded} reshuffles"
            ));
        }
        let ours = self.event_lines();
        let theirs = extra
            .get("events")
            .and_then(Value::as_array)
            .ok_or("record: no event log")?;
        for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
            if b.as_str() != Some(a.as_str()) {
                return Err(format!(
                    "event {}: replayed '{a}', the record says {b}",
                    i + 1
                ));
            }
        }
        if ours.len() != theirs.len() {
            return Err(format!(
                "{} events replayed, the record has {}",
                ours.len(),
                theirs.len()
            ));
        }
        Ok(())
    }
}

impl RefereeGame for SpaceWarsGame {
    type Move = Decision;
    fn seats(&self) -> usize {
        self.players
    }
    fn to_decide(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.state.pending(&mut out);
        out.into_iter().map(|(s, _)| s as usize).collect()
    }
    fn parse_move(&self, seat: usize, text: &str) -> Result<Decision, Refusal> {
        checked_decision(&self.state, seat as u8, text).map_err(Refusal)
    }
    fn move_text(&self, mv: &Decision) -> String {
        format_decision(mv, self.state.rules())
    }
    fn apply(&mut self, seat: usize, mv: Decision) {
        self.decisions
            .push(format_decision(&mv, self.state.rules()));
        if let Err(e) = self.state.apply(seat as u8, &mv) {
            log::error!("space-wars: a checked decision was refused on apply: {e}");
        }
    }
    fn legal_moves(&self) -> Vec<String> {
        Vec::new()
    }
    fn outcome(&self) -> Option<Outcome> {
        let o = self.state.outcome()?;
        Some(match o {
            SwOutcome::Win(w) => Outcome::win(w as usize, self.players, "last fleet standing"),
            SwOutcome::Draw(mask) => {
                let places: Vec<u32> = (0..self.players)
                    .map(|s| if mask & (1 << s) != 0 { 1 } else { 2 })
                    .collect();
                Outcome::from_places(&places, format!("draw ({})", o.text()))
            }
        })
    }
    fn start_text(&self) -> String {
        format!("players={} seed={}", self.players, self.seed)
    }
    fn is_standard_start(&self) -> bool {
        true
    }
    fn position_text(&self) -> String {
        format!(
            "round={} step={:?} over={}",
            self.state.round(),
            self.state.step(),
            self.state.is_over()
        )
    }
    fn history(&self) -> Vec<String> {
        self.decisions.clone()
    }
    fn uci_position(&self, seat: usize) -> Vec<String> {
        let mut sent = self.sent.borrow_mut();
        let lines = lines_for_seat(&self.state, seat as u8, sent[seat]);
        sent[seat] = self.state.events().len();
        lines
    }
    fn go_style(&self) -> GoStyle {
        GoStyle::OwnClock
    }
    fn record_extra(&self) -> serde_json::Value {
        let hands: Vec<Vec<String>> = (0..self.players)
            .map(|s| self.state.hand(s).iter().map(|c| c.to_string()).collect())
            .collect();
        let texts = |cs: &[Card]| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let deal = self.state.deal();
        json!({
            "seed": self.seed,
            "players": self.players,
            "final_hands": hands,
            "draw_pile": texts(self.state.draw_pile()),
            "deal": deal.map(|d| json!({
                "hands": d.hands.iter().map(|h| texts(h)).collect::<Vec<_>>(),
                "draw": texts(&d.draw),
            })),
            "reshuffles": deal.map(|d| d.reshuffles.iter().map(|o| texts(o)).collect::<Vec<_>>()),
            "events": self.event_lines(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game_adapter::DynGame;

    #[test]
    fn deal_observations_and_refusals() {
        let mut g = SpaceWarsGame::new(4, 7).unwrap();
        assert_eq!(DynGame::seats(&g), 4);
        assert_eq!(
            DynGame::to_decide(&g),
            vec![0, 1, 2, 3],
            "class choice is simultaneous"
        );
        let lines = DynGame::uci_position(&g, 2);
        assert!(lines.last().unwrap().starts_with("position "), "{lines:?}");
        assert!(g.play(0, "attack 1:QH>2").is_err());
        assert!(g.play(0, "nonsense").is_err());
        assert!(DynGame::outcome(&g).is_none());
        assert!(SpaceWarsGame::new(9, 1).is_err());
        let extra = DynGame::record_extra(&g);
        assert_eq!(extra["seed"], 7);
    }
}
