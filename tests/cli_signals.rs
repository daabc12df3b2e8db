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
    // Signalled once both commands are on disk (not after a fixed time: a loaded machine may
    // take longer to get there), while the undo/redo lines still run.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !file::load(&save, Arc::new(Catalogue::default()))
        .is_ok_and(|(_, enc)| enc.history().len() == 2)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the two commands never reached disk"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
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

// ---- the screen in a pseudo-terminal ----

use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::sync::Mutex;
use std::time::Instant;

use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{LocalModes, Winsize, tcgetattr, tcsetwinsize};

const ALT_ON: &[u8] = b"\x1b[?1049h";
const ALT_OFF: &[u8] = b"\x1b[?1049l";
const CURSOR_HIDE: &[u8] = b"\x1b[?25l";
const CURSOR_SHOW: &[u8] = b"\x1b[?25h";

/// srtrack's screen on `save`, in a pseudo-terminal of its own (its controlling terminal, as a
/// terminal emulator gives it); everything it writes is collected.
struct Screen {
    child: std::process::Child,
    pty: std::fs::File,
    tty: OwnedFd,
    output: Arc<Mutex<Vec<u8>>>,
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

impl Screen {
    fn open(save: &std::path::Path, data: &std::path::Path) -> Screen {
        let pty = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).unwrap();
        grantpt(&pty).unwrap();
        unlockpt(&pty).unwrap();
        let name = ptsname(&pty, Vec::new()).unwrap();
        let tty: OwnedFd = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(name.to_str().unwrap())
            .unwrap()
            .into();
        tcsetwinsize(
            &tty,
            Winsize {
                ws_row: 30,
                ws_col: 100,
                ws_xpixel: 0,
                ws_ypixel: 0,
            },
        )
        .unwrap();
        let io = || Stdio::from(tty.try_clone().unwrap());
        // setsid -c: a session of its own, with this terminal as its controlling terminal.
        let child = Command::new("setsid")
            .arg("-c")
            .arg(env!("CARGO_BIN_EXE_srtrack"))
            .arg("--data-dir")
            .arg(data)
            .arg("open")
            .arg(save)
            .env("TERM", "xterm-256color")
            .stdin(io())
            .stdout(io())
            .stderr(io())
            .spawn()
            .unwrap();
        let pty = std::fs::File::from(pty);
        let output = Arc::new(Mutex::new(Vec::new()));
        let (mut reader, sink) = (pty.try_clone().unwrap(), Arc::clone(&output));
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Ends when the terminal closes (EIO) or the test ends.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let screen = Screen {
            child,
            pty,
            tty,
            output,
        };
        screen.wait_for(b"Initiative order");
        screen
    }

    fn output(&self) -> Vec<u8> {
        self.output.lock().unwrap().clone()
    }

    fn wait_for(&self, text: &[u8]) {
        let since = Instant::now();
        while find(&self.output(), text).is_none() {
            assert!(
                since.elapsed() < Duration::from_secs(20),
                "the screen never showed {:?}: {}",
                String::from_utf8_lossy(text),
                String::from_utf8_lossy(&self.output())
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the process to end; its exit status.
    fn ended(mut self) -> (std::process::ExitStatus, Vec<u8>, OwnedFd) {
        let since = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // What it wrote last is in the terminal before it ends.
                std::thread::sleep(Duration::from_millis(100));
                return (status, self.output(), self.tty);
            }
            assert!(
                since.elapsed() < Duration::from_secs(10),
                "srtrack did not end"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The terminal is as it was before srtrack started: cooked (not raw), main screen, cursor on.
fn assert_terminal_given_back(out: &[u8], tty: &OwnedFd, how: &str) {
    let modes = tcgetattr(tty).unwrap().local_modes;
    assert!(
        modes.contains(LocalModes::ICANON | LocalModes::ECHO),
        "{how}: raw mode is off ({modes:?})"
    );
    let on = find(out, ALT_ON).expect("it used the alternate screen");
    assert!(
        find(&out[on..], ALT_OFF).is_some(),
        "{how}: back on the main screen"
    );
    let hidden = find(out, CURSOR_HIDE).unwrap_or(0);
    assert!(
        find(&out[hidden..], CURSOR_SHOW).is_some(),
        "{how}: the cursor is shown"
    );
}

/// A copy of the demo save in a fresh data directory.
fn demo_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("demo.ron");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/saves/demo.ron"),
        &save,
    )
    .unwrap();
    (dir, save)
}

fn signal_to_the_screen(signal: &str) {
    let (dir, save) = demo_copy();
    let before = std::fs::read(&save).unwrap();
    let screen = Screen::open(&save, dir.path());
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &screen.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let (_, out, tty) = screen.ended();
    assert_terminal_given_back(&out, &tty, signal);
    let catalogue = Catalogue::embedded(&srtrack::rules::HouseRules::embedded()).unwrap();
    let (_, enc) = file::load(&save, Arc::new(catalogue)).expect("the save loads");
    assert_eq!(enc.history().len(), 74, "{signal}: the save is intact");
    assert_eq!(
        std::fs::read(&save).unwrap(),
        before,
        "{signal}: nothing changed, nothing written"
    );
}

#[test]
fn sigint_from_outside_gives_the_terminal_back() {
    signal_to_the_screen("INT");
}

#[test]
fn sigquit_from_outside_gives_the_terminal_back() {
    signal_to_the_screen("QUIT");
}

#[test]
fn sigterm_gives_the_terminal_back() {
    signal_to_the_screen("TERM");
}

#[test]
fn sighup_gives_the_terminal_back() {
    signal_to_the_screen("HUP");
}

#[test]
fn quitting_with_no_change_leaves_the_save_and_its_backup_as_they_were() {
    let (dir, save) = demo_copy();
    let bak = dir.path().join("demo.ron.bak");
    std::fs::write(&bak, "the version before").unwrap();
    let before = std::fs::read(&save).unwrap();
    let mut screen = Screen::open(&save, dir.path());
    screen.pty.write_all(b"q").unwrap();
    let (status, out, tty) = screen.ended();
    assert!(status.success());
    assert_terminal_given_back(&out, &tty, "q");
    assert_eq!(std::fs::read(&save).unwrap(), before);
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), "the version before");
}

/// Issue 14: a key pressed while the screen still checks the save it opened (a long history
/// takes it ~0.1 s in a test build) is drawn at once and reaches the disk once the check trusts
/// the save, without waiting for another key (a kill -9 after it loses nothing).
#[test]
fn a_change_made_while_the_opened_save_is_checked_reaches_disk_without_another_key() {
    // Given a save of 13,500 entries, opened on the screen
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("long.ron");
    let script = dir.path().join("long.script");
    let mut text = String::from("add Ann pc int 3 rea 3 will 3\nadd Ganger x8 npc int 3 rea 3\n");
    text.push_str("roll all\nstart\n");
    text.push_str(&"next\ndamage Ann 1 stun\nheal Ann 1 stun\n".repeat(4_500));
    std::fs::write(&script, text).unwrap();
    let made = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .args(["--data-dir", dir.path().to_str().unwrap(), "exec"])
        .arg(&save)
        .arg(&script)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let entries = |save: &std::path::Path| {
        file::load(save, Arc::new(Catalogue::default())).map(|(_, enc)| enc.history().len())
    };
    let before = entries(&save).unwrap();
    let mut screen = Screen::open(&save, dir.path());
    // When the GM moves the turn on at once, and presses nothing more
    screen.pty.write_all(b"n").unwrap();
    // Then the change reaches the disk
    let deadline = Instant::now() + Duration::from_secs(20);
    while entries(&save).ok() != Some(before + 1) {
        assert!(
            Instant::now() < deadline,
            "the change never reached disk: {:?}",
            entries(&save)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    screen.child.kill().unwrap();
    screen.child.wait().unwrap();
    assert_eq!(entries(&save).ok(), Some(before + 1));
}

// ---- exec waiting on a pipe ----

#[test]
fn sigterm_while_exec_waits_on_an_open_pipe_ends_it_promptly_with_earlier_lines_saved() {
    // Given an exec fed from a pipe that has sent two lines and stays open
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("f.ron");
    let mut child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .args(["--data-dir", dir.path().to_str().unwrap(), "exec"])
        .arg(&save)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(b"add Ann pc int 3 rea 3 will 3\ndamage Ann 1 stun\n")
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !file::load(&save, Arc::new(Catalogue::default()))
        .is_ok_and(|(_, enc)| enc.history().len() == 2)
    {
        assert!(
            Instant::now() < deadline,
            "the two lines never reached disk while the pipe was open"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // When SIGTERM comes while it waits for the next line
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    // Then it ends within a second, the pipe still open, saying why
    let since = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            since.elapsed() < Duration::from_secs(1),
            "exec did not end on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("stopped by a signal before line 3"), "{err}");
    // And both lines are in the save
    let (_, enc) = file::load(&save, Arc::new(Catalogue::default())).unwrap();
    assert_eq!(enc.history().len(), 2);
    drop(pipe);
}
