//! The `binade` command (see `binade --help`).

#[global_allocator]
static HEAP: binade::cli::heap::CountingAlloc = binade::cli::heap::CountingAlloc;

fn main() -> std::process::ExitCode {
    binade::cli::heap::installed();
    binade::cli::main()
}
