//! End to end: `srtrack exec` plays two full rounds from a script, `srtrack show` prints where the
//! fight stands, and the same script one line per process gives the same fight.

use std::path::Path;
use std::process::{Command, Output, Stdio};

const SCRIPT: &str = "\
# Two runners against two gangers.
add Ana pc int 4 rea 5 edge 2 body 4 will 4
add Bob pc int 3 rea 3 edge 1 body 3 will 3
add Ganger x2 int 3 rea 3 body 4 will 2
roll Ana hits 3
roll Bob hits 2
roll Ganger 1 hits 1
roll Ganger 2 hits 0
start
# Round 1, pass 1.
act Ana Fire Gun
delay Ana 2 after Ganger 2
next
act Bob Take Aim
next
act Ganger 1 Fire Gun
act Bob Dodge
next
act Ganger 2 Melee Attack
next
act Ana Fire Gun
next
# Pass 2: Bob readies, Ganger 1 sets it off.
next
ready Bob 2 when a ganger moves do Fire Gun
next
fire Bob 1 before
act Ganger 1 Sprint
next
# Downed in its own turn: Ganger 2's turn ends by itself.
damage Ganger 2 11 physical
";

fn srtrack(data: &Path, args: &[&str], stdin: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn script() -> String {
    // Then `next` through passes 3 to 5 of round 1 and all of round 2 (three turns a pass:
    // Ganger 2 is Downed and skipped).
    let mut s = SCRIPT.to_string();
    for _ in 0..24 {
        s.push_str("next\n");
    }
    s
}

#[test]
fn exec_plays_two_full_rounds_and_show_prints_round_three() {
    let dir = tempfile::tempdir().unwrap();
    let out = srtrack(dir.path(), &["exec", "fight"], &script());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let show = srtrack(dir.path(), &["show", "fight"], "");
    let page = String::from_utf8_lossy(&show.stdout).into_owned();
    assert!(
        page.starts_with("System: SR5\nRound 3, pass 1 of 5: Ana's turn, 5 IP"),
        "{page}"
    );
    assert!(
        page.contains("Ganger 2") && page.contains("DOWNED (Physical monitor full)"),
        "{page}"
    );
    let log = srtrack(dir.path(), &["export", "--log", "fight"], "");
    let log = String::from_utf8_lossy(&log.stdout).into_owned();
    for line in [
        "Ana delays 2 IP until after Ganger 2",
        "Ana acts on the delay after Ganger 2 (2 IP)",
        "Bob interrupts with Dodge (Interrupt, 2 IP)",
        "Bob's ready fires (when a ganger moves), resolved before the trigger",
        "Bob (reserve): Fire Gun (Simple, 2 IP)",
        "Ganger 2 is Downed (Physical monitor full)",
        "Round 2",
        "- next",
    ] {
        assert!(log.contains(line), "the log tells `{line}`:\n{log}");
    }
    let recap = srtrack(dir.path(), &["export", "fight"], "");
    let recap = String::from_utf8_lossy(&recap.stdout).into_owned();
    for line in [
        "- **Ana**: Fire Gun; holds 2 IP until after Ganger 2",
        "- **Bob**: interrupts with Dodge",
        "- **Ana**: acts on the delay after Ganger 2; Fire Gun",
        "*Pass 2*",
        "- **Ganger 2 goes down** (Physical monitor full)",
        "- Went down: **Ganger 2** (round 1, pass 2).",
    ] {
        assert!(recap.contains(line), "the recap tells `{line}`:\n{recap}");
    }
    assert!(
        recap.lines().count() * 3 < log.lines().count(),
        "the recap is short: {} lines against the log's {}",
        recap.lines().count(),
        log.lines().count()
    );
}

#[test]
fn the_same_script_one_line_per_process_gives_the_same_fight() {
    let dir = tempfile::tempdir().unwrap();
    srtrack(dir.path(), &["exec", "whole"], &script());
    for line in script().lines() {
        let out = srtrack(dir.path(), &["exec", "bits"], &format!("{line}\n"));
        assert_eq!(
            out.status.code(),
            Some(0),
            "`{line}`: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let whole = srtrack(dir.path(), &["show", "whole"], "");
    let bits = srtrack(dir.path(), &["show", "bits"], "");
    assert_eq!(
        String::from_utf8_lossy(&whole.stdout),
        String::from_utf8_lossy(&bits.stdout)
    );
}
