//! An engine as a child process: lines to its stdin, lines from its stdout read on a thread and
//! handed over a channel, so every read has a deadline and the referee never blocks forever.
//! The child is asked to quit and then killed on drop.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why no line could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Nothing arrived before the deadline.
    Timeout,
    /// The engine closed its output (exited or crashed).
    Closed,
    /// The engine wrote bytes that are not UTF-8 text.
    NotText,
}

/// What the reader thread saw.
enum Incoming {
    Line(String),
    NotText,
}

/// A running engine process with a line reader on its own thread.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Incoming>,
    command: String,
}

impl EngineProcess {
    /// Starts `command` through `sh -c` (so quoting and arguments work as in a shell), in
    /// `dir` if given. The engine's stderr is inherited when `ORRERY_ENGINE_STDERR` is set and
    /// discarded otherwise.
    pub fn spawn(command: &str, dir: Option<&str>) -> std::io::Result<Self> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!("exec {command}"));
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        if std::env::var_os("ORRERY_ENGINE_STDERR").is_some() {
            cmd.stderr(Stdio::inherit());
        } else {
            cmd.stderr(Stdio::null());
        }
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        let label = command.to_string();
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                                buf.pop();
                            }
                            let msg = match String::from_utf8(buf.clone()) {
                                Ok(s) => {
                                    log::trace!("{label} > {s}");
                                    Incoming::Line(s)
                                }
                                Err(_) => Incoming::NotText,
                            };
                            if tx.send(msg).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            command: command.to_string(),
        })
    }

    /// The command line the engine was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends one line; an error means the engine's input is closed (it has exited).
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        log::trace!("{} < {line}", self.command);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next line, waiting at most until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Incoming::Line(s)) => Ok(s),
            Ok(Incoming::NotText) => Err(ReadError::NotText),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    /// True once the process has exited.
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Asks the engine to quit with `quit_line`, waits up to `grace`, then kills it.
    pub fn shut_down(&mut self, quit_line: &str, grace: Duration) {
        let _ = self.send(quit_line);
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if self.has_exited() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.has_exited() {
            self.stdin = None;
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
