//! Every line of `tests/data/solar_bad_input.txt` is refused with the stated reason, and a
//! refused move leaves the position unchanged.

use orrery::games::solar::Position;

#[test]
fn bad_inputs_are_refused_with_their_reason() {
    let text = include_str!("data/solar_bad_input.txt");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
        let fields: Vec<&str> = rest.split('|').map(str::trim).collect();
        match (kind, fields.as_slice()) {
            ("move", [position, before, bad, reason]) => {
                let mut p = Position::from_setup_or_string(position)
                    .unwrap_or_else(|e| panic!("{line}: position refused: {e}"));
                for m in before.split_whitespace() {
                    p.play(m)
                        .unwrap_or_else(|e| panic!("{line}: {m} refused: {e}"));
                }
                let snapshot = p.clone();
                match p.play(bad) {
                    Ok(_) => {
                        failures.push(format!("{line}: accepted"));
                        p = snapshot.clone();
                    }
                    Err(e) if !e.to_string().contains(reason) => {
                        failures.push(format!("{line}: got '{e}'"))
                    }
                    Err(_) => {}
                }
                assert_eq!(p, snapshot, "{line}: a refused move changed the position");
                assert_eq!(p.key(), snapshot.key());
            }
            ("position", [text, reason]) => match Position::from_setup_or_string(text) {
                Ok(_) => failures.push(format!("{line}: accepted")),
                Err(e) if !e.to_string().contains(reason) => {
                    failures.push(format!("{line}: got '{e}'"))
                }
                Err(_) => {}
            },
            _ => panic!("malformed test line: {line}"),
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 40, "only {checked} lines");
}
