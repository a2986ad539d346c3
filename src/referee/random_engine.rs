//! A minimal UCI-style engine that plays a seeded random legal move in any game the referee
//! knows, using the same rules cores: a baseline opponent and a real engine for tests
//! (`orrery random-engine --game spider-chess`).

use std::io::{BufRead, Write};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::game_adapter::DynGame;
use super::game_kind::GameKind;

/// Builds the position of a `position` command: `position startpos|fen <text> [moves ...]`.
fn position(kind: GameKind, setup: Option<&str>, args: &str) -> Result<Box<dyn DynGame>, String> {
    let (head, moves) = match args.split_once(" moves ") {
        Some((h, m)) => (h.trim(), m.split_whitespace().collect::<Vec<_>>()),
        None => (args.trim().trim_end_matches(" moves"), Vec::new()),
    };
    let (setup, start) = if head == "startpos" {
        (setup, None)
    } else if let Some(name) = head.strip_prefix("startpos ") {
        (Some(name.trim()), None)
    } else if let Some(f) = head.strip_prefix("fen ") {
        (setup, Some(f.trim()))
    } else {
        return Err(format!("position {args:?}: expected startpos or fen"));
    };
    let mut game = kind.new_game(setup, start, 0)?;
    for m in moves {
        let seat = *game
            .to_decide()
            .first()
            .ok_or_else(|| format!("move {m} after the end of the game"))?;
        game.play(seat, m)
            .map_err(|r| format!("move {m}: {}", r.0))?;
    }
    Ok(game)
}

/// Runs the engine loop on `input`/`output` until `quit` or end of input.
pub fn run(
    kind: GameKind,
    setup: Option<&str>,
    seed: u64,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game: Option<Box<dyn DynGame>> = None;
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "uci" => {
                writeln!(output, "id name orrery-random")?;
                writeln!(output, "id author the Orrery project")?;
                writeln!(output, "uciok")?;
            }
            "isready" => writeln!(output, "readyok")?,
            "ucinewgame" | "setoption" => {}
            "position" => match position(kind, setup, rest) {
                Ok(g) => game = Some(g),
                Err(e) => {
                    game = None;
                    writeln!(output, "info string error: {e}")?;
                }
            },
            "go" => {
                let mv = game
                    .as_ref()
                    .map(|g| g.legal_moves())
                    .and_then(|ms| ms.choose(&mut rng).cloned());
                match mv {
                    Some(m) => writeln!(output, "bestmove {m}")?,
                    None => writeln!(output, "bestmove 0000")?,
                }
            }
            "quit" => break,
            "" => {}
            _ => writeln!(output, "info string error: unknown command {cmd:?}")?,
        }
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_a_legal_move() {
        let input = b"uci\nisready\nposition startpos moves b2 a1\ngo movetime 10\nposition fen bad\nquit\n";
        let mut out = Vec::new();
        run(GameKind::TicTacToe, None, 3, &input[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
        let mv = text
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        assert!(!["a1", "b2"].contains(&mv) && mv.len() == 2, "{mv}");
        assert!(text.contains("info string error"), "{text}");
    }
}
