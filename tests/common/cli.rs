//! Running the real binary from a test: `srtrack --data-dir DATA ARGS` with `stdin`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub fn srtrack(data: &Path, args: &[&str], stdin: &str) -> Output {
    srtrack_bytes(data, args, stdin.as_bytes())
}

/// [`srtrack`] with standard input as bytes (UTF-8 or not).
pub fn srtrack_bytes(data: &Path, args: &[&str], stdin: &[u8]) -> Output {
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
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child.wait_with_output().expect("srtrack ends")
}

/// Output bytes as text.
#[allow(dead_code)]
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `line` on the save `name` in `data` and checks it is refused as every bad line is: exit 1,
/// one sentence holding `says`, nothing on stdout, and the save byte for byte as it was.
#[allow(dead_code)]
pub fn refused_unchanged(data: &Path, name: &str, line: &str, says: &str) {
    let save = data.join("saves").join(format!("{name}.ron"));
    let before = std::fs::read(&save).expect("the save exists");
    let out = srtrack(data, &["exec", name], &format!("{}\n", line.trim_end()));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{line}: {err}");
    assert!(err.contains(says), "{line}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{line}: one sentence: {err}");
    assert!(
        text(&out.stdout).is_empty(),
        "{line}: {}",
        text(&out.stdout)
    );
    assert_eq!(
        std::fs::read(&save).expect("the save"),
        before,
        "{line}: the save changed"
    );
}
