//! SIGTERM, SIGHUP, SIGINT and SIGQUIT: srtrack finishes the command in hand, saves, and exits.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use srtrack::catalogue::Catalogue;
use srtrack::save::file;

fn stopped_by(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("long.script");
    // Long enough (seconds) that the signal lands mid-script; undo/redo keep the save small.
    let mut text = String::from("add Ann pc int 3 rea 3 will 3\ndamage Ann 1 stun\n");
    text.push_str(&"undo\nredo\n".repeat(2_000_000));
    std::fs::write(&script, text).unwrap();
    let save = dir.path().join("f.ron");
    let child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .args(["--data-dir", dir.path().to_str().unwrap(), "exec"])
        .arg(&save)
        .arg(&script)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("stopped by a signal"), "{err}");
    let (_, enc) = file::load(&save, Arc::new(Catalogue::default())).unwrap();
    assert_eq!(enc.history().len(), 2, "saved before exiting");
}

#[test]
fn sigterm_saves_before_exit() {
    stopped_by("TERM");
}

#[test]
fn sighup_saves_before_exit() {
    stopped_by("HUP");
}

#[test]
fn sigint_from_outside_saves_before_exit() {
    stopped_by("INT");
}

#[test]
fn sigquit_saves_before_exit() {
    stopped_by("QUIT");
}
