//! The CECP (xboard/WinBoard protocol version 2) dialect: typed commands and their parser.

use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_until};
use nom::character::complete::multispace0;
use nom::combinator::{all_consuming, rest};
use nom::sequence::{preceded, tuple};
use nom::IResult;

use super::lex::{
    head, looks_like_move, minutes_or_min_sec, seconds, shorten, signed_saturating, trim, unsigned,
    words, CommandError,
};

/// The game result a GUI reports with `result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultToken {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished.
    Unknown,
}

/// One CECP command, fully parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CecpCommand {
    /// `xboard`.
    Xboard,
    /// `protover N`: answered with the `feature` lines.
    Protover(u32),
    /// `accepted FEATURE` (ignored).
    Accepted(String),
    /// `rejected FEATURE` (ignored).
    Rejected(String),
    /// `new`: start position of the default variant, engine plays seat 2, leave force mode.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`: the engine plays no seat.
    Force,
    /// `go`: the engine plays the seat to move, starting now.
    Go,
    /// `usermove MOVE` or a bare move.
    UserMove(String),
    /// `setboard FEN`.
    SetBoard(String),
    /// `time N`: the engine's clock, centiseconds (negative clamps to zero).
    Time(i64),
    /// `otim N`: the opponent's clock, centiseconds.
    Otim(i64),
    /// `level MPS BASE INC`.
    Level {
        /// Moves per time control, 0 for the whole game.
        mps: u32,
        /// Time per control.
        base: Duration,
        /// Increment per move.
        inc: Duration,
    },
    /// `st N`: fixed seconds per move.
    St(Duration),
    /// `sd N`: depth limit.
    Sd(u32),
    /// `ping N`: answered `pong N` (N echoed as written) after all earlier commands, and after
    /// the move when it arrives while the engine thinks.
    Ping(String),
    /// `undo`: take back one ply.
    Undo,
    /// `remove`: take back two plies.
    Remove,
    /// `result RESULT {COMMENT}`: the game ended; the engine stops playing.
    Result(ResultToken),
    /// `post`: show thinking.
    Post,
    /// `nopost`: hide thinking.
    NoPost,
    /// `?`: move now.
    MoveNow,
    /// `perft N` (extension as in many engines).
    Perft(u32),
    /// `option NAME[=VALUE]`: set an engine option announced with `feature option=`.
    Option {
        /// Option name.
        name: String,
        /// Value, absent for buttons.
        value: Option<String>,
    },
    /// Commands accepted without effect (`hard`, `easy`, `random`, `computer`, `name`, `rating`,
    /// `draw`, `ics`, `hint`, `bk`, `cores`, `memory`, `egtpath`): the word.
    Ignored(String),
    /// `quit`.
    Quit,
}

fn no_args(cmd: CecpCommand, name: &str, args: &str) -> Result<CecpCommand, CommandError> {
    if args.is_empty() {
        Ok(cmd)
    } else {
        Err(CommandError::new(format!(
            "'{name}' takes no arguments, got '{}'",
            shorten(args)
        )))
    }
}

fn one_arg<'a>(name: &str, args: &'a str) -> Result<&'a str, CommandError> {
    match words(args).as_slice() {
        [one] => Ok(one),
        [] => Err(CommandError::new(format!("'{name}' needs an argument"))),
        _ => Err(CommandError::new(format!(
            "'{name}' takes one argument, got '{}'",
            shorten(args)
        ))),
    }
}

fn result_token(input: &str) -> IResult<&str, ResultToken> {
    let (rest, tok) = alt((tag("1-0"), tag("0-1"), tag("1/2-1/2"), tag("*")))(input)?;
    let t = match tok {
        "1-0" => ResultToken::WhiteWins,
        "0-1" => ResultToken::BlackWins,
        "1/2-1/2" => ResultToken::Draw,
        _ => ResultToken::Unknown,
    };
    Ok((rest, t))
}

fn parse_result(args: &str) -> Result<CecpCommand, CommandError> {
    let comment_or_end = |i| -> IResult<&str, &str> {
        alt((
            preceded(
                tuple((multispace0, tag("{"))),
                preceded(take_until("}"), preceded(tag("}"), multispace0)),
            ),
            multispace0,
        ))(i)
    };
    match all_consuming(tuple((result_token, comment_or_end)))(args) {
        Ok((_, (t, _))) => Ok(CecpCommand::Result(t)),
        Err(_) => Err(CommandError::new(
            "result needs 1-0, 0-1, 1/2-1/2 or * and an optional {comment}",
        )),
    }
}

fn parse_level(args: &str) -> Result<CecpCommand, CommandError> {
    match words(args).as_slice() {
        [mps, base, inc] => Ok(CecpCommand::Level {
            mps: unsigned(mps, "level moves per control")?,
            base: minutes_or_min_sec(base)?,
            inc: seconds(inc, "level increment")?,
        }),
        _ => Err(CommandError::new(
            "level needs three arguments: MPS BASE INC",
        )),
    }
}

fn parse_option(args: &str) -> Result<CecpCommand, CommandError> {
    fn split(input: &str) -> IResult<&str, (&str, &str)> {
        all_consuming(tuple((take_until("="), preceded(tag("="), rest))))(input)
    }
    let (name, value) = match split(args) {
        Ok((_, (n, v))) => (trim(n), Some(trim(v).to_string())),
        Err(_) => (trim(args), None),
    };
    if name.is_empty() {
        return Err(CommandError::new("option needs NAME=VALUE"));
    }
    Ok(CecpCommand::Option {
        name: name.to_string(),
        value,
    })
}

/// Parses one input line of the CECP dialect (without its line end). Every character is either
/// parsed or the line is refused: see protocol.md, "Lines and words".
pub fn parse_cecp(line: &str) -> Result<CecpCommand, CommandError> {
    super::lex::check_characters(line)?;
    let (cmd, args) = head(line);
    match cmd {
        "xboard" => no_args(CecpCommand::Xboard, cmd, args),
        "protover" => Ok(CecpCommand::Protover(unsigned(
            one_arg(cmd, args)?,
            "protover",
        )?)),
        "accepted" => Ok(CecpCommand::Accepted(one_arg(cmd, args)?.to_string())),
        "rejected" => Ok(CecpCommand::Rejected(one_arg(cmd, args)?.to_string())),
        "new" => no_args(CecpCommand::New, cmd, args),
        "variant" => Ok(CecpCommand::Variant(one_arg(cmd, args)?.to_string())),
        "force" => no_args(CecpCommand::Force, cmd, args),
        "go" => no_args(CecpCommand::Go, cmd, args),
        "usermove" => Ok(CecpCommand::UserMove(one_arg(cmd, args)?.to_string())),
        "setboard" if args.is_empty() => Err(CommandError::new("setboard needs a position")),
        "setboard" => Ok(CecpCommand::SetBoard(args.to_string())),
        "time" => Ok(CecpCommand::Time(signed_saturating(
            one_arg(cmd, args)?,
            "time (centiseconds)",
        )?)),
        "otim" => Ok(CecpCommand::Otim(signed_saturating(
            one_arg(cmd, args)?,
            "otim (centiseconds)",
        )?)),
        "level" => parse_level(args),
        "st" => Ok(CecpCommand::St(seconds(one_arg(cmd, args)?, "st")?)),
        "sd" => Ok(CecpCommand::Sd(unsigned(one_arg(cmd, args)?, "sd")?)),
        "ping" => {
            let n = one_arg(cmd, args)?;
            signed_saturating(n, "ping")?;
            Ok(CecpCommand::Ping(n.to_string()))
        }
        "undo" => no_args(CecpCommand::Undo, cmd, args),
        "remove" => no_args(CecpCommand::Remove, cmd, args),
        "result" => parse_result(args),
        "post" => no_args(CecpCommand::Post, cmd, args),
        "nopost" => no_args(CecpCommand::NoPost, cmd, args),
        "?" => no_args(CecpCommand::MoveNow, cmd, args),
        "quit" => no_args(CecpCommand::Quit, cmd, args),
        "perft" => {
            let depth = unsigned::<u32>(one_arg(cmd, args)?, "perft")?;
            super::lex::perft_depth(depth, "perft").map(CecpCommand::Perft)
        }
        "option" => parse_option(args),
        "hard" | "easy" | "random" | "computer" | "draw" | "hint" | "bk" => {
            no_args(CecpCommand::Ignored(cmd.to_string()), cmd, args)
        }
        "name" if !args.is_empty() => Ok(CecpCommand::Ignored(cmd.to_string())),
        "name" => Err(CommandError::new("name needs the opponent's name")),
        "rating" => match words(args).as_slice() {
            [mine, theirs] => {
                signed_saturating(mine, "rating (engine)")?;
                signed_saturating(theirs, "rating (opponent)")?;
                Ok(CecpCommand::Ignored(cmd.to_string()))
            }
            _ => Err(CommandError::new(
                "rating needs two numbers: ENGINE OPPONENT",
            )),
        },
        "ics" => one_arg(cmd, args).map(|_| CecpCommand::Ignored(cmd.to_string())),
        "cores" | "memory" => {
            unsigned::<u64>(one_arg(cmd, args)?, cmd)?;
            Ok(CecpCommand::Ignored(cmd.to_string()))
        }
        "egtpath" if words(args).len() >= 2 => Ok(CecpCommand::Ignored(cmd.to_string())),
        "egtpath" => Err(CommandError::new("egtpath needs a type and a path")),
        "" => Err(CommandError::new("empty command")),
        m if args.is_empty() && looks_like_move(m) => Ok(CecpCommand::UserMove(m.to_string())),
        other => Err(CommandError::new(format!(
            "unknown command '{}'",
            shorten(other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> CecpCommand {
        parse_cecp(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn err(line: &str) -> String {
        match parse_cecp(line) {
            Ok(c) => panic!("{line} parsed as {c:?}"),
            Err(e) => e.reason,
        }
    }

    #[test]
    fn simple_commands() {
        use CecpCommand::*;
        for (line, cmd) in [
            ("xboard", Xboard),
            ("protover 2", Protover(2)),
            ("new", New),
            ("force", Force),
            ("go", Go),
            ("undo", Undo),
            ("remove", Remove),
            ("post", Post),
            ("nopost", NoPost),
            ("?", MoveNow),
            ("quit", Quit),
            ("hard", Ignored("hard".into())),
            ("easy", Ignored("easy".into())),
            ("random", Ignored("random".into())),
            ("computer", Ignored("computer".into())),
            ("draw", Ignored("draw".into())),
            ("name Some Human", Ignored("name".into())),
            ("rating 2100 1800", Ignored("rating".into())),
            ("accepted usermove", Accepted("usermove".into())),
            ("rejected sigint", Rejected("sigint".into())),
            ("variant spider", Variant("spider".into())),
            ("sd 7", Sd(7)),
            ("perft 3", Perft(3)),
            ("ping 12", Ping("12".into())),
            ("time 6000", Time(6000)),
            ("otim -20", Otim(-20)),
        ] {
            assert_eq!(ok(line), cmd, "{line}");
        }
    }

    #[test]
    fn moves_bare_and_explicit() {
        assert_eq!(ok("usermove m2m5"), CecpCommand::UserMove("m2m5".into()));
        assert_eq!(ok("m2m5"), CecpCommand::UserMove("m2m5".into()));
        assert_eq!(ok("n18n19q"), CecpCommand::UserMove("n18n19q".into()));
        assert_eq!(ok("P@e5"), CecpCommand::UserMove("P@e5".into()));
        assert!(err("usermove").contains("needs an argument"));
        assert!(err("usermove e2 e4").contains("one argument"));
        assert!(err("e2e4 e7e5").contains("unknown command"));
        assert!(err("frobnicate").contains("unknown command"));
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            ok("level 40 5 0"),
            CecpCommand::Level {
                mps: 40,
                base: Duration::from_secs(300),
                inc: Duration::ZERO
            }
        );
        assert_eq!(
            ok("level 0 2:30 1.5"),
            CecpCommand::Level {
                mps: 0,
                base: Duration::from_secs(150),
                inc: Duration::from_millis(1500)
            }
        );
        assert_eq!(ok("st 10"), CecpCommand::St(Duration::from_secs(10)));
        assert_eq!(ok("st 0.5"), CecpCommand::St(Duration::from_millis(500)));
        assert_eq!(ok("time 99999999999999999999"), CecpCommand::Time(i64::MAX));
        assert!(err("level 40 5").contains("three"));
        assert!(err("level x 5 0").contains("integer"));
        assert!(err("level 40 5:99 0").contains("below 60"));
        assert!(err("level 40 5 -1").contains("seconds"));
        assert!(err("st").contains("needs an argument"));
        assert!(err("st fast").contains("seconds"));
        assert!(err("sd -3").contains("non-negative"));
        assert!(err("sd 99999999999").contains("out of range"));
        assert!(err("time").contains("needs an argument"));
        assert!(err("time 1.5").contains("integer"));
    }

    #[test]
    fn results_options_and_misc() {
        assert_eq!(
            ok("result 1-0 {White mates}"),
            CecpCommand::Result(ResultToken::WhiteWins)
        );
        assert_eq!(ok("result 1/2-1/2"), CecpCommand::Result(ResultToken::Draw));
        assert_eq!(ok("result *"), CecpCommand::Result(ResultToken::Unknown));
        assert!(err("result 2-0").contains("result needs"));
        assert!(err("result").contains("result needs"));
        assert_eq!(
            ok("option Hash=64"),
            CecpCommand::Option {
                name: "Hash".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(
            ok("option Clear Hash"),
            CecpCommand::Option {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(err("option =5").contains("NAME"));
        assert!(err("setboard").contains("position"));
        assert_eq!(
            ok("setboard 7***rqkqr***7/x w - - 0 1"),
            CecpCommand::SetBoard("7***rqkqr***7/x w - - 0 1".into())
        );
        assert!(err("ping").contains("needs an argument"));
        assert!(err("ping abc").contains("integer"));
        assert!(err("perft 0").contains("at least 1"));
        assert!(err("new game").contains("no arguments"));
        assert!(err("protover two").contains("integer"));
        assert!(err("ping 7\u{3000}junk").contains("U+3000"));
        assert!(err("rating 2100").contains("two numbers"));
        assert!(err("rating 2100 x").contains("integer"));
        assert!(err("cores 2 4").contains("one argument"));
        assert!(err("memory lots").contains("integer"));
        assert!(err("name").contains("name"));
        assert!(err("egtpath syzygy").contains("path"));
        assert_eq!(
            ok("egtpath syzygy /tb dir"),
            CecpCommand::Ignored("egtpath".into())
        );
        assert_eq!(ok("cores 4"), CecpCommand::Ignored("cores".into()));
    }
}
