//! Plays one game: starts each seat's engine, asks the seats to decide in turn (or together at
//! simultaneous steps), has the rules core check and apply every decision, keeps the clocks,
//! adjudicates, and turns any engine fault into a loss for that seat with the reason recorded.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::adjudication::{AdjudicationRules, Adjudicator};
use super::clock::{Clocks, TimeControl};
use super::engine::{EngineClient, EngineSpec, Fault, GameContext, Timeouts};
use super::game_adapter::{DynGame, Outcome};
use super::game_kind::GameKind;
use super::records::{score_field, GameRecord, MoveRecord};
use super::schedule::{random_plies, GameJob, Opening};

/// Everything a game needs besides its job.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Which game.
    pub game: GameKind,
    /// Setup / variant / player count.
    pub setup: Option<String>,
    /// Engines in command-line order.
    pub engines: Vec<EngineSpec>,
    /// Time control.
    pub tc: TimeControl,
    /// Grace before a time forfeit.
    pub margin: Duration,
    /// Wait for node-limited answers.
    pub hang: Duration,
    /// Handshake timeouts.
    pub timeouts: Timeouts,
    /// Adjudication.
    pub adjudication: AdjudicationRules,
    /// Opening positions (cycled by block); empty: the standard start.
    pub openings: Vec<Opening>,
    /// Random opening plies after the opening.
    pub random_plies: u32,
    /// Live log of every game's decisions as they are played (`--live FILE`), if any.
    pub live: Option<std::sync::Arc<super::live::LiveLog>>,
}

fn now_epoch() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Sets up `opening` in the game's rules: its position, then its moves; the game must not be
/// over afterwards. Also the check of every line of an openings file.
pub fn opening_game(
    kind: GameKind,
    setup: Option<&str>,
    opening: &Opening,
    deal_seed: u64,
) -> Result<Box<dyn DynGame>, String> {
    let mut game = kind.new_game(setup, opening.position.as_deref(), deal_seed)?;
    for m in &opening.moves {
        let seat = *game
            .to_decide()
            .first()
            .ok_or_else(|| format!("opening move {m}: the game is over"))?;
        game.play(seat, m)
            .map_err(|r| format!("opening move {m}: {}", r.0))?;
    }
    if game.outcome().is_some() {
        return Err("the opening ends the game".into());
    }
    Ok(game)
}

/// Builds the game for a job with its opening and random plies applied.
pub fn prepare_game(s: &GameSettings, job: &GameJob) -> Result<Box<dyn DynGame>, String> {
    let opening = if s.openings.is_empty() {
        Opening::default()
    } else {
        s.openings[(job.block % s.openings.len() as u64) as usize].clone()
    };
    let setup = s.setup.as_deref();
    let mut game = opening_game(s.game, setup, &opening, job.block_seed)?;
    let rebuild = |extra: &[String]| -> Result<Box<dyn DynGame>, String> {
        let mut o = opening.clone();
        o.moves.extend(extra.iter().cloned());
        opening_game(s.game, setup, &o, job.block_seed)
    };
    random_plies(&mut game, s.random_plies, job.block_seed, &rebuild)?;
    Ok(game)
}

/// Plays the game of `job` to the end and returns its record. Never panics on engine
/// behaviour; a game that cannot even be set up is an `Err`.
pub fn play_game(s: &GameSettings, job: &GameJob) -> Result<GameRecord, String> {
    let started = now_epoch();
    let t0 = Instant::now();
    let mut game = prepare_game(s, job)?;
    let seats = game.seats();
    if job.seat_engines.len() != seats {
        return Err(format!(
            "schedule has {} seats, the game has {seats}",
            job.seat_engines.len()
        ));
    }
    let book: Vec<MoveRecord> = {
        let hist = game.history();
        let mut seat_of = Vec::with_capacity(hist.len());
        // Replay the opening on a fresh game to learn which seat made each book move.
        let mut fresh = s.game.new_game(
            s.setup.as_deref(),
            (!game.is_standard_start())
                .then(|| game.start_text())
                .as_deref(),
            job.block_seed,
        )?;
        for m in &hist {
            let seat = fresh.to_decide().first().copied().unwrap_or(0);
            let _ = fresh.play(seat, m);
            seat_of.push(seat);
        }
        hist.iter()
            .zip(seat_of)
            .map(|(m, seat)| MoveRecord {
                seat,
                mv: m.clone(),
                book: true,
                ms: 0,
                clock_ms: None,
                score: None,
                depth: None,
            })
            .collect()
    };
    let mut moves = book;
    if let Some(live) = &s.live {
        let engines: Vec<String> = job
            .seat_engines
            .iter()
            .map(|&e| s.engines[e].name.clone())
            .collect();
        live.start(&super::live::LiveStart {
            id: job.id,
            game: s.game.name(),
            setup: s.setup.as_deref(),
            start: &game.start_text(),
            standard_start: game.is_standard_start(),
            seed: job.block_seed,
            engines: &engines,
            tc: &s.tc.describe(),
            book: &moves,
        });
    }
    let mut clocks = Clocks::new(s.tc, seats, s.margin, s.hang);
    let mut adj = Adjudicator::new(s.adjudication, seats);
    adj.count_book_plies(moves.len() as u32);
    let variant = s.game.variant(s.setup.as_deref());
    // Start every seat's engine at once (handshakes overlap), then take the first failure in
    // seat order.
    let launched: Vec<Result<EngineClient, Fault>> = std::thread::scope(|scope| {
        let handles: Vec<_> = job
            .seat_engines
            .iter()
            .enumerate()
            .map(|(seat, &e)| {
                let ctx = GameContext {
                    variant: variant.clone(),
                    seat,
                    seats,
                };
                let spec = &s.engines[e];
                let timeouts = s.timeouts;
                scope.spawn(move || EngineClient::start(spec, &ctx, timeouts))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Fault::Crash("engine start-up panicked".into())))
            })
            .collect()
    });
    let mut clients: Vec<Option<EngineClient>> = Vec::with_capacity(seats);
    let mut fault: Option<(usize, Fault)> = None;
    for (seat, r) in launched.into_iter().enumerate() {
        match r {
            Ok(c) => clients.push(Some(c)),
            Err(f) => {
                clients.push(None);
                if fault.is_none() {
                    fault = Some((seat, f));
                }
            }
        }
    }
    let mut outcome: Option<Outcome> = None;
    let mut fault_seat = None;
    let engine_name = |seat: usize| s.engines[job.seat_engines[seat]].name.as_str();
    if let Some((seat, f)) = fault.take() {
        fault_seat = Some(seat);
        outcome = Some(Outcome::forfeit(
            seat,
            seats,
            f.reason(seat, engine_name(seat)),
        ));
    }
    let loop_start = Instant::now();
    let mut thinking = Duration::ZERO;
    let mut engine_moves = 0u64;
    while outcome.is_none() {
        if let Some(o) = game.outcome() {
            outcome = Some(o);
            break;
        }
        let deciders = game.to_decide();
        if deciders.is_empty() {
            outcome = Some(Outcome::draw(seats, "no seat to move"));
            break;
        }
        let mut decisions = Vec::with_capacity(deciders.len());
        let mut failed = None;
        for &seat in &deciders {
            let client = clients[seat].as_mut().expect("every seat started");
            let reply = client.think(game.as_ref(), seat, &clocks);
            let reply = match reply {
                Ok(r) => r,
                Err(f) => {
                    failed = Some((seat, f));
                    break;
                }
            };
            thinking += reply.elapsed;
            engine_moves += 1;
            if let Err(flag) = clocks.charge(seat, reply.elapsed) {
                failed = Some((seat, Fault::TimeForfeit(flag)));
                break;
            }
            decisions.push((seat, reply));
        }
        if let Some((seat, f)) = failed {
            fault_seat = Some(seat);
            outcome = Some(Outcome::forfeit(
                seat,
                seats,
                f.reason(seat, engine_name(seat)),
            ));
            break;
        }
        let texts: Vec<(usize, String)> = decisions
            .iter()
            .map(|(s, r)| (*s, r.text.clone()))
            .collect();
        let applied = if texts.len() == 1 {
            game.play(texts[0].0, &texts[0].1)
                .map(|c| vec![c])
                .map_err(|r| (texts[0].0, r))
        } else {
            game.play_all(&texts)
        };
        match applied {
            Ok(canon) => {
                for ((seat, reply), mv) in decisions.iter().zip(canon) {
                    moves.push(MoveRecord {
                        seat: *seat,
                        mv,
                        book: false,
                        ms: reply.elapsed.as_millis() as u64,
                        clock_ms: matches!(s.tc, TimeControl::Clock { .. })
                            .then(|| clocks.remaining(*seat).as_millis() as u64),
                        score: reply.score.map(score_field),
                        depth: reply.depth,
                    });
                    if let (Some(live), Some(m)) = (&s.live, moves.last()) {
                        live.moved(job.id, m);
                    }
                    if outcome.is_none() && game.outcome().is_none() {
                        outcome = adj.after_move(*seat, reply.score);
                    }
                }
            }
            Err((seat, refusal)) => {
                let text = texts
                    .iter()
                    .find(|(s, _)| *s == seat)
                    .map(|(_, t)| t.clone())
                    .unwrap_or_default();
                let f = Fault::Illegal {
                    text,
                    reason: refusal.0,
                };
                fault_seat = Some(seat);
                outcome = Some(Outcome::forfeit(
                    seat,
                    seats,
                    f.reason(seat, engine_name(seat)),
                ));
            }
        }
    }
    let overhead_us = loop_start.elapsed().saturating_sub(thinking).as_micros() as u64;
    for c in clients.into_iter().flatten() {
        c.finish();
    }
    let outcome = outcome.expect("loop ends with an outcome");
    if let Some(live) = &s.live {
        live.end(
            job.id,
            &outcome.result_text(),
            &outcome.ranks,
            &outcome.reason,
        );
    }
    Ok(GameRecord {
        id: job.id,
        block: job.block,
        block_seed: job.block_seed,
        game: s.game.name().to_string(),
        setup: s.setup.clone(),
        tc: s.tc.describe(),
        engines: job
            .seat_engines
            .iter()
            .map(|&e| s.engines[e].name.clone())
            .collect(),
        engine_index: job.seat_engines.clone(),
        start: game.start_text(),
        standard_start: game.is_standard_start(),
        moves,
        result: outcome.result_text(),
        ranks: outcome.ranks,
        reason: outcome.reason,
        fault_seat,
        final_position: game.position_text(),
        extra: game.record_extra(),
        started,
        duration_ms: t0.elapsed().as_millis() as u64,
        engine_moves,
        overhead_us,
    })
}

/// Replays a record with the rules core: every recorded decision must be accepted, and the
/// game must end as recorded (by rule, or by the recorded fault / adjudication). A Space Wars
/// record that reveals its deal is replayed from the deal alone (no seed) and its event log must
/// come out event by event. Returns the replayed final position.
pub fn replay(rec: &GameRecord) -> Result<String, String> {
    let kind = GameKind::parse(&rec.game)?;
    if kind == GameKind::SpiderChess {
        super::spider_game::register_recorded(&rec.extra)?;
    }
    if kind == GameKind::SpaceWars && rec.extra.get("deal").is_some_and(|d| !d.is_null()) {
        let mut game = super::spacewars_game::SpaceWarsGame::from_record(&rec.extra)?;
        replay_moves(&mut game, rec)?;
        game.check_record(&rec.extra)?;
        return replay_end(&game, rec);
    }
    let start = (!rec.standard_start).then_some(rec.start.as_str());
    let mut game = kind.new_game(rec.setup.as_deref(), start, rec.block_seed)?;
    replay_moves(game.as_mut(), rec)?;
    replay_end(game.as_ref(), rec)
}

/// Plays a record's decisions, simultaneous ones together.
fn replay_moves(game: &mut dyn DynGame, rec: &GameRecord) -> Result<(), String> {
    let mut i = 0;
    while i < rec.moves.len() {
        let deciders = game.to_decide();
        if deciders.is_empty() {
            return Err(format!("move {} after the end of the game", i + 1));
        }
        let batch: Vec<(usize, String)> = rec.moves[i..]
            .iter()
            .take(deciders.len())
            .map(|m| (m.seat, m.mv.clone()))
            .collect();
        if batch.len() == 1 {
            game.play(batch[0].0, &batch[0].1)
                .map_err(|r| format!("move {} ({}): {}", i + 1, batch[0].1, r.0))?;
        } else {
            game.play_all(&batch)
                .map_err(|(s, r)| format!("decisions at {} (seat {}): {}", i + 1, s + 1, r.0))?;
        }
        i += batch.len();
    }
    Ok(())
}

/// Checks that a replayed game ended as the record says; returns its final position.
fn replay_end(game: &dyn DynGame, rec: &GameRecord) -> Result<String, String> {
    match game.outcome() {
        Some(o) => {
            if o.ranks != rec.ranks {
                return Err(format!(
                    "replay ends {} ({}), record says {} ({})",
                    o.result_text(),
                    o.reason,
                    rec.result,
                    rec.reason
                ));
            }
        }
        None => {
            if rec.fault_seat.is_none() && !rec.reason.starts_with("adjudication") {
                return Err(format!(
                    "replay is not over, record says {} ({})",
                    rec.result, rec.reason
                ));
            }
        }
    }
    Ok(game.position_text())
}
