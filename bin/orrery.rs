//! The `orrery` binary (being built; see the open issues).
fn main() {
    eprintln!("orrery: not built yet");
    std::process::exit(2);
}
