//! The board in a real browser: headless Chromium driven through chromedriver (fantoccini) plays
//! each game by clicking, sees the engine's reply on the board, and saves screenshots
//! (target/tmp/gui-screenshots/, and $ORRERY_SCREENSHOTS when set). Skipped with a message when
//! chromium or chromedriver is not installed; .ci/run installs both. Engines run on node limits
//! and every wait is for a condition with a generous timeout, so a loaded machine only slows the
//! tests down.

mod gui_support;

use gui_support::{browser, click, js, new_game, screenshot, wait_for, Server};

/// One browser at a time: each test starts its own Chromium, and two at once on a 2-core
/// machine only slow each other down.
static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

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
