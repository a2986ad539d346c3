//! Games between every pair of built-in players finish, and their records replay to the same result.

use orrery::engines::spacewars::make_player;
use orrery::engines::spacewars::selfplay::play_game;
use orrery::search::ismcts::SearchBudget as Budget;

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
        let g = play_game(&mut players, 7 + i as u64, &[Budget::iterations(30)]).unwrap();
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
