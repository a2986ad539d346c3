//! The `solar-chess` binary (being built; see the open issues).
fn main() {
    eprintln!("solar-chess: not built yet");
    std::process::exit(2);
}
