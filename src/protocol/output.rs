//! The engine's stdout: whole lines, flushed one by one, shared by the loop and the search thread.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A line-oriented writer shared between threads; remembers when the peer went away.
pub(crate) struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
    broken: AtomicBool,
}

impl Output {
    /// Wraps a writer.
    pub(crate) fn new(sink: impl Write + Send + 'static) -> Self {
        Output {
            sink: Mutex::new(Box::new(sink)),
            broken: AtomicBool::new(false),
        }
    }

    /// Writes one line (control characters echoed from the input become `?`) and flushes.
    pub(crate) fn line(&self, text: &str) {
        self.write(&[text]);
    }

    /// Writes several lines in one go, so no search report lands in between.
    pub(crate) fn lines(&self, texts: &[String]) {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        self.write(&refs);
    }

    fn write(&self, texts: &[&str]) {
        let mut clean = String::new();
        for text in texts {
            clean.extend(text.chars().map(|c| if c.is_control() { '?' } else { c }));
            clean.push('\n');
        }
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = sink.write_all(clean.as_bytes()).and_then(|_| sink.flush()) {
            if !self.broken.swap(true, Ordering::Relaxed) {
                log::warn!("output closed: {e}");
            }
        }
    }

    /// Whether a write failed (the reader of our stdout is gone).
    pub(crate) fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Relaxed)
    }
}
