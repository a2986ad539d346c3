//! Shared helpers for the board tests: start `orrery gui` on a free port, start chromedriver and
//! a headless Chromium (fresh profile, network features off), wait for conditions on the page
//! with generous timeouts, and save screenshots.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// Generous wait for anything on a loaded 2-core machine.
pub const WAIT: Duration = Duration::from_secs(120);

/// A running `orrery gui`; killed on drop.
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
        let mut child = Command::new(env!("CARGO_BIN_EXE_orrery"))
            .arg("gui")
            .args(["--port", "0"])
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

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Headless Chromium driven through chromedriver; both stopped on drop.
pub struct Browser {
    driver: Child,
    /// The WebDriver session.
    pub client: Client,
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        // Chromium outlives its chromedriver: stop the processes of this session's own profile.
        let flag = format!("--user-data-dir={}", self.profile.display());
        if let Ok(dir) = std::fs::read_dir("/proc") {
            for e in dir.flatten() {
                let Some(pid) = e.file_name().to_str().and_then(|p| p.parse::<u32>().ok()) else {
                    continue;
                };
                let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
                let cmd = String::from_utf8_lossy(&cmd);
                if cmd.split('\0').any(|a| a == flag) {
                    let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
                }
            }
        }
        let _ = std::fs::remove_dir_all(&self.profile);
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
    let driver = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let deadline = Instant::now() + WAIT;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let profile = std::env::temp_dir().join(format!(
        "orrery-gui-chromium-{}-{}",
        std::process::id(),
        port
    ));
    let _ = std::fs::remove_dir_all(&profile);
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
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
                return Some(Browser {
                    driver,
                    client,
                    profile,
                })
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

/// Clicks the element matching a CSS selector (waiting for it first).
pub async fn click(c: &Client, css: &str) {
    wait_for(c, &format!("document.querySelector('{css}') !== null"), css).await;
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("find {css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
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
    click(c, "#f-start").await;
    wait_for(c, "S.table !== null && S.view === 'table'", "the table").await;
}
