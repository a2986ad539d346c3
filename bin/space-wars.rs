//! The `space-wars` binary (being built; see the open issues).
fn main() {
    eprintln!("space-wars: not built yet");
    std::process::exit(2);
}
