//! The board in a real browser: headless Chromium driven through chromedriver (fantoccini) plays
//! each game by clicking, sees the engine's reply on the board, and saves screenshots
//! (target/tmp/gui-screenshots/, and $ORRERY_SCREENSHOTS when set). Skipped with a message when
//! chromium or chromedriver is not installed; .ci/run installs both. Engines run on node limits
//! and every wait is for a condition with a generous timeout, so a loaded machine only slows the
//! tests down.

mod gui_support;

use gui_support::{browser, click, js, new_game, screenshot, variant_table, wait_for, Server};

/// One browser at a time: each test starts its own Chromium, and two at once on a 2-core
/// machine only slow each other down.
static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// At a table without a clock (time or nodes per move), the seat deciding shows the time spent
/// on its decision in whole seconds under `caption` (never a clock at "0:00.0"), and `idle` (a
/// seat not deciding now) shows a dash.
async fn assert_time_spent_shown(
    c: &fantoccini::Client,
    seat: usize,
    caption: &str,
    idle: Option<usize>,
) {
    wait_for(
        c,
        &format!("document.querySelector('[data-clock-cap=\"{seat}\"]') !== null && document.querySelector('[data-clock-cap=\"{seat}\"]').textContent === '{caption}'"),
        "the time-spent caption",
    )
    .await;
    let text = js(
        c,
        &format!("document.querySelector('[data-clock=\"{seat}\"]').textContent"),
    )
    .await;
    let text = text.as_str().unwrap_or_default().to_string();
    let (m, sec) = text.split_once(':').unwrap_or_default();
    assert!(
        !m.is_empty()
            && m.bytes().all(|b| b.is_ascii_digit())
            && sec.len() == 2
            && sec.bytes().all(|b| b.is_ascii_digit()),
        "seat {seat}'s time spent reads {text:?}, expected minutes:seconds"
    );
    if let Some(i) = idle {
        assert_eq!(
            js(
                c,
                &format!("document.querySelector('[data-clock=\"{i}\"]').textContent")
            )
            .await,
            "–",
            "a seat that is not deciding"
        );
        assert_eq!(
            js(
                c,
                &format!("document.querySelector('[data-clock-cap=\"{i}\"]').textContent")
            )
            .await,
            ""
        );
    }
}

#[tokio::test]
async fn spider_chess_person_against_the_engine_by_clicks() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) = browser("spider_chess_person_against_the_engine_by_clicks").await else {
        return;
    };
    let server = Server::start(&[]);
    let c = &b.client;
    c.goto(&server.url).await.unwrap();
    new_game(c, "spider-chess", None, &["person", "0"], "nodes 3000").await;
    wait_for(
        c,
        "S.table.my_turn && S.table.seats[1].ready",
        "the engine to be ready",
    )
    .await;
    assert_time_spent_shown(c, 0, "this move", Some(1)).await;
    // Every square, hole and piece of the 25x19 board is drawn.
    assert_eq!(
        js(c, "document.querySelectorAll('[data-sq]').length").await,
        25 * 19 - 106
    );
    assert_eq!(
        js(c, "document.querySelectorAll('.hole').length").await,
        106
    );
    assert_eq!(
        js(c, "document.querySelectorAll('[data-piece]').length").await,
        112
    );
    // Picking a piece shows its legal targets.
    click(c, "[data-sq=\"m2\"]").await;
    wait_for(
        c,
        "document.querySelectorAll('.target').length > 0",
        "legal targets",
    )
    .await;
    let from_m2 = js(
        c,
        "S.table.board.legal.filter(m => m.text.startsWith('m2')).length",
    )
    .await;
    assert_eq!(from_m2, 5, "the m2 pawn (fWfnDfnHfmF): m3, m4, m5, l3, n3");
    assert_eq!(
        js(c, "document.querySelectorAll('.target').length").await,
        from_m2
    );
    // An illegal target is refused by the rules core with the reason, and changes nothing.
    click(c, "[data-sq=\"m9\"]").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('Refused m2m9')",
        "the refusal",
    )
    .await;
    let msg = js(c, "document.getElementById('message').textContent").await;
    assert!(msg.as_str().unwrap().contains("cannot move"), "{msg}");
    assert_eq!(js(c, "S.table.decisions").await, 0);
    // A legal move by clicking; the engine answers and its move is on the board.
    click(c, "[data-sq=\"m2\"]").await;
    click(c, "[data-sq=\"m5\"]").await;
    wait_for(c, "S.table.decisions >= 2", "the engine's reply").await;
    assert_eq!(
        js(
            c,
            "document.querySelectorAll('[data-sq=\"m5\"] [data-piece=\"Pw\"]').length"
        )
        .await,
        1
    );
    let reply = js(c, "S.table.moves[1].mv").await;
    let reply = reply.as_str().unwrap().to_string();
    let to = &reply[split_point(&reply)..];
    let marked = js(
        c,
        &format!("document.querySelectorAll('[data-sq=\"{to}\"] .last').length"),
    )
    .await;
    assert_eq!(
        marked, 1,
        "the engine's move {reply} is marked as the last move"
    );
    assert_eq!(js(c, "document.querySelectorAll('.last').length").await, 2);
    assert!(js(c, "document.getElementById('t-moves').textContent")
        .await
        .as_str()
        .unwrap()
        .contains(&reply));
    // The engine's thinking was shown (depth and score) and FEN is out.
    wait_for(
        c,
        "S.table.seats[1].thinking && S.table.seats[1].thinking.depth > 0",
        "thinking output",
    )
    .await;
    let fen = js(c, "document.getElementById('t-fen').value").await;
    assert!(
        fen.as_str().unwrap().contains(" w "),
        "White to move in {fen}"
    );
    // PGN out.
    click(c, "#t-export").await;
    wait_for(
        c,
        "document.getElementById('t-export-text').value.includes('[Variant \"spider-chess\"]')",
        "the PGN",
    )
    .await;
    let pgn = js(c, "document.getElementById('t-export-text').value").await;
    assert!(pgn.as_str().unwrap().contains("1. m2m5 "), "{pgn}");
    screenshot(c, "spider-chess").await;
}

/// Where the target square starts in a move text like `m18m15` or `r16h11`.
fn split_point(mv: &str) -> usize {
    let b = mv.as_bytes();
    (1..b.len())
        .find(|&i| b[i].is_ascii_alphabetic() && b[i - 1].is_ascii_digit())
        .unwrap_or(b.len() / 2)
}

#[tokio::test]
async fn solar_chess_teams_drop_by_clicks() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) = browser("solar_chess_teams_drop_by_clicks").await else {
        return;
    };
    let server = Server::start(&[]);
    let c = &b.client;
    c.goto(&server.url).await.unwrap();
    new_game(
        c,
        "solar-chess",
        Some("teams-2x2"),
        &["person", "0", "0", "0"],
        "nodes 2000",
    )
    .await;
    wait_for(
        c,
        "S.table.my_turn && S.table.seats.every(s => s.ready)",
        "the engines to be ready",
    )
    .await;
    assert_time_spent_shown(c, 0, "this move", Some(1)).await;
    // The kites are the geometry's 72 polygons; four seats, each with a clock and a hand.
    assert_eq!(
        js(c, "document.querySelectorAll('[data-tile] polygon').length").await,
        72
    );
    assert_eq!(
        js(c, "document.querySelectorAll('[data-clock]').length").await,
        4
    );
    assert_eq!(js(c, "S.table.board.teams").await, 2);
    let hand = js(
        c,
        "document.querySelectorAll('[data-seat=\"0\"] [data-hand], svg[data-seat=\"0\"]').length",
    )
    .await;
    assert!(
        hand.as_u64().unwrap() >= 3,
        "seat 1 holds Orbiters, Missiles, Fighters: {hand}"
    );
    // Pick a Fighter from the hand: its legal drop tiles are marked.
    click(c, "svg[data-seat=\"0\"][data-hand=\"Fw\"]").await;
    wait_for(
        c,
        "document.querySelectorAll('.target').length > 0",
        "drop targets",
    )
    .await;
    let drops = js(c, "S.table.board.legal.filter(m => m.type === 'drop' && m.kind === 'F' && m.hand === 'w').length").await;
    assert_eq!(
        js(c, "document.querySelectorAll('.target').length").await,
        drops
    );
    // A drop on a tile that is not next to the Mothership is refused with the rules' reason.
    let far = js(c, "S.table.board.layout.tiles.map(t => t.name).find(n => !S.table.board.legal.some(m => m.to === n) && !S.table.board.pieces.some(p => p.tile === n))").await;
    let far = far.as_str().unwrap().to_string();
    click(c, &format!("[data-tile=\"{far}\"]")).await;
    wait_for(
        c,
        &format!("document.getElementById('message').textContent.includes('Refused Fw@{far}')"),
        "the refusal",
    )
    .await;
    assert!(js(c, "document.getElementById('message').textContent")
        .await
        .as_str()
        .unwrap()
        .contains("must be dropped"));
    assert_eq!(js(c, "S.table.decisions").await, 0);
    // A legal drop by clicks; the three engines answer in turn and their moves are shown.
    click(c, "svg[data-seat=\"0\"][data-hand=\"Fw\"]").await;
    let to = js(
        c,
        "S.table.board.legal.find(m => m.type === 'drop' && m.kind === 'F' && m.hand === 'w').to",
    )
    .await;
    let to = to.as_str().unwrap().to_string();
    click(c, &format!("[data-tile=\"{to}\"]")).await;
    wait_for(c, "S.table.decisions >= 4", "three engine replies").await;
    assert_eq!(js(c, "S.table.moves[0].mv").await, format!("Fw@{to}"));
    let fighter = js(c, &format!("S.table.board.pieces.some(p => p.tile === '{to}' && p.kind === 'F' && p.colour === 'w' && p.owner === 0)")).await;
    assert_eq!(fighter, true);
    let last = js(c, "S.table.board.last.to").await;
    let engine_move = js(c, "S.table.moves[3].mv").await;
    assert!(
        engine_move
            .as_str()
            .unwrap()
            .contains(last.as_str().unwrap()),
        "{engine_move} ends on {last}"
    );
    assert!(js(c, "document.getElementById('t-moves').textContent")
        .await
        .as_str()
        .unwrap()
        .contains(engine_move.as_str().unwrap()));
    screenshot(c, "solar-chess").await;
}

#[tokio::test]
async fn space_wars_seat_decides_by_selecting_cards_and_targets() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) = browser("space_wars_seat_decides_by_selecting_cards_and_targets").await else {
        return;
    };
    let server = Server::start(&[]);
    let c = &b.client;
    c.goto(&server.url).await.unwrap();
    new_game(c, "space-wars", Some("2"), &["person", "0"], "nodes 300").await;
    wait_for(
        c,
        "S.table.view_table && S.table.view_table.pending === 'class' && S.table.seats[1].ready",
        "the class decision",
    )
    .await;
    assert_time_spent_shown(c, 0, "this decision", None).await;
    // Own hand as cards, the other seat's as a count only.
    assert_eq!(
        js(c, "document.querySelectorAll('#sw-hand .card-face').length").await,
        10
    );
    assert_eq!(js(c, "S.table.view_table.seats[1].hand.cards === undefined && S.table.view_table.seats[1].hand.count === 10").await, true);
    // Class without a card is refused on the page; a Battleship with a card that is not a queen by
    // the rules core (when the hand has one).
    let non_queen = js(c, "[...document.querySelectorAll('#sw-hand .card-face')].findIndex(e => !e.dataset.card.startsWith('Q'))").await;
    click(c, &format!("#sw-hand [data-key=\"h{}\"]", non_queen)).await;
    click(c, "[data-cls=\"battleship\"]").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('Refused class battleship')",
        "the rules' refusal",
    )
    .await;
    assert_eq!(js(c, "S.table.decisions").await, 0);
    // Fighters with the card still selected, then the split into three piles.
    assert_eq!(js(c, &format!("document.querySelector('#sw-hand [data-key=\"h{non_queen}\"]').classList.contains('sel')")).await, true);
    click(c, "[data-cls=\"fighters\"]").await;
    wait_for(c, "S.table.view_table.pending === 'split'", "the split").await;
    // The engine's class is revealed to everyone once both chose.
    assert_eq!(
        js(c, "S.table.view_table.seats[1].class !== null").await,
        true
    );
    click(c, "[data-act=\"fill\"]").await;
    click(c, "[data-act=\"send\"]").await;
    wait_for(
        c,
        "S.table.view_table.pending === 'attack'",
        "the tactical step",
    )
    .await;
    assert_eq!(
        js(c, "document.querySelectorAll('.ship.mine').length").await,
        3,
        "three fighters"
    );
    // Attack: a card on one of my ships, then an enemy ship.
    let key = js(c, "(() => { const v = S.table.view_table; for (const s of v.ships) if (s.owner === v.seat && s.alive) { const i = s.hull.cards.findIndex(c => /^([A2-9T][DH]|[JQK].)$/.test(c)); if (i >= 0) return `s${s.id}:${i}`; } return ''; })()").await;
    let key = key.as_str().unwrap().to_string();
    let mut attacked = false;
    if !key.is_empty() {
        click(c, &format!("[data-key=\"{key}\"]")).await;
        let target = js(c, "S.table.view_table.ships.find(s => s.owner !== S.table.view_table.seat && s.alive).id + 1").await;
        click(c, &format!(".ship.target[data-ship=\"{target}\"]")).await;
        wait_for(
            c,
            "document.getElementById('sw-orders').textContent.includes('>')",
            "the attack order",
        )
        .await;
        attacked = true;
    }
    click(c, "[data-act=\"send\"]").await;
    // The engine's Tactical decision comes in; both are applied together (Engage).
    wait_for(
        c,
        "S.table.view_table.step.name !== 'tactical' || S.table.view_table.round > 1",
        "the engine's tactical decision",
    )
    .await;
    let events = js(c, "S.table.view_table.events.join('\\n')").await;
    assert!(events.as_str().unwrap().contains("revealed 2"), "{events}");
    if attacked {
        assert!(events.as_str().unwrap().contains("engaged"), "{events}");
    }
    // Other seats' hulls are never shown as cards.
    assert_eq!(js(c, "S.table.view_table.ships.every(s => s.owner === S.table.view_table.seat || s.hull.cards === undefined)").await, true);
    screenshot(c, "space-wars").await;
}

/// The project's Spider-Chess engine behind a gate: every line it writes passes at once, except
/// `bestmove`, which waits until the file `release` exists (or the board server, its parent, is
/// gone). The engine searches for real (about ten seconds on a 350 s clock: a 35th of it), and
/// the test decides when its answer arrives, so nothing here depends on how fast a loaded machine
/// is.
fn held_engine(dir: &std::path::Path) -> (String, std::path::PathBuf) {
    let release = dir.join("release");
    let script = dir.join("held.sh");
    std::fs::write(
        &script,
        format!(
            "'{engine}' | while IFS= read -r line; do\n  case \"$line\" in bestmove*) \
             while [ ! -e '{release}' ] && kill -0 $PPID 2>/dev/null; do sleep 0.1; done;; \
             esac\n  printf '%s\\n' \"$line\"\ndone\n",
            engine = env!("CARGO_BIN_EXE_spider-chess"),
            release = release.display()
        ),
    )
    .unwrap();
    (format!("name=held,cmd=sh {}", script.display()), release)
}

/// The milliseconds seat `i`'s clock display reads (`m:ss`, `m:ss.t` or `h:mm:ss`), as JavaScript.
fn shown_ms(i: usize) -> String {
    format!(
        "(document.querySelector('[data-clock=\"{i}\"]').textContent.split(':').map(Number)\
         .reduce((a, x) => a * 60 + x, 0) * 1000)"
    )
}

/// Makes the server send the table again in the middle of a decision (another browser comes to
/// watch, which every browser at the table is told about) and waits until this page has it.
async fn another_update_from_the_server(c: &fantoccini::Client) {
    let before = js(
        c,
        "(() => { const r = S.recv; const w = new WebSocket(`ws://${location.host}/ws`); \
         w.onopen = () => w.send(JSON.stringify({t: 'join', table: S.tableId})); \
         (window.watchers = window.watchers || []).push(w); return r; })()",
    )
    .await;
    wait_for(c, &format!("S.recv > {before}"), "the table sent again").await;
}

#[tokio::test]
async fn clocks_count_down_for_people_and_engines() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) = browser("clocks_count_down_for_people_and_engines").await else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("orrery-gui-clocks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (spec, release) = held_engine(&dir);
    let server = Server::start(&["--engine", &spec]);
    let c = &b.client;
    c.goto(&server.url).await.unwrap();
    new_game(c, "spider-chess", None, &["person", "1"], "clock 120+0").await;
    wait_for(
        c,
        "S.table.my_turn && S.table.seats[1].ready",
        "the engine to be ready",
    )
    .await;
    assert_eq!(
        js(
            c,
            "document.querySelector('[data-clock-cap=\"0\"]').textContent"
        )
        .await,
        "",
        "a clock has no caption"
    );
    // The person's clock counts down from 2:00 while the person thinks, and the engine's stands.
    // A clock shows whole seconds rounded down above 20 s: 1:56 means more than three seconds
    // spent, so the charge for the move is under 1:58 left (a second for the engine's own
    // measure of its time, which starts when it is asked).
    wait_for(
        c,
        &format!("{} <= 116000", shown_ms(0)),
        "the person's clock to run down by more than three seconds",
    )
    .await;
    assert_eq!(
        js(c, &shown_ms(1)).await,
        120000,
        "the engine's clock stands"
    );
    // An update from the server in the middle of the decision does not set the clock back.
    another_update_from_the_server(c).await;
    let after = js(c, &shown_ms(0)).await;
    assert!(
        after.as_f64().is_some_and(|ms| ms <= 116000.0),
        "the person's clock reads {after} ms after an update, more than it had left"
    );
    // The move stops the person's clock at what the server charged.
    click(c, "[data-sq=\"m2\"]").await;
    click(c, "[data-sq=\"m5\"]").await;
    wait_for(
        c,
        "S.table.decisions === 1 && S.table.seats[1].running",
        "the engine's search",
    )
    .await;
    let charged = js(c, "S.table.seats[0].clock_ms").await.as_f64().unwrap();
    assert!(
        charged < 118000.0,
        "the person was charged for the move: {charged} ms left"
    );
    assert_eq!(
        js(c, &shown_ms(0)).await.as_f64(),
        Some((charged / 1000.0).floor() * 1000.0),
        "the person's clock shows what is left"
    );
    // The engine's clock counts down while it searches (its answer is held back), also across
    // an update from the server.
    wait_for(
        c,
        &format!("{} <= 116000", shown_ms(1)),
        "the engine's clock to run down by more than three seconds",
    )
    .await;
    another_update_from_the_server(c).await;
    let after = js(c, &shown_ms(1)).await;
    assert!(
        after.as_f64().is_some_and(|ms| ms <= 116000.0),
        "the engine's clock reads {after} ms after an update, more than it had left"
    );
    assert_eq!(
        js(c, &shown_ms(0)).await.as_f64(),
        Some((charged / 1000.0).floor() * 1000.0)
    );
    // Released, its move is charged to its clock.
    std::fs::write(&release, "").unwrap();
    wait_for(c, "S.table.decisions === 2", "the engine's move").await;
    let engine_left = js(c, "S.table.seats[1].clock_ms").await.as_f64().unwrap();
    assert!(
        engine_left < 118000.0,
        "the engine was charged: {engine_left} ms left"
    );
    assert_eq!(
        js(c, &shown_ms(1)).await.as_f64(),
        Some((engine_left / 1000.0).floor() * 1000.0)
    );
    screenshot(c, "clocks").await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_page_stays_responsive_while_an_engine_searches_for_ten_seconds() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) =
        browser("the_page_stays_responsive_while_an_engine_searches_for_ten_seconds").await
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("orrery-gui-held-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (spec, release) = held_engine(&dir);
    let server = Server::start(&["--engine", &spec]);
    let c = &b.client;
    c.goto(&server.url).await.unwrap();
    new_game(c, "spider-chess", None, &["person", "1"], "clock 350+0").await;
    wait_for(
        c,
        "S.table.my_turn && S.table.seats[1].ready",
        "the engine to be ready",
    )
    .await;
    click(c, "[data-sq=\"m2\"]").await;
    click(c, "[data-sq=\"m5\"]").await;
    wait_for(
        c,
        "S.table.decisions === 1 && S.table.seats[1].running",
        "the engine's search",
    )
    .await;
    // The engine's clock display runs while it searches.
    let first = js(
        c,
        "document.querySelector('[data-clock=\"1\"]').textContent",
    )
    .await;
    wait_for(
        c,
        &format!("document.querySelector('[data-clock=\"1\"]').textContent !== {first}"),
        "the engine's clock to move",
    )
    .await;
    // A click is answered by the server meanwhile (a round trip through the table): picking a
    // piece shows its targets, and a move is refused because it is the engine's turn.
    click(c, "[data-sq=\"l2\"]").await;
    wait_for(c, "S.sel !== null", "the pick").await;
    click(c, "[data-sq=\"l4\"]").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('not your turn')",
        "the server's answer",
    )
    .await;
    // Its thinking is shown live, before it answers.
    wait_for(
        c,
        "S.table.seats[1].thinking && S.table.seats[1].thinking.depth > 0",
        "live thinking",
    )
    .await;
    assert_eq!(
        js(c, "S.table.decisions").await,
        1,
        "the engine's answer is held back until the release"
    );
    screenshot(c, "spider-chess-engine-thinking").await;
    // Released, its move arrives.
    std::fs::write(&release, "").unwrap();
    wait_for(c, "S.table.decisions === 2", "the engine's move").await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_crashed_engine_and_lost_connections_are_reported_on_the_page() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) = browser("a_crashed_engine_and_lost_connections_are_reported_on_the_page").await
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("orrery-gui-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("crasher.sh");
    std::fs::write(
        &script,
        "while read line; do case \"$line\" in uci) echo 'id name Crasher'; echo uciok;; \
         isready) echo readyok;; go*) echo 'info depth 1 score cp 0 nodes 1 pv a1a2'; exit 3;; \
         quit) exit 0;; esac; done\n",
    )
    .unwrap();
    let spec = format!("name=crasher,cmd=sh {}", script.display());
    let mut server = Server::start(&["--engine", &spec]);
    let c = &b.client;
    c.goto(&server.url).await.unwrap();
    // The engine crashes while thinking: the game ends, the page says so.
    new_game(c, "spider-chess", None, &["person", "1"], "movetime 2000").await;
    wait_for(
        c,
        "S.table.my_turn && S.table.seats[1].ready",
        "the engine to be ready",
    )
    .await;
    click(c, "[data-sq=\"m2\"]").await;
    click(c, "[data-sq=\"m5\"]").await;
    wait_for(c, "S.table.over", "the game to end").await;
    let banner = js(c, "document.getElementById('banner').textContent").await;
    assert!(banner.as_str().unwrap().contains("crasher"), "{banner}");
    assert!(banner.as_str().unwrap().contains("crash"), "{banner}");
    assert_eq!(
        js(
            c,
            "document.getElementById('t-status').textContent.startsWith('1-0')"
        )
        .await,
        true
    );
    screenshot(c, "engine-crash").await;

    // Two people at a Space Wars table; one browser goes away: the other is told.
    click(c, "#nav-lobby").await;
    new_game(
        c,
        "space-wars",
        Some("2"),
        &["person", "person"],
        "movetime 1000",
    )
    .await;
    let table = js(c, "S.tableId").await;
    let first = c.window().await.unwrap();
    let second = c.new_window(true).await.unwrap();
    c.switch_to_window(second.handle.clone()).await.unwrap();
    c.goto(&server.url).await.unwrap();
    click(
        c,
        &format!(".tablerow[data-table=\"{table}\"] button:not(.watch)"),
    )
    .await;
    wait_for(
        c,
        "S.table && S.table.you[0] === 1 && S.table.view_table",
        "seat 2's view",
    )
    .await;
    c.close_window().await.unwrap();
    c.switch_to_window(first).await.unwrap();
    wait_for(
        c,
        "document.querySelector('[data-seat=\"1\"] .off') !== null",
        "the disconnection",
    )
    .await;
    let seat2 = js(c, "document.querySelector('[data-seat=\"1\"]').textContent").await;
    assert!(
        seat2.as_str().unwrap().contains("browser disconnected"),
        "{seat2}"
    );
    assert!(js(c, "document.getElementById('t-notes').textContent")
        .await
        .as_str()
        .unwrap()
        .contains("disconnected"));
    screenshot(c, "person-disconnected").await;

    // The server goes away: the page says so instead of hanging.
    server.kill();
    wait_for(
        c,
        "document.getElementById('conn').textContent === 'disconnected'",
        "the lost connection",
    )
    .await;
    let banner = js(c, "document.getElementById('banner').textContent").await;
    assert!(
        banner
            .as_str()
            .unwrap()
            .contains("Connection to the board server lost"),
        "{banner}"
    );
    screenshot(c, "server-lost").await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_running_match_is_watched_live_and_its_records_replayed_with_the_slider() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) =
        browser("a_running_match_is_watched_live_and_its_records_replayed_with_the_slider").await
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("orrery-gui-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let live = dir.join("live.jsonl");
    let records = dir.join("games.jsonl");
    let server = Server::start(&["--live", live.to_str().unwrap()]);
    let c = &b.client;
    c.goto(&server.url).await.unwrap();
    let mut matchp = std::process::Command::new(env!("CARGO_BIN_EXE_orrery"))
        .args([
            "match",
            "--game",
            "spider-chess",
            "--games",
            "1",
            "--nodes",
            "1500",
            "--maxplies",
            "24",
            "--quiet",
        ])
        .arg("--live")
        .arg(&live)
        .arg("--records")
        .arg(&records)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("orrery match starts");
    // The match's game shows up in the lobby by itself; watch it move on.
    wait_for(
        c,
        "document.querySelector('.tablerow .watch') !== null",
        "the live game in the lobby",
    )
    .await;
    click(c, ".tablerow .watch").await;
    wait_for(
        c,
        "S.table && S.table.board && S.table.decisions >= 4",
        "live moves",
    )
    .await;
    assert_eq!(js(c, "S.table.you.length").await, 0, "a watcher");
    assert_eq!(js(c, "document.querySelectorAll('.last').length").await, 2);
    screenshot(c, "live-match").await;
    let status = matchp.wait().expect("the match ends");
    assert!(status.success());
    wait_for(c, "S.table.over", "the live game's end").await;
    let text = std::fs::read_to_string(&records).unwrap();
    // The first line holds the match settings, the second the game.
    let rec: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let plies = rec["moves"].as_array().unwrap().len();
    assert_eq!(
        js(c, "S.table.decisions").await,
        plies as u64,
        "every live move was shown"
    );
    // Replay the records file: the slider steps through the positions.
    click(c, "#nav-replay").await;
    c.execute(
        "document.getElementById('r-text').value = arguments[0];",
        vec![serde_json::Value::String(text.clone())],
    )
    .await
    .unwrap();
    click(c, "#r-load").await;
    wait_for(
        c,
        "S.replay.data && S.replay.data.frames.length > 1",
        "the replay",
    )
    .await;
    assert_eq!(js(c, "S.replay.data.frames.length").await, plies as u64 + 1);
    click(c, "#r-last").await;
    assert_eq!(js(c, "S.replay.idx").await, plies as u64);
    let last_fen = js(c, "S.replay.data.frames[S.replay.idx].board.fen").await;
    assert_eq!(last_fen, rec["final_position"]);
    click(c, "#r-prev").await;
    assert_eq!(js(c, "S.replay.idx").await, plies as u64 - 1);
    c.execute(
        "const s = document.getElementById('r-slider'); s.value = '3'; s.oninput();",
        vec![],
    )
    .await
    .unwrap();
    assert_eq!(js(c, "S.replay.idx").await, 3);
    assert_eq!(
        js(c, "document.querySelectorAll('#r-board .last').length").await,
        2
    );
    assert_eq!(
        js(c, "document.querySelector('#r-moves .cur').dataset.ply").await,
        "3"
    );
    screenshot(c, "replay").await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_loaded_variant_with_holes_and_a_promotion_choice() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) = browser("a_loaded_variant_with_holes_and_a_promotion_choice").await else {
        return;
    };
    let c = &b.client;
    let (_server, dir) = variant_table(
        c,
        "minipromo",
        "files=6 ranks=6 promoZone=1 promoChoice=QN royal=K hole::::c3,d4 king:K:K:king:a1 \
         pawn:P:fmWfcF:pawn:f5 queen:Q:Q:queen:b1 knight:N:N:knight:c1\n",
    )
    .await;
    assert_eq!(js(c, "S.table.board.files").await, 6);
    assert_eq!(js(c, "document.querySelectorAll('.hole').length").await, 2);
    assert_eq!(
        js(c, "document.querySelectorAll('[data-piece]').length").await,
        8
    );
    // The pawn reaches the last rank: the page asks which piece it becomes.
    click(c, "[data-sq=\"f5\"]").await;
    click(c, "[data-sq=\"f6\"]").await;
    wait_for(
        c,
        "!document.getElementById('picker').classList.contains('hidden')",
        "the promotion choice",
    )
    .await;
    assert_eq!(
        js(
            c,
            "document.querySelectorAll('#picker [data-choice]').length"
        )
        .await,
        2
    );
    screenshot(c, "variant-promotion-choice").await;
    click(c, "#picker [data-choice=\"f5f6q\"]").await;
    wait_for(c, "S.table.decisions >= 2", "the engine's reply").await;
    assert_eq!(js(c, "S.table.moves[0].mv").await, "f5f6q");
    assert_eq!(
        js(
            c,
            "document.querySelectorAll('[data-sq=\"f6\"] [data-piece=\"Qw\"]').length"
        )
        .await,
        1
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_variant_with_pieces_in_hand_drops_by_clicks() {
    let _one = ONE_BROWSER.lock().await;
    let Some(b) = browser("a_variant_with_pieces_in_hand_drops_by_clicks").await else {
        return;
    };
    let c = &b.client;
    // Crazyhouse captures (holdingsType=-1) on 6x6; each side starts with a knight in hand.
    let (_server, dir) = variant_table(
        c,
        "minidrop",
        "files=6 ranks=6 holdingsType=-1 royal=K king:K:K:king:a1 rook:R:R:rook:f1 \
         knight:N:N:knight::1\n",
    )
    .await;
    // Each side's hand is shown on its seat: one knight each.
    for (seat, hand) in [(0, "Nw"), (1, "Nb")] {
        let sel = format!("[data-seat=\"{seat}\"] svg[data-hand=\"{hand}\"]");
        assert_eq!(
            js(c, &format!("document.querySelectorAll('{sel}').length")).await,
            1,
            "{sel}"
        );
        assert_eq!(
            js(
                c,
                &format!("document.querySelector('{sel}').textContent.includes('×1')")
            )
            .await,
            true
        );
    }
    // Picking the knight in hand marks the rules core's drop targets: every empty square.
    click(c, "svg[data-seat=\"0\"][data-hand=\"Nw\"]").await;
    wait_for(
        c,
        "document.querySelectorAll('.target').length > 0",
        "drop targets",
    )
    .await;
    let drops = js(c, "S.table.board.legal.filter(m => m.drop === 'N').length").await;
    screenshot(c, "variant-drop-targets").await;
    assert_eq!(drops, 32, "36 squares less the two kings and two rooks");
    assert_eq!(
        js(c, "document.querySelectorAll('.target').length").await,
        drops
    );
    assert_eq!(
        js(c, "[...document.querySelectorAll('.target')].every(e => { const sq = e.closest('[data-sq]').dataset.sq; return S.table.board.legal.some(m => m.text === 'N@' + sq); })").await,
        true,
        "the marked squares are the legal drops"
    );
    // A drop on an occupied square is refused by the rules core and changes nothing.
    click(c, "[data-sq=\"a6\"]").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('Refused N@a6')",
        "the refusal",
    )
    .await;
    assert!(js(c, "document.getElementById('message').textContent")
        .await
        .as_str()
        .unwrap()
        .contains("occupied"));
    assert_eq!(js(c, "S.table.decisions").await, 0);
    // A drop by clicks; the engine answers, and the hands follow the rules core's position.
    click(c, "svg[data-seat=\"0\"][data-hand=\"Nw\"]").await;
    click(c, "[data-sq=\"c3\"]").await;
    wait_for(c, "S.table.decisions >= 2", "the engine's reply").await;
    assert_eq!(js(c, "S.table.moves[0].mv").await, "N@c3");
    assert_eq!(
        js(
            c,
            "S.table.board.pieces.some(p => p[0] === 2 && p[1] === 2 && p[2] === 'N' && p[3] === 0) || S.table.moves[1].mv.endsWith('c3')"
        )
        .await,
        true,
        "the knight stands on c3 unless the engine took it"
    );
    assert_eq!(
        js(c, "[0, 1].every(i => { const shown = [...document.querySelectorAll(`[data-seat=\"${i}\"] svg[data-hand]`)].map(e => e.dataset.hand + e.textContent.slice(-2)).sort().join(); const hand = S.table.board.hands[i].map(p => p.letter + (i ? 'b' : 'w') + '×' + p.n).sort().join(); return shown === hand; })").await,
        true,
        "every piece in hand is shown on its seat with its count"
    );
    assert!(
        js(c, "S.table.board.fen")
            .await
            .as_str()
            .unwrap()
            .contains('['),
        "the FEN carries the hands"
    );
    screenshot(c, "variant-drops").await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_test_that_panics_leaves_no_browser_process_behind() {
    let _one = ONE_BROWSER.lock().await;
    // A test of its own (a thread with its runtime) that fails while its browser runs a page.
    let (tx, rx) = std::sync::mpsc::channel();
    let failed = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let Some(b) = browser("a_test_that_panics_leaves_no_browser_process_behind").await
            else {
                tx.send(None).unwrap();
                return;
            };
            let server = Server::start(&[]);
            b.client.goto(&server.url).await.unwrap();
            wait_for(&b.client, "S.connected", "the page").await;
            tx.send(Some(b.processes())).unwrap();
            panic!("a failing assertion while the browser runs");
        })
    })
    .join();
    let Some(procs) = rx.recv().unwrap() else {
        return;
    };
    assert!(failed.is_err(), "the inner test failed");
    assert!(
        procs.iter().any(|(_, c)| c.contains("chromedriver"))
            && procs.iter().filter(|(_, c)| c.contains("chromium")).count() >= 2,
        "chromedriver, Chromium and its helpers were running: {procs:#?}"
    );
    // None of them is left (a process that is gone, or a zombie, has no command line; a pid
    // used again has another one).
    let left: Vec<&(u32, String)> = procs
        .iter()
        .filter(|(pid, c)| !c.is_empty() && gui_support::cmdline(*pid) == *c)
        .collect();
    assert!(
        left.is_empty(),
        "left running after the failed test: {left:#?}"
    );
}

/// The inner half of [`a_killed_test_process_leaves_no_browser_process_behind`], run by it as a
/// child process: starts a board server and a browser on its page, prints their processes, and
/// waits (until its input ends) to be killed.
#[tokio::test]
#[ignore = "run as a child process by a_killed_test_process_leaves_no_browser_process_behind, which kills it"]
async fn browser_waiting_to_be_killed() {
    let Some(b) = browser("browser_waiting_to_be_killed").await else {
        println!("NO-BROWSER");
        return;
    };
    let server = Server::start(&[]);
    b.client.goto(&server.url).await.unwrap();
    wait_for(&b.client, "S.connected", "the page").await;
    let mut procs = b.processes();
    procs.push((server.pid(), gui_support::cmdline(server.pid())));
    println!("PROCESSES {}", serde_json::to_string(&procs).unwrap());
    assert!(procs.len() > 2, "{procs:?}");
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
}

#[tokio::test]
async fn a_killed_test_process_leaves_no_browser_process_behind() {
    use std::io::BufRead;
    let _one = ONE_BROWSER.lock().await;
    if !std::path::Path::new("/usr/bin/chromedriver").exists() {
        eprintln!("skipped: no /usr/bin/chromedriver");
        return;
    }
    // This test binary, running only the inner test, killed outright once its browser runs: no
    // drop runs, so only what the kernel does is left (parent-death signals).
    let mut inner = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "browser_waiting_to_be_killed",
            "--ignored",
            "--nocapture",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = std::io::BufReader::new(inner.stdout.take().unwrap());
    let mut procs: Option<Vec<(u32, String)>> = None;
    for line in out.lines() {
        let line = line.unwrap();
        if line.starts_with("NO-BROWSER") {
            break;
        }
        if let Some(json) = line.strip_prefix("PROCESSES ") {
            procs = Some(serde_json::from_str(json).unwrap());
            break;
        }
    }
    inner.kill().unwrap();
    inner.wait().unwrap();
    let Some(procs) = procs else {
        eprintln!("skipped: the inner test found no browser");
        return;
    };
    assert!(
        procs.iter().any(|(_, c)| c.contains("chromedriver"))
            && procs.iter().any(|(_, c)| c.contains("orrery gui"))
            && procs.iter().filter(|(_, c)| c.contains("chromium")).count() >= 2,
        "chromedriver, Chromium with its helpers and the server were running: {procs:#?}"
    );
    // They all end (a process that is gone, or a zombie, has no command line; a pid used again
    // has another one).
    let left = || -> Vec<(u32, String)> {
        procs
            .iter()
            .filter(|(pid, c)| !c.is_empty() && gui_support::cmdline(*pid) == *c)
            .cloned()
            .collect()
    };
    let deadline = std::time::Instant::now() + gui_support::WAIT;
    while !left().is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(
        left().is_empty(),
        "left running after the test process was killed: {:#?}",
        left()
    );
}
