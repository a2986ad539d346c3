use orrery::games::spacewars::engine::{make_player, Budget};
use orrery::games::spacewars::selfplay::{play_game, play_logged};

#[test]
fn games_between_all_players_finish_and_replay() {
    for (i, names) in [
        ["random", "random"],
        ["heuristic", "random"],
        ["ismcts", "heuristic"],
        ["pimc", "heuristic"],
    ]
    .iter()
    .enumerate()
    {
        let mut players: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(s, n)| make_player(n, 10 + s as u64).unwrap())
            .collect();
        let g = play_game(&mut players, 7 + i as u64, &Budget::iterations(30)).unwrap();
        let replay = g.record.replay().unwrap();
        assert_eq!(replay.outcome(), Some(g.outcome));
        eprintln!(
            "{names:?}: {:?} after {} rounds, {} decisions",
            g.outcome,
            g.rounds,
            g.record.decisions.len()
        );
    }
}

#[test]
fn show_log() {
    let mut players: Vec<_> = ["heuristic", "random"]
        .iter()
        .enumerate()
        .map(|(s, n)| make_player(n, 10 + s as u64).unwrap())
        .collect();
    let (g, ev) = play_logged(&mut players, 8, &Budget::iterations(30)).unwrap();
    let rules = orrery::games::spacewars::Ruleset::default();
    for e in &ev {
        eprintln!("{}", e.line_for(9, &rules));
    }
    for d in &g.record.decisions {
        eprintln!("{d:?}");
    }
}
