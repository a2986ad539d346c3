//! The `spider-chess` binary (being built; see the open issues).
fn main() {
    eprintln!("spider-chess: not built yet");
    std::process::exit(2);
}
