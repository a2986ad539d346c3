//! An engine as a child process in its own process group: lines to its stdin (with a write
//! deadline, so an engine that stops reading cannot block the referee), lines from its stdout
//! and the tail of its stderr read on one reader thread, with bounded memory however much the
//! engine writes: lines are cut at [`MAX_LINE_BYTES`], at most a few batches wait in the
//! queue (the engine is then held back by the pipe), and more than [`FLOOD_LINES`] lines or
//! [`FLOOD_BYTES`] bytes without a command in between is a flood. Every read has a deadline.
//! At the end the engine gets its quit command and a grace period, then the whole group
//! (the engine and anything it started) is killed.

use std::collections::{HashSet, VecDeque};
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::unix::{self, ExitInfo};

/// Longest line accepted from an engine, in bytes; a longer one is a fault and is never stored.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// More lines than this from an engine without a command from the referee in between is a flood.
pub const FLOOD_LINES: u64 = 100_000;
/// More bytes than this from an engine without a command in between is a flood.
pub const FLOOD_BYTES: u64 = 64 << 20;
/// How much of the engine's stderr is kept (the last bytes), for crash reasons.
pub const STDERR_TAIL_BYTES: usize = 4096;
/// Batches (one per read of the engine's stdout) that may wait for the referee.
const QUEUE_BATCHES: usize = 8;
/// Bytes read from the engine at a time.
const READ_CHUNK: usize = 16 * 1024;
/// How often a wait looks whether the engine process is still alive.
const POLL: Duration = Duration::from_millis(20);
/// After the engine process exited, how long lines it wrote before exiting are still awaited
/// when something else (a child it started) keeps its output open.
const EXIT_GRACE: Duration = Duration::from_millis(150);

/// Why no line could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Nothing arrived before the deadline.
    Timeout,
    /// The engine exited or closed its output. `partial` is an unterminated last line.
    Exited {
        /// How the process ended, when it has.
        status: Option<ExitInfo>,
        /// Bytes after the last newline, if any (lossy UTF-8, cut).
        partial: Option<String>,
    },
    /// The engine wrote bytes that are not UTF-8 text.
    NotText,
    /// A line longer than [`MAX_LINE_BYTES`] (its length in bytes).
    TooLong(usize),
    /// Too much output without a command in between.
    Flood {
        /// Lines since the last command.
        lines: u64,
        /// Bytes since the last command.
        bytes: u64,
    },
}

/// One line from the engine with the time the reader took it from the pipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line without its line ending.
    pub text: String,
    /// When it was read.
    pub at: Instant,
}

/// What the reader thread saw.
#[derive(Debug)]
enum Incoming {
    Line(String),
    NotText,
    TooLong(usize),
    Eof(Option<Vec<u8>>),
}

struct Batch {
    at: Instant,
    items: Vec<Incoming>,
}

/// The last bytes an engine wrote to stderr, and whether stderr is closed.
#[derive(Default)]
struct StderrTail {
    bytes: Mutex<VecDeque<u8>>,
    closed: AtomicBool,
}

/// Process groups of the engines running now, so that an interrupted `orrery` can end them.
static LIVE_GROUPS: Mutex<Option<HashSet<u32>>> = Mutex::new(None);

fn register(pgid: u32, live: bool) {
    let mut g = LIVE_GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    let set = g.get_or_insert_with(HashSet::new);
    if live {
        set.insert(pgid);
    } else {
        set.remove(&pgid);
    }
}

/// Kills the process group of every engine still running (for Ctrl-C and fatal errors).
pub fn kill_all_engines() {
    let g = LIVE_GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    for &pgid in g.iter().flatten() {
        unix::kill_group(pgid);
    }
}

/// Printable text for reasons: control characters escaped, at most `max` characters (the end
/// kept when `keep_end`), with the full length noted when cut.
pub fn sanitize(text: &str, max: usize, keep_end: bool) -> String {
    let mut chars: Vec<char> = Vec::new();
    for c in text.chars() {
        if c.is_control() {
            chars.extend(c.escape_default());
        } else {
            chars.push(c);
        }
    }
    if chars.len() <= max {
        return chars.into_iter().collect();
    }
    let total = text.len();
    if keep_end {
        let tail: String = chars[chars.len() - max..].iter().collect();
        format!("...{tail}")
    } else {
        let head: String = chars[..max].iter().collect();
        format!("{head}... ({total} bytes)")
    }
}

/// Splits the engine's stdout into lines of bounded length.
struct LineSplitter {
    current: Vec<u8>,
    overflow: usize,
}

impl LineSplitter {
    fn push(&mut self, mut data: &[u8], out: &mut Vec<Incoming>) {
        while !data.is_empty() {
            let (segment, rest, newline) = match data.iter().position(|&b| b == b'\n') {
                Some(i) => (&data[..i], &data[i + 1..], true),
                None => (data, &data[data.len()..], false),
            };
            if self.overflow > 0 || self.current.len() + segment.len() > MAX_LINE_BYTES {
                self.overflow += segment.len();
            } else {
                self.current.extend_from_slice(segment);
            }
            if newline {
                out.push(self.finish_line());
            }
            data = rest;
        }
    }

    fn finish_line(&mut self) -> Incoming {
        if self.overflow > 0 {
            let n = self.current.len() + self.overflow;
            self.current.clear();
            self.overflow = 0;
            return Incoming::TooLong(n);
        }
        while matches!(self.current.last(), Some(b'\r')) {
            self.current.pop();
        }
        let bytes = std::mem::take(&mut self.current);
        match String::from_utf8(bytes) {
            Ok(s) => Incoming::Line(s),
            Err(_) => Incoming::NotText,
        }
    }

    fn eof(&mut self) -> Incoming {
        let rest = std::mem::take(&mut self.current);
        self.overflow = 0;
        Incoming::Eof((!rest.is_empty()).then_some(rest))
    }
}

/// The reader thread: polls the engine's stdout and stderr, splits stdout into bounded lines
/// sent in batches over a bounded channel, keeps the tail of stderr (forwarding it to our
/// stderr when `forward` is set), and ends at end of file on both or when `stop` is set.
fn reader_loop(
    mut stdout: std::process::ChildStdout,
    mut stderr: std::process::ChildStderr,
    tx: SyncSender<Batch>,
    tail: Arc<StderrTail>,
    stop: Arc<AtomicBool>,
    forward: Option<String>,
) {
    let mut split = LineSplitter {
        current: Vec::new(),
        overflow: 0,
    };
    let mut buf = vec![0u8; READ_CHUNK];
    let (out_fd, err_fd): (RawFd, RawFd) = (stdout.as_raw_fd(), stderr.as_raw_fd());
    let (mut out_open, mut err_open) = (true, true);
    let mut at_line_start = true;
    while (out_open || err_open) && !stop.load(Ordering::Relaxed) {
        let fds: Vec<RawFd> = [(out_open, out_fd), (err_open, err_fd)]
            .iter()
            .filter(|(open, _)| *open)
            .map(|&(_, fd)| fd)
            .collect();
        let ready = unix::poll_fds(&fds, false, Duration::from_millis(100));
        for (fd, r) in fds.iter().zip(ready) {
            if !(r.ready || r.hangup) {
                continue;
            }
            let is_out = *fd == out_fd;
            let n = if is_out {
                stdout.read(&mut buf)
            } else {
                stderr.read(&mut buf)
            };
            let n = match n {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            if is_out {
                let mut items = Vec::new();
                if n == 0 {
                    out_open = false;
                    items.push(split.eof());
                } else {
                    split.push(&buf[..n], &mut items);
                }
                if !items.is_empty()
                    && tx
                        .send(Batch {
                            at: Instant::now(),
                            items,
                        })
                        .is_err()
                {
                    return;
                }
            } else if n == 0 {
                err_open = false;
                tail.closed.store(true, Ordering::Release);
            } else {
                let chunk = &buf[..n];
                {
                    let mut t = tail.bytes.lock().unwrap_or_else(|e| e.into_inner());
                    t.extend(chunk.iter().copied());
                    let excess = t.len().saturating_sub(STDERR_TAIL_BYTES);
                    t.drain(..excess);
                }
                if let Some(name) = &forward {
                    let mut text = Vec::with_capacity(chunk.len() + 16);
                    for &b in chunk {
                        if at_line_start {
                            text.extend_from_slice(format!("[{name}] ").as_bytes());
                        }
                        text.push(b);
                        at_line_start = b == b'\n';
                    }
                    let _ = std::io::stderr().write_all(&text);
                }
            }
        }
    }
    tail.closed.store(true, Ordering::Release);
}

/// A running engine process (the leader of its own process group) and its reader thread.
pub struct EngineProcess {
    child: Child,
    pid: u32,
    stdin: Option<ChildStdin>,
    rx: Option<Receiver<Batch>>,
    pending: VecDeque<(Instant, Incoming)>,
    eof: Option<Option<Vec<u8>>>,
    exit: Option<ExitInfo>,
    exit_seen_at: Option<Instant>,
    tail: Arc<StderrTail>,
    stop: Arc<AtomicBool>,
    command: String,
    write_timeout: Duration,
    lines_since_send: u64,
    bytes_since_send: u64,
    reaped: bool,
}

impl EngineProcess {
    /// Starts `command` through `sh -c` (so quoting and arguments work as in a shell), in `dir`
    /// if given, as the leader of a new process group. A write that the engine does not take
    /// within `write_timeout` fails. With `ORRERY_ENGINE_STDERR` set the engine's stderr is
    /// also copied to ours, each line prefixed with `[label]`.
    pub fn spawn(
        command: &str,
        dir: Option<&str>,
        label: &str,
        write_timeout: Duration,
    ) -> std::io::Result<Self> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!("exec {command}"));
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child = cmd.spawn()?;
        let pid = child.id();
        register(pid, true);
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take().expect("stdin is piped");
        unix::set_nonblocking(&stdout)?;
        unix::set_nonblocking(&stderr)?;
        unix::set_nonblocking(&stdin)?;
        let (tx, rx) = mpsc::sync_channel(QUEUE_BATCHES);
        let tail = Arc::new(StderrTail::default());
        let stop = Arc::new(AtomicBool::new(false));
        let forward = std::env::var_os("ORRERY_ENGINE_STDERR").map(|_| label.to_string());
        let (t, s) = (Arc::clone(&tail), Arc::clone(&stop));
        let spawned = std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || reader_loop(stdout, stderr, tx, t, s, forward));
        let mut me = EngineProcess {
            child,
            pid,
            stdin: Some(stdin),
            rx: Some(rx),
            pending: VecDeque::new(),
            eof: None,
            exit: None,
            exit_seen_at: None,
            tail,
            stop,
            command: command.to_string(),
            write_timeout,
            lines_since_send: 0,
            bytes_since_send: 0,
            reaped: false,
        };
        if let Err(e) = spawned {
            me.kill_and_reap();
            return Err(e);
        }
        Ok(me)
    }

    /// The command line the engine was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The engine's process id (also its process-group id).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Sends one line (one write of the line and its newline); fails when the engine's input
    /// is closed or the engine does not take it within the write timeout.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        log::trace!("{} < {line}", self.command);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        let mut data = Vec::with_capacity(line.len() + 1);
        data.extend_from_slice(line.as_bytes());
        data.push(b'\n');
        let deadline = Instant::now() + self.write_timeout;
        let mut written = 0;
        while written < data.len() {
            match stdin.write(&data[written..]) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(n) => written += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(std::io::Error::new(
                            std::io::ErrorKind::TimedOut,
                            "the engine does not read its input",
                        ));
                    }
                    let fd = stdin.as_raw_fd();
                    unix::poll_fds(&[fd], true, (deadline - now).min(POLL));
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.lines_since_send = 0;
        self.bytes_since_send = 0;
        Ok(())
    }

    /// How the process ended, if it has (it is not reaped, see [`unix::exited_without_reaping`]).
    pub fn exit_status(&mut self) -> Option<ExitInfo> {
        if self.exit.is_none() && !self.reaped {
            self.exit = unix::exited_without_reaping(self.pid);
        }
        self.exit
    }

    fn next_batch(&mut self, wait: Duration) {
        let Some(rx) = &self.rx else {
            self.eof.get_or_insert(None);
            return;
        };
        match rx.recv_timeout(wait) {
            Ok(b) => self.pending.extend(b.items.into_iter().map(|i| (b.at, i))),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                self.eof.get_or_insert(None);
            }
        }
    }

    /// Takes the next line or error from what has already arrived; `None` when nothing (but
    /// blank lines or the end of output) is waiting.
    fn take_pending(&mut self, deadline: Instant) -> Option<Result<Line, ReadError>> {
        while let Some((at, item)) = self.pending.pop_front() {
            if at > deadline {
                self.pending.push_front((at, item));
                return Some(Err(ReadError::Timeout));
            }
            match item {
                Incoming::Line(text) => {
                    self.lines_since_send += 1;
                    self.bytes_since_send += text.len() as u64 + 1;
                    if self.lines_since_send > FLOOD_LINES || self.bytes_since_send > FLOOD_BYTES {
                        return Some(Err(ReadError::Flood {
                            lines: self.lines_since_send,
                            bytes: self.bytes_since_send,
                        }));
                    }
                    if text.trim().is_empty() {
                        continue;
                    }
                    log::trace!("{} > {text}", self.command);
                    return Some(Ok(Line { text, at }));
                }
                Incoming::NotText => return Some(Err(ReadError::NotText)),
                Incoming::TooLong(n) => return Some(Err(ReadError::TooLong(n))),
                Incoming::Eof(partial) => self.eof = Some(partial),
            }
        }
        None
    }

    /// The next non-blank line, waiting at most until `deadline`. A line read after the
    /// deadline counts as not arrived, so a deadline holds however much the engine writes.
    pub fn read_line(&mut self, deadline: Instant) -> Result<Line, ReadError> {
        loop {
            if let Some(r) = self.take_pending(deadline) {
                return r;
            }
            if let Some(partial) = self.eof.clone() {
                let status = self.wait_exit(Duration::from_millis(300));
                return Err(ReadError::Exited {
                    status,
                    partial: partial.map(|p| sanitize(&String::from_utf8_lossy(&p), 80, false)),
                });
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ReadError::Timeout);
            }
            if let Some(status) = self.exit_status() {
                // The engine exited but something it started keeps its output open: take
                // what it wrote before exiting, then report the exit.
                let seen = *self.exit_seen_at.get_or_insert(now);
                if now.duration_since(seen) >= EXIT_GRACE {
                    return Err(ReadError::Exited {
                        status: Some(status),
                        partial: None,
                    });
                }
            }
            self.next_batch(deadline.saturating_duration_since(now).min(POLL));
        }
    }

    /// Every line that has already arrived, without waiting; an error ends the list.
    pub fn drain_now(&mut self) -> Vec<Result<Line, ReadError>> {
        if let Some(rx) = &self.rx {
            while let Ok(b) = rx.try_recv() {
                self.pending.extend(b.items.into_iter().map(|i| (b.at, i)));
            }
        }
        let far = Instant::now() + Duration::from_secs(3600);
        let mut out = Vec::new();
        while let Some(r) = self.take_pending(far) {
            let stop = r.is_err();
            out.push(r);
            if stop {
                break;
            }
        }
        out
    }

    fn wait_exit(&mut self, grace: Duration) -> Option<ExitInfo> {
        let until = Instant::now() + grace;
        loop {
            if let Some(s) = self.exit_status() {
                return Some(s);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The last lines of the engine's stderr (up to three, at most 300 characters), waiting
    /// briefly for the rest of it when the engine has exited; empty when it wrote nothing.
    pub fn stderr_tail(&mut self) -> String {
        if self.exit_status().is_some() || self.eof.is_some() {
            let until = Instant::now() + Duration::from_millis(300);
            while !self.tail.closed.load(Ordering::Acquire) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        let bytes: Vec<u8> = {
            let t = self.tail.bytes.lock().unwrap_or_else(|e| e.into_inner());
            t.iter().copied().collect()
        };
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let last = &lines[lines.len().saturating_sub(3)..];
        sanitize(&last.join(" | "), 300, true)
    }

    fn kill_and_reap(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        // Kill the group before reaping the leader: until then its pid, the group id, is
        // reserved and cannot name someone else's processes.
        unix::kill_group(self.pid);
        let _ = self.child.kill();
        if let Ok(status) = self.child.wait() {
            use std::os::unix::process::ExitStatusExt;
            self.exit.get_or_insert(match status.code() {
                Some(c) => ExitInfo::Code(c),
                None => ExitInfo::Signal(status.signal().unwrap_or(0)),
            });
        }
        self.reaped = true;
        register(self.pid, false);
        self.stop.store(true, Ordering::Relaxed);
        self.rx = None;
    }

    /// Asks the engine to quit with `quit_line`, waits up to `grace` for it to exit, then kills
    /// its whole process group (including anything it left running) and reaps it.
    pub fn shut_down(&mut self, quit_line: &str, grace: Duration) {
        if !self.reaped {
            let _ = self.send(quit_line);
            self.stdin = None;
            self.wait_exit(grace);
        }
        self.kill_and_reap();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill_and_reap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<String> {
        let mut s = LineSplitter {
            current: Vec::new(),
            overflow: 0,
        };
        let mut out = Vec::new();
        for c in chunks {
            s.push(c, &mut out);
        }
        out.push(s.eof());
        out.iter()
            .map(|i| match i {
                Incoming::Line(l) => format!("L:{l}"),
                Incoming::NotText => "NotText".into(),
                Incoming::TooLong(n) => format!("TooLong:{n}"),
                Incoming::Eof(p) => format!("Eof:{:?}", p.as_ref().map(|b| b.len())),
            })
            .collect()
    }

    #[test]
    fn lines_are_split_across_chunks_and_bounded() {
        assert_eq!(
            split(&[b"best", b"move a1\r\nin", b"fo\n\npart"]),
            vec!["L:bestmove a1", "L:info", "L:", "Eof:Some(4)"]
        );
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        assert_eq!(
            split(&[&long, b"y\nok\n"]),
            vec![
                format!("TooLong:{}", MAX_LINE_BYTES + 11),
                "L:ok".into(),
                "Eof:None".into()
            ]
        );
        assert_eq!(
            split(&[b"\xff\xfe\n"]),
            vec!["NotText".to_string(), "Eof:None".into()]
        );
    }

    #[test]
    fn sanitize_escapes_and_cuts() {
        assert_eq!(sanitize("a\nb\u{1b}", 20, false), "a\\nb\\u{1b}");
        assert_eq!(sanitize("abcdef", 3, false), "abc... (6 bytes)");
        assert_eq!(sanitize("abcdef", 3, true), "...def");
    }
}
