//! Talking to an engine line by line with timeouts: in-process (the loop on a thread, joined by
//! pipes) or a spawned binary (give it the child's stdin and stdout).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Default patience for one expected reply.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// The writing end of an in-process pipe.
pub struct PipeWriter(Sender<Vec<u8>>);

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "reader gone"))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The reading end of an in-process pipe; end of input when the writer is dropped.
pub struct PipeReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for PipeReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(b) => {
                    self.buf = b;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// A one-way in-process byte pipe.
pub fn pipe() -> (PipeWriter, BufReader<PipeReader>) {
    let (tx, rx) = channel();
    (
        PipeWriter(tx),
        BufReader::new(PipeReader {
            rx,
            buf: Vec::new(),
            pos: 0,
        }),
    )
}

/// One side of a conversation with an engine: send lines, wait for replies.
pub struct EngineIo {
    stdin: Option<Box<dyn Write + Send>>,
    lines: Receiver<String>,
    /// Every line received so far, for failure messages.
    pub transcript: Vec<String>,
    engine: Option<JoinHandle<()>>,
    child: Option<Child>,
}

impl EngineIo {
    /// Wraps an engine's stdin and stdout (e.g. a spawned binary's pipes).
    pub fn new(stdin: impl Write + Send + 'static, stdout: impl BufRead + Send + 'static) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        EngineIo {
            stdin: Some(Box::new(stdin)),
            lines: rx,
            transcript: Vec::new(),
            engine: None,
            child: None,
        }
    }

    /// Runs `orrery::protocol::run` with `game` on a thread of this process.
    pub fn in_process<G: orrery::protocol::EngineGame>(game: G) -> Self {
        let (to_engine, engine_in) = pipe();
        let (engine_out, from_engine) = pipe();
        let handle = std::thread::spawn(move || orrery::protocol::run(game, engine_in, engine_out));
        let mut io = EngineIo::new(to_engine, from_engine);
        io.engine = Some(handle);
        io
    }

    /// Spawns an engine binary with piped stdin/stdout (stderr inherited).
    pub fn spawn(cmd: &mut Command) -> std::io::Result<Self> {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut io = EngineIo::new(stdin, stdout);
        io.child = Some(child);
        Ok(io)
    }

    /// Sends raw bytes (no line ending added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine stdin");
        stdin.flush().expect("engine stdin");
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `wait` without one (or when the engine's stdout closed).
    pub fn next_line(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one that satisfies `done`; panics after `PATIENCE`.
    pub fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.try_until(PATIENCE, done).unwrap_or_else(|got| {
            panic!(
                "no '{what}' within {PATIENCE:?}; got {got:?}; transcript {:?}",
                self.transcript
            )
        })
    }

    /// Like [`until`](EngineIo::until) but returns the lines seen on timeout as `Err`.
    pub fn try_until(
        &mut self,
        wait: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, Vec<String>> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let end = done(&l);
                    got.push(l);
                    if end {
                        return Ok(got);
                    }
                }
                None => return Err(got),
            }
        }
    }

    /// Lines up to and including one equal to `line`.
    pub fn until_line(&mut self, line: &str) -> Vec<String> {
        self.until(line, |l| l == line)
    }

    /// The output of a perft that was just asked for: its lines up to and including the empty
    /// line after `Nodes searched: N`, with N. (A perft runs on the search thread, so an
    /// `isready` sent behind it may be answered before it ends: wait for this instead.)
    pub fn perft_output(&mut self) -> (Vec<String>, u64) {
        let mut got = self.until("perft total", |l| l.starts_with("Nodes searched: "));
        let total = got.last().unwrap()["Nodes searched: ".len()..]
            .parse()
            .expect("a perft total");
        got.push(
            self.until("the empty line after the total", |_| true)
                .remove(0),
        );
        assert_eq!(
            got.last().unwrap(),
            "",
            "perft output ends with an empty line: {got:?}"
        );
        (got, total)
    }

    /// Waits until the engine has ended (in-process thread or child process), at most `wait`.
    pub fn ended_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        if let Some(h) = self.engine.take() {
            while !h.is_finished() {
                if Instant::now() >= deadline {
                    self.engine = Some(h);
                    return false;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            return h.join().is_ok();
        }
        if let Some(c) = self.child.as_mut() {
            while Instant::now() < deadline {
                if let Ok(Some(_)) = c.try_wait() {
                    return true;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            return false;
        }
        true
    }
}

impl Drop for EngineIo {
    fn drop(&mut self) {
        self.stdin = None;
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
