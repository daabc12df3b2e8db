//! Running the real binary from a test: `srtrack --data-dir DATA ARGS` with `stdin`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub fn srtrack(data: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("SRTRACK_DATA_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("srtrack runs");
    // A refusal may come before all of stdin is read.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("srtrack ends")
}
