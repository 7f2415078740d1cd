//! The `celltrain` command.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = celltrain_cli::panic_report::run_reporting_panics(|| celltrain_cli::main_with_args(args));
    std::process::exit(code);
}
