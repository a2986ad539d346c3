//! Shared helpers for the board tests: start `orrery gui` on a free port, start chromedriver and
//! a headless Chromium (fresh profile, network features off), wait for conditions on the page
//! with generous timeouts, click what is on the page now (re-finding an element the page
//! re-rendered meanwhile), save screenshots, and leave no browser process behind.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// Generous wait for anything on a loaded 2-core machine.
pub const WAIT: Duration = Duration::from_secs(120);

/// A running `orrery gui`; killed on drop, and by the kernel when the test process is killed.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT/`
    pub url: String,
    /// `ws://127.0.0.1:PORT/ws`
    pub ws: String,
}

impl Server {
    /// Starts `orrery gui --port 0 ARGS` and reads the address it prints.
    pub fn start(args: &[&str]) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_orrery"));
        // Its engines end when it does (their input closes).
        die_with_parent(&mut cmd);
        let mut child = cmd
            .arg("gui")
            .args(["--port", "0"])
            // An engine's handshake on a loaded machine can take longer than the default 10 s.
            .args(["--handshake-timeout", "120000"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("orrery gui starts");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line).expect("address line");
        let start = line.find("http://").expect("the address is printed");
        let url = line[start..]
            .split_whitespace()
            .next()
            .expect("url")
            .to_string();
        let ws = url.replace("http://", "ws://") + "ws";
        // Keep reading stdout so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = String::new();
            while out.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
                sink.clear();
            }
        });
        Server { child, url, ws }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server now (to test what the page does when it goes away).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Has the kernel kill the process `cmd` starts when the thread that starts it (the test's)
/// ends, also when the test process is killed outright and runs no drop.
fn die_with_parent(cmd: &mut Command) {
    // SAFETY: prctl(2) only, between fork and exec: async-signal-safe, allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Headless Chromium driven through chromedriver; both stopped on drop, with every process of
/// the browser.
///
/// Chromium's processes outlive chromedriver when it is killed (the main process is re-parented
/// to init and keeps its renderers), so the clean-up works in layers: the drop ends the
/// WebDriver session (chromedriver quits Chromium), then kills chromedriver's process group
/// (chromedriver starts in a group of its own and Chromium's processes stay in it), then any
/// process left whose command line names this session's profile, with its descendants. A test
/// process that is killed never runs the drop: chromedriver is then killed by the kernel when
/// the test's thread ends (parent-death signal), and the Chromium main process when chromedriver
/// ends (started through `setpriv --pdeathsig KILL`); the other Chromium processes exit with
/// their main process.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    port: u16,
    session: Option<String>,
    driver: Driver,
}

impl Browser {
    /// The processes of this browser running now: chromedriver, Chromium's and their
    /// descendants (what the drop must leave none of), each with its command line. A helper
    /// that has exited and waits to be reaped (a zombie, with no command line) runs no more.
    pub fn processes(&self) -> Vec<(u32, String)> {
        let driver = self.driver.child.id();
        std::iter::once(driver)
            .chain(profile_processes(&self.driver.profile, Some(driver)))
            .map(|pid| (pid, cmdline(pid)))
            .filter(|(_, c)| !c.is_empty())
            .collect()
    }
}

/// A process's command line, its arguments joined by spaces ("" when it is gone or a zombie).
pub fn cmdline(pid: u32) -> String {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    String::from_utf8_lossy(&raw)
        .split('\0')
        .filter(|a| !a.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(id) = &self.session {
            delete_session(self.port, id);
        }
        // Then `driver` drops: its process group and anything left of the profile.
    }
}

/// A running chromedriver with the profile of its session: on drop, its process group and every
/// process left of the profile are killed and the profile is removed.
struct Driver {
    child: Child,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group's id is chromedriver's pid, not reused before the wait below reaps it.
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with a negative pid signals that process group; no memory is touched.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
        kill_profile_processes(&self.profile);
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
        let _ = std::fs::remove_file(launcher_path(&self.profile));
    }
}

/// Ends a WebDriver session with a plain blocking HTTP request (a drop cannot await the async
/// client, and may run while the test's runtime is unwinding); chromedriver then quits Chromium
/// and waits for it.
fn delete_session(port: u16, id: &str) {
    let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
    let _ = s.set_write_timeout(Some(Duration::from_secs(30)));
    let req = format!(
        "DELETE /session/{id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\n\
         Connection: close\r\n\r\n"
    );
    if s.write_all(req.as_bytes()).is_ok() {
        let mut sink = Vec::new();
        let _ = s.read_to_end(&mut sink);
    }
}

/// The pids of running processes with their parent pids (from /proc).
fn processes() -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if let Some(ppid) = ppid {
            out.push((pid, ppid));
        }
    }
    out
}

/// Every process whose command line names `profile` (Chromium's main process and those of its
/// helpers that carry the flag), with all their descendants (renderers, zygotes and utility
/// processes, which may not carry it), and the descendants of `also` (chromedriver).
fn profile_processes(profile: &Path, also: Option<u32>) -> Vec<u32> {
    let needle = profile.display().to_string();
    let names_profile = |arg: &str| {
        // The profile itself or a path inside it (not another profile whose name starts alike).
        arg.ends_with(&needle)
            || arg.contains(&format!("{needle}/"))
            || arg.contains(&format!("{needle}.launch"))
    };
    let procs = processes();
    let mut found: Vec<u32> = procs
        .iter()
        .filter(|(pid, _)| {
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&cmd).split('\0').any(names_profile)
        })
        .map(|(pid, _)| *pid)
        .chain(also)
        .collect();
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        for (pid, ppid) in &procs {
            if *ppid == parent && !found.contains(pid) {
                found.push(*pid);
            }
        }
        i += 1;
    }
    found.retain(|&p| p != std::process::id() && Some(p) != also);
    found
}

/// Kills the processes of [`profile_processes`] until none is left or ten seconds passed.
fn kill_profile_processes(profile: &Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let doomed = profile_processes(profile, None);
        if doomed.is_empty() || Instant::now() > deadline {
            return;
        }
        for pid in doomed {
            // SAFETY: kill(2) on a pid; no memory is touched.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Where the Chromium launcher script of a profile lives (next to the profile).
fn launcher_path(profile: &Path) -> PathBuf {
    profile.with_extension("launch.sh")
}

/// The Chromium binary chromedriver starts: a launcher that gives Chromium's main process a
/// parent-death signal, so it ends with chromedriver (when `setpriv` is there; util-linux, which
/// Debian always installs), else Chromium itself.
fn chromium_launcher(profile: &Path) -> String {
    const SETPRIV: &str = "/usr/bin/setpriv";
    if !Path::new(SETPRIV).exists() {
        return CHROMIUM.to_string();
    }
    let path = launcher_path(profile);
    let script = format!("#!/bin/sh\nexec {SETPRIV} --pdeathsig KILL -- {CHROMIUM} \"$@\"\n");
    let written = std::fs::write(&path, script).and_then(|_| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
    });
    match written {
        Ok(()) => path.display().to_string(),
        Err(_) => CHROMIUM.to_string(),
    }
}

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Starts chromedriver and a headless Chromium, or `None` (with a printed message) when they
/// are not installed (CI installs them: see .ci/run).
pub async fn browser(test: &str) -> Option<Browser> {
    if !std::path::Path::new(CHROMIUM).exists() || !std::path::Path::new(CHROMEDRIVER).exists() {
        println!(
            "SKIPPED {test}: {CHROMIUM} or {CHROMEDRIVER} is missing \
             (apt-get install -y chromium chromium-driver)"
        );
        return None;
    }
    let port = free_port();
    let mut cmd = Command::new(CHROMEDRIVER);
    cmd.arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    // A test process that is killed does not leave chromedriver and its Chromium behind.
    die_with_parent(&mut cmd);
    let profile = std::env::temp_dir().join(format!(
        "orrery-gui-chromium-{}-{}",
        std::process::id(),
        port
    ));
    let _ = std::fs::remove_dir_all(&profile);
    let driver = Driver {
        child: cmd.spawn().expect("chromedriver starts"),
        profile: profile.clone(),
    };
    let deadline = Instant::now() + WAIT;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium_launcher(&profile),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1500,1000",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let mut last_err = None;
    for _ in 0..5 {
        match ClientBuilder::new(connector.clone())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => {
                let session = client.session_id().await.ok().flatten();
                return Some(Browser {
                    client,
                    port,
                    session,
                    driver,
                });
            }
            Err(e) => {
                last_err = Some(e);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    panic!("cannot start a Chromium session: {last_err:?}");
}

/// Runs `expr` (a JavaScript expression) on the page and returns its value.
pub async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"), vec![])
        .await
        .unwrap_or(Value::Null)
}

/// Waits until the JavaScript expression `cond` is truthy; on timeout saves a screenshot and
/// fails naming `what`.
pub async fn wait_for(c: &Client, cond: &str, what: &str) {
    let deadline = Instant::now() + WAIT;
    loop {
        if js(c, &format!("!!({cond})")).await.as_bool() == Some(true) {
            return;
        }
        if Instant::now() > deadline {
            let _ = screenshot(c, &format!("timeout-{}", what.replace(' ', "-"))).await;
            let state = js(c, "JSON.stringify(S.table ? {status: document.getElementById('t-status').textContent, msg: document.getElementById('message').textContent, banner: document.getElementById('banner').textContent} : null)").await;
            let raw = c.execute(&format!("return !!({cond});"), vec![]).await;
            panic!("timed out waiting for {what} ({cond} = {raw:?}); page: {state}");
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// Clicks the element matching a CSS selector (waiting for it first), as a person would: a
/// WebDriver click at the element's place. The page re-renders whenever the server sends an
/// update (an engine's decision, its thinking, the lobby every two seconds), so the element found
/// may be replaced before the click reaches it; then it is found again and clicked, until
/// [`WAIT`] has passed. Only errors that mean "the click did not happen" are retried.
pub async fn click(c: &Client, css: &str) {
    let deadline = Instant::now() + WAIT;
    loop {
        wait_for(c, &format!("document.querySelector('{css}') !== null"), css).await;
        let clicked = match c.find(Locator::Css(css)).await {
            Ok(e) => e.click().await,
            Err(e) => Err(e),
        };
        match clicked {
            Ok(()) => return,
            Err(e) if click_not_done(&e) && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("click {css}: {e}"),
        }
    }
}

/// WebDriver errors after which the click was not performed: the element was replaced or removed
/// between finding and clicking it, or something was drawn over it for a moment.
fn click_not_done(e: &fantoccini::error::CmdError) -> bool {
    e.is_stale_element_reference()
        || e.is_no_such_element()
        || e.is_element_not_interactable()
        || matches!(e, fantoccini::error::CmdError::Standard(w)
            if w.error == fantoccini::error::ErrorStatus::ElementClickIntercepted)
}

/// Saves a screenshot as target/gui-screenshots/NAME.png (and in $ORRERY_SCREENSHOTS when set).
pub async fn screenshot(c: &Client, name: &str) -> PathBuf {
    let png = c.screenshot().await.expect("screenshot");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gui-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, &png).expect("write screenshot");
    if let Ok(extra) = std::env::var("ORRERY_SCREENSHOTS") {
        let _ = std::fs::create_dir_all(&extra);
        let _ = std::fs::write(PathBuf::from(extra).join(format!("{name}.png")), &png);
    }
    assert!(png.starts_with(b"\x89PNG"), "a PNG image");
    path
}

/// Starts the board with the Interactive Diagram variant `name` (its `definition` written to a
/// fresh temporary folder), opens it in `c` and sits at a new table of it: a person against the
/// engine at 2000 nodes a move, once the engine is ready. Returns the server (keep it alive) and
/// the folder (to remove at the end).
pub async fn variant_table(c: &Client, name: &str, definition: &str) -> (Server, PathBuf) {
    let dir = std::env::temp_dir().join(format!("orrery-gui-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.txt"));
    std::fs::write(&file, definition).unwrap();
    let server = Server::start(&["--variant", file.to_str().unwrap()]);
    c.goto(&server.url).await.unwrap();
    wait_for(
        c,
        &format!(
            "[...document.getElementById('f-variant').options].some(o => o.value === '{name}')"
        ),
        "the loaded variant",
    )
    .await;
    c.execute(
        &format!("document.getElementById('f-variant').value = '{name}';"),
        vec![],
    )
    .await
    .unwrap();
    new_game(c, "spider-chess", None, &["person", "0"], "nodes 2000").await;
    wait_for(
        c,
        "S.table.my_turn && S.table.seats[1].ready",
        "the engine to be ready",
    )
    .await;
    (server, dir)
}

/// Fills the new-game form through the page's own controls and starts the game.
pub async fn new_game(c: &Client, game: &str, setup: Option<&str>, seats: &[&str], tc: &str) {
    wait_for(
        c,
        "document.getElementById('f-game').options.length > 0",
        "the lobby",
    )
    .await;
    let mut script =
        format!("const g = document.getElementById('f-game'); g.value = '{game}'; g.onchange();");
    if let Some(s) = setup {
        script.push_str(&format!(
            "const s = document.getElementById('f-setup'); s.value = '{s}'; s.onchange();"
        ));
    }
    for (i, who) in seats.iter().enumerate() {
        script.push_str(&format!(
            "document.getElementById('f-seat-{i}').value = '{who}';"
        ));
    }
    script.push_str(&format!(
        "const tc = document.getElementById('f-tc'); tc.add(new Option('{tc}', '{tc}')); tc.value = '{tc}';"
    ));
    c.execute(&script, vec![]).await.expect("fill the form");
    // The page may still show (and be told about) a table it sat at before: wait for the new one.
    let before = js(c, "S.tableId").await;
    click(c, "#f-start").await;
    wait_for(
        c,
        &format!(
            "S.table !== null && S.tableId !== {before} && S.table.table === S.tableId && S.view === 'table'"
        ),
        "the new table",
    )
    .await;
}
