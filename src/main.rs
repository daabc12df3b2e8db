#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    // Reports with backtraces are for real bugs (panics); user errors are plain sentences.
    if let Err(e) = color_eyre::install() {
        eprintln!("srtrack: {e}");
    }
    srtrack::cli::main()
}
