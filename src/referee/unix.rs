//! The few POSIX calls the referee needs beyond `std`, each behind a small safe function:
//! checking whether an engine exited without reaping it (so its process-group id stays reserved
//! until the group is killed), killing a process group, waiting on pipes with a deadline,
//! non-blocking pipe ends, an exclusive lock on a records file, and the signal mask for Ctrl-C.

use std::os::fd::{AsRawFd, RawFd};
use std::time::Duration;

/// How a process ended, as seen by `waitid` without reaping it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitInfo {
    /// Exited with this status code.
    Code(i32),
    /// Killed by this signal.
    Signal(i32),
}

impl std::fmt::Display for ExitInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExitInfo::Code(c) => write!(f, "exit status {c}"),
            ExitInfo::Signal(s) => write!(f, "killed by signal {s}"),
        }
    }
}

/// Whether process `pid` (a child of ours) has ended, without reaping it: the process stays a
/// zombie, so its pid, which is also the engine's process-group id, cannot be reused before
/// [`kill_group`] runs and `Child::wait` reaps it.
pub fn exited_without_reaping(pid: u32) -> Option<ExitInfo> {
    // SAFETY: waitid only writes into the zeroed siginfo_t we own; WNOWAIT leaves the child
    // waitable, WNOHANG makes the call return at once.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let rc = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        if rc != 0 || info.si_pid() == 0 {
            return None;
        }
        let status = info.si_status();
        Some(if info.si_code == libc::CLD_EXITED {
            ExitInfo::Code(status)
        } else {
            ExitInfo::Signal(status)
        })
    }
}

/// Sends SIGKILL to every process in process group `pgid` (an engine and whatever it started).
/// Errors (the group is already gone) are ignored.
pub fn kill_group(pgid: u32) {
    if pgid <= 1 {
        return;
    }
    // SAFETY: kill with a negative pid signals a process group; no memory is touched.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
}

/// True while some process of group `pgid` is alive (signal 0 probes without signalling).
pub fn group_alive(pgid: u32) -> bool {
    // SAFETY: signal 0 only checks for existence and permission.
    unsafe { libc::kill(-(pgid as libc::pid_t), 0) == 0 }
}

/// Sets `O_NONBLOCK` on a file descriptor we own (our end of a pipe).
pub fn set_nonblocking(fd: &impl AsRawFd) -> std::io::Result<()> {
    let fd = fd.as_raw_fd();
    // SAFETY: fcntl on a valid descriptor with integer arguments.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// What [`poll_fds`] saw on each descriptor: readable/writable or hung up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ready {
    /// Data (or end of file) can be read, or the descriptor can be written.
    pub ready: bool,
    /// The other end is closed or an error is pending.
    pub hangup: bool,
}

/// Waits up to `timeout` until one of `fds` is ready for reading (or for writing when
/// `write` is set). Interrupted waits count as "nothing ready yet".
pub fn poll_fds(fds: &[RawFd], write: bool, timeout: Duration) -> Vec<Ready> {
    let events = if write { libc::POLLOUT } else { libc::POLLIN };
    let mut p: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events,
            revents: 0,
        })
        .collect();
    let ms = timeout.as_millis().min(i32::MAX as u128) as libc::c_int;
    // SAFETY: the pollfd array is ours and its length is passed with it.
    let rc = unsafe { libc::poll(p.as_mut_ptr(), p.len() as libc::nfds_t, ms) };
    if rc <= 0 {
        return vec![Ready::default(); fds.len()];
    }
    p.iter()
        .map(|x| Ready {
            ready: x.revents & events != 0,
            hangup: x.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0,
        })
        .collect()
}

/// Takes an exclusive advisory lock on an open file without waiting; false when another
/// process holds it. The lock lasts as long as the file stays open.
pub fn try_lock_exclusive(file: &std::fs::File) -> std::io::Result<bool> {
    // SAFETY: flock on a valid descriptor.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(false)
    } else {
        Err(e)
    }
}

/// The termination signals `orrery` handles itself (Ctrl-C, `kill`, a closed terminal).
const STOP_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

fn stop_set() -> libc::sigset_t {
    // SAFETY: sigset_t is plain data initialised by sigemptyset/sigaddset.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in STOP_SIGNALS {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread and every thread it starts later,
/// and returns a function that waits for one of them (run it on a thread of its own). Child
/// processes start with an empty signal mask (`std::process::Command` resets it), so engines
/// still receive signals sent to them.
pub fn block_stop_signals() -> impl FnOnce() -> i32 + Send + 'static {
    let set = stop_set();
    // SAFETY: changes only this thread's signal mask.
    unsafe {
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
    move || {
        let set = stop_set();
        let mut sig: libc::c_int = 0;
        // SAFETY: sigwait writes the received signal number into `sig`.
        unsafe {
            libc::sigwait(&set, &mut sig);
        }
        sig
    }
}
