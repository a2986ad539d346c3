//! Games between built-in players: the referee loop in miniature (true state, one observation per
//! seat, decisions checked by the rules core), used by `space-wars selfplay` and the tests.

use super::Player;
use crate::games::spacewars::decision::Decision;
use crate::games::spacewars::event::Event;
use crate::games::spacewars::observation::Observation;
use crate::games::spacewars::state::{Deal, Outcome, Record, State};
use crate::search::ismcts::SearchBudget;
use std::sync::atomic::AtomicBool;

/// The end of one game: its result, its record and the rounds played.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Win or draw.
    pub outcome: Outcome,
    /// Seed and decisions: replays to the same result.
    pub record: Record,
    /// Rounds played.
    pub rounds: u16,
    /// The whole deal, for a replay without the seed ([`State::from_deal`]).
    pub deal: Deal,
}

/// Plays one game, seat `i` played by `players[i]` within `budgets[i]` (or the one budget given
/// for all); a player error or refused decision is an `Err` naming the seat.
pub fn play_game(
    players: &mut [Box<dyn Player>],
    seed: u64,
    budgets: &[SearchBudget],
) -> Result<GameResult, String> {
    let mut state = State::new(players.len(), seed).map_err(|e| e.to_string())?;
    state.enable_log();
    let stop = AtomicBool::new(false);
    let mut record = Record {
        players: players.len() as u8,
        seed,
        decisions: Vec::new(),
    };
    let mut pend = Vec::new();
    while state.outcome().is_none() {
        state.pending(&mut pend);
        if pend.is_empty() {
            return Err("no decision pending in an unfinished game".into());
        }
        let seats: Vec<u8> = pend.iter().map(|p| p.0).collect();
        let mut decided: Vec<(u8, Decision)> = Vec::new();
        for &seat in &seats {
            let obs = Observation::of(&state, seat);
            let choice = players[seat as usize]
                .decide(
                    &obs,
                    &budgets[(seat as usize).min(budgets.len() - 1)],
                    &stop,
                    &mut |_| {},
                )
                .map_err(|e| format!("seat {}: {e}", seat + 1))?;
            decided.push((seat, choice.decision));
        }
        for (seat, d) in decided {
            state
                .apply(seat, &d)
                .map_err(|e| format!("seat {} played {d:?}: {e}", seat + 1))?;
            record.decisions.push((seat, d));
        }
    }
    Ok(GameResult {
        outcome: state.outcome().expect("over"),
        record,
        rounds: state.round(),
        deal: state.deal().expect("logged from the deal").clone(),
    })
}

/// Plays one game like [`play_game`] with the event log on, returning every event as seen by the
/// referee (all cards shown) — for transcripts and debugging.
pub fn play_logged(
    players: &mut [Box<dyn Player>],
    seed: u64,
    budgets: &[SearchBudget],
) -> Result<(GameResult, Vec<Event>), String> {
    let g = play_game(players, seed, budgets)?;
    let mut s = State::new(g.record.players as usize, seed).map_err(|e| e.to_string())?;
    s.enable_log();
    for (seat, d) in &g.record.decisions {
        s.apply(*seat, d).map_err(|e| e.to_string())?;
    }
    Ok((g, s.events().to_vec()))
}
