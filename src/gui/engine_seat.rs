//! An engine playing one seat at a GUI table: the referee's engine client
//! ([`EngineClient`]) on a thread of its own, with its own copy of the game that it is told every
//! decision of, so that the table (and the page) never wait for a search. Every line the engine
//! writes while thinking is forwarded to the table as it arrives.

use std::sync::mpsc::{self, Receiver, Sender};

use crate::referee::clock::Clocks;
use crate::referee::engine::{EngineClient, EngineSpec, Fault, GameContext, Reply, Timeouts};
use crate::referee::game_adapter::DynGame;

/// What the table tells an engine seat.
pub enum ToEngine {
    /// Decisions applied at the table (one, or a simultaneous batch), in order.
    Apply(Vec<(usize, String)>),
    /// Decide for the seat now, under these clocks; the table waits for [`FromEngine::Reply`].
    Think(Clocks),
}

/// What an engine seat reports to its table.
pub enum FromEngine {
    /// The engine started and completed its handshake.
    Ready,
    /// A line the engine wrote while thinking.
    Line(String),
    /// The answer to [`ToEngine::Think`], or the fault that ended the engine.
    Reply(Result<Reply, Fault>),
}

/// A running engine seat: the sender that feeds it. Dropping it ends the thread once the engine
/// answers its current search (if any) and the engine is told to quit.
pub struct EngineSeat {
    tx: Sender<ToEngine>,
}

impl EngineSeat {
    /// Starts `spec` for `seat` on its own thread with its copy of the game; reports go to
    /// `report` as `(seat, FromEngine)` through `wrap`.
    pub fn spawn<M: Send + 'static>(
        spec: EngineSpec,
        ctx: GameContext,
        timeouts: Timeouts,
        game: Box<dyn DynGame>,
        report: Sender<M>,
        wrap: fn(usize, FromEngine) -> M,
    ) -> EngineSeat {
        let (tx, rx) = mpsc::channel();
        let seat = ctx.seat;
        let spawned = std::thread::Builder::new()
            .name(format!("gui-engine-{}", seat + 1))
            .spawn(move || run(spec, ctx, timeouts, game, rx, report, wrap));
        if let Err(e) = spawned {
            log::error!("gui: cannot start an engine thread: {e}");
        }
        EngineSeat { tx }
    }

    /// Sends a message; false if the engine's thread has ended.
    pub fn send(&self, m: ToEngine) -> bool {
        self.tx.send(m).is_ok()
    }
}

fn run<M>(
    spec: EngineSpec,
    ctx: GameContext,
    timeouts: Timeouts,
    mut game: Box<dyn DynGame>,
    rx: Receiver<ToEngine>,
    report: Sender<M>,
    wrap: fn(usize, FromEngine) -> M,
) {
    let seat = ctx.seat;
    let mut client = match EngineClient::start(&spec, &ctx, timeouts) {
        Ok(c) => c,
        Err(f) => {
            let _ = report.send(wrap(seat, FromEngine::Reply(Err(f))));
            return;
        }
    };
    if report.send(wrap(seat, FromEngine::Ready)).is_err() {
        client.finish();
        return;
    }
    while let Ok(m) = rx.recv() {
        match m {
            ToEngine::Apply(batch) => {
                let r = if batch.len() == 1 {
                    game.play(batch[0].0, &batch[0].1).map(|_| ())
                } else {
                    game.play_all(&batch).map(|_| ()).map_err(|(_, r)| r)
                };
                if let Err(r) = r {
                    log::error!(
                        "gui: engine copy refused a decision the table accepted: {}",
                        r.0
                    );
                }
            }
            ToEngine::Think(clocks) => {
                let tx = report.clone();
                let mut watch = |line: &str| {
                    let _ = tx.send(wrap(seat, FromEngine::Line(line.to_string())));
                };
                let r = client.think_watched(game.as_ref(), seat, &clocks, &mut watch);
                let failed = r.is_err();
                if report.send(wrap(seat, FromEngine::Reply(r))).is_err() || failed {
                    break;
                }
            }
        }
    }
    client.finish();
}
