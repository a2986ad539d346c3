//! The project's binaries for tests that run them. `ORRERY_BIN_DIR=/some/dir` runs the tests
//! against other builds of them (e.g. an older release, to check that a test fails there).

use std::path::PathBuf;
use std::process::Command;

/// Path of one of the project's binaries (`spider-chess`, `solar-chess`, `space-wars`, `orrery`).
pub fn path(name: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os("ORRERY_BIN_DIR") {
        return PathBuf::from(dir).join(name);
    }
    PathBuf::from(match name {
        "spider-chess" => env!("CARGO_BIN_EXE_spider-chess"),
        "solar-chess" => env!("CARGO_BIN_EXE_solar-chess"),
        "space-wars" => env!("CARGO_BIN_EXE_space-wars"),
        "orrery" => env!("CARGO_BIN_EXE_orrery"),
        other => panic!("no binary named {other}"),
    })
}

/// A command running that binary.
pub fn command(name: &str) -> Command {
    Command::new(path(name))
}
