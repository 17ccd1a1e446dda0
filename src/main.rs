//! The `binade` command (see `binade --help`).

fn main() -> std::process::ExitCode {
    binade::cli::main()
}
