//! The referee and match runner: engines as child processes, clocks, adjudication, scheduling,
//! statistics and game records. The rules cores decide legality and results, never the engines.
//!
//! Entry points: [`cli::parse_args`] → [`match_runner::run_match`] for a whole match,
//! [`game_runner::play_game`] for one game, [`game_runner::replay`] to check a record,
//! [`label::run`] to score recorded positions for `spider-chess tune --labels`.
//! A game plugs in by implementing [`game_adapter::RefereeGame`] and a case in
//! [`game_kind::GameKind`].

pub mod adjudication;
pub mod cecp_client;
pub mod cli;
pub mod clock;
pub mod engine;
pub mod engine_options;
pub mod engine_process;
pub mod game_adapter;
pub mod game_kind;
pub mod game_runner;
pub mod label;
pub mod live;
pub mod match_runner;
pub mod match_settings;
pub mod merge;
pub mod progress;
pub mod random_engine;
pub mod records;
pub mod schedule;
pub mod solar_game;
pub mod spacewars_game;
pub mod spider_game;
pub mod stats;
pub mod stats_report;
pub mod tally;
pub mod toy_games;
pub mod uci_client;
pub mod unix;
