//! The engine's stdin: a reader thread turning bytes into bounded, checked, trimmed UTF-8 lines.

use std::io::BufRead;
use std::sync::mpsc::Sender;

use super::lex::{check_characters, trim, CommandError};

/// Longest accepted input line in bytes; longer lines are answered with an error and skipped.
pub const MAX_LINE: usize = 1 << 20;

/// What the reader thread delivers.
pub(crate) enum InputEvent {
    /// A line without its line ending and surrounding whitespace, or why it was refused.
    Line(Result<String, CommandError>),
    /// End of input (or a read error): treated as `quit` once running work is done.
    Eof,
}

/// Reads one line (ended by LF or CR), keeping at most `max` bytes; returns the kept bytes and the full length, or
/// `None` at end of input.
fn read_bounded(input: &mut impl BufRead, max: usize) -> std::io::Result<Option<(Vec<u8>, usize)>> {
    let mut kept = Vec::new();
    let mut total = 0usize;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(if total == 0 {
                None
            } else {
                Some((kept, total))
            });
        }
        // UCI: "'\n' can be 0x0d or 0x0a0d or any combination": a lone CR ends a line too (the
        // empty line between the CR and LF of a CRLF is blank and ignored).
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = max.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        total = total.saturating_add(chunk.len());
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some((kept, total.max(1))));
        }
    }
}

/// Turns raw line bytes into a trimmed string or an error: one `\r` before the line end is
/// dropped, spaces and tabs at both ends are trimmed; any other control character or kind of
/// space is an error ([`check_characters`]).
fn decode(bytes: Vec<u8>, total: usize) -> Result<String, CommandError> {
    if total > MAX_LINE {
        return Err(CommandError::new(format!(
            "line too long ({total} bytes, limit {MAX_LINE})"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        CommandError::new(format!(
            "line is not valid UTF-8 (byte {} is not)",
            e.utf8_error().valid_up_to() + 1
        ))
    })?;
    let text = text.strip_suffix('\r').unwrap_or(&text);
    check_characters(text)?;
    Ok(trim(text).to_string())
}

/// Spawns the thread that reads `input` and sends its lines through `send` until end of input
/// or until the receiver is gone.
pub(crate) fn spawn_reader<T: Send + 'static>(
    mut input: impl BufRead + Send + 'static,
    tx: Sender<T>,
    wrap: fn(InputEvent) -> T,
) {
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || loop {
            let event = match read_bounded(&mut input, MAX_LINE) {
                Ok(Some((bytes, total))) => InputEvent::Line(decode(bytes, total)),
                Ok(None) => InputEvent::Eof,
                Err(e) => {
                    log::warn!("input error: {e}");
                    InputEvent::Eof
                }
            };
            let eof = matches!(event, InputEvent::Eof);
            if tx.send(wrap(event)).is_err() || eof {
                break;
            }
        });
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn bounded_lines_crlf_and_eof() {
        let mut c = Cursor::new(b"uci\r\n\n \t go  \r\nlast".to_vec());
        let mut lines = Vec::new();
        while let Some((b, t)) = read_bounded(&mut c, 100).unwrap() {
            lines.push(decode(b, t));
        }
        assert_eq!(
            lines,
            vec![
                Ok("uci".to_string()),
                Ok(String::new()),
                Ok(String::new()),
                Ok("go".to_string()),
                Ok(String::new()),
                Ok("last".to_string())
            ]
        );
    }

    #[test]
    fn overlong_and_bad_utf8_lines_are_errors_and_reading_goes_on() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\n\xff\xfe\nisready\n");
        let mut c = std::io::BufReader::with_capacity(4096, Cursor::new(data));
        let (b, t) = read_bounded(&mut c, MAX_LINE).unwrap().unwrap();
        assert!(b.len() <= MAX_LINE);
        assert!(decode(b, t).unwrap_err().reason.contains("too long"));
        let (b, t) = read_bounded(&mut c, MAX_LINE).unwrap().unwrap();
        assert!(decode(b, t).unwrap_err().reason.contains("UTF-8"));
        let (b, t) = read_bounded(&mut c, MAX_LINE).unwrap().unwrap();
        assert_eq!(decode(b, t), Ok("isready".into()));
        assert!(read_bounded(&mut c, MAX_LINE).unwrap().is_none());
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line() {
        let mut c = Cursor::new(b"uci\risready\r\ngo\r".to_vec());
        let mut lines = Vec::new();
        while let Some((b, t)) = read_bounded(&mut c, 100).unwrap() {
            lines.push(decode(b, t).unwrap());
        }
        assert_eq!(lines, vec!["uci", "isready", "", "go"]);
    }

    #[test]
    fn only_spaces_and_tabs_are_trimmed() {
        assert!(decode("ping 7\u{3000}".into(), 9)
            .unwrap_err()
            .reason
            .contains("U+3000"));
        assert!(decode("\u{0B}uci".into(), 4).is_err());
        assert!(decode("uci\r\r".into(), 5).is_err());
        assert_eq!(decode("\r".into(), 1), Ok(String::new()));
    }
}
