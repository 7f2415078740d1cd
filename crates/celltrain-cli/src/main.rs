//! The `celltrain` command.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    std::process::exit(celltrain_cli::main_with_args(args));
}
