//! The `celltrain` command: the Rust commands run here, the Python ones (`sweep`,
//! `reproduce`) are handed to `python -m celltrain`.
use celltrain_cli::python_front;

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if python_front::owns(&args) {
        std::process::exit(python_front::hand_over(&args));
    }
    let args: Vec<String> = std::env::args().collect();
    let code = celltrain_cli::panic_report::run_reporting_panics(|| celltrain_cli::main_with_args(args));
    std::process::exit(code);
}
