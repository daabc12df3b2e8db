//! The command line: exec, show, check, list, new, export, completions, exit codes, locking.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

#[path = "common/cli.rs"]
mod cli;
use cli::{srtrack, srtrack_bytes, text};

const SETUP: &str =
    "# a fight\nadd Ann pc int 4 rea 5 edge 2\nadd Bo npc int 3 rea 3\nroll all\nstart\n";

#[test]
fn exec_stops_at_the_first_refused_line_and_keeps_the_lines_before() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = format!("{SETUP}act Zed simple\nnext\n");
    let out = srtrack(d, &["exec", "--seed", "1", "fight"], &script);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("stdin:6:"), "line number: {err}");
    let check = srtrack(d, &["check", "fight"], "");
    assert_eq!(check.status.code(), Some(0));
    assert!(
        text(&check.stdout).contains("4 entries"),
        "{}",
        text(&check.stdout)
    );
}

#[test]
fn exec_refuses_an_undo_or_redo_of_more_than_there_is_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The script, the refusal, who is in the fight after it, who is not.
    for (script, said, present, absent) in [
        ("redo\n", "nothing to redo", "", "Ann"),
        (
            "add Ann pc int 4 rea 5\nundo\nundo\n",
            "nothing to undo",
            "",
            "Ann",
        ),
        (
            "add Ann pc int 4 rea 5\nadd Bo npc int 3 rea 3\nundo 3\n",
            "undo 3: only 2 commands to undo",
            "Bo",
            "",
        ),
        (
            "add Ann pc int 4 rea 5\nadd Bo npc int 3 rea 3\nundo 99999999999\n",
            "undo 2147483647 or more: only 2 commands to undo",
            "Bo",
            "",
        ),
        (
            "add Ann pc int 4 rea 5\nadd Bo npc int 3 rea 3\nundo 2\nredo 3\n",
            "redo 3: only 2 commands to redo",
            "",
            "Ann",
        ),
    ] {
        let name = format!("f{}", script.len());
        let out = srtrack(d, &["exec", &name], script);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{script}: {err}");
        assert!(err.contains(said), "{script}: {err}");
        let shown = text(&srtrack(d, &["show", &name], "").stdout);
        assert!(
            present.is_empty() || shown.contains(present),
            "{script}: {shown}"
        );
        assert!(
            absent.is_empty() || !shown.contains(absent),
            "{script}: {shown}"
        );
    }
}

#[test]
fn exec_runs_a_script_file_with_undo_redo_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = d.join("s.txt");
    std::fs::write(&script, format!("{SETUP}undo 2\nredo\nredo\nwhy Ann Bo\n")).unwrap();
    let path = d.join("f.ron");
    let out = srtrack(
        d,
        &[
            "exec",
            path.to_str().unwrap(),
            script.to_str().unwrap(),
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !text(&out.stdout).trim().is_empty(),
        "why prints an explanation"
    );
    // Same seed, same dice: the saves hold the same history.
    let again = d.join("g.ron");
    srtrack(
        d,
        &[
            "--seed",
            "3",
            "exec",
            again.to_str().unwrap(),
            script.to_str().unwrap(),
        ],
        "",
    );
    let strip = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| {
                !l.contains("name:") && !l.contains("created:") && !l.contains("generation:")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&path), strip(&again));
}

#[test]
fn a_change_goes_to_the_journal_and_a_rewrite_keeps_the_file_before_as_bak() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "f"], SETUP);
    let save = d.join("saves/f.ron");
    let first = std::fs::read(&save).unwrap();
    srtrack(d, &["exec", "f"], "next\n");
    assert_eq!(
        std::fs::read(&save).unwrap(),
        first,
        "appended, not rewritten"
    );
    assert!(!d.join("saves/f.ron.bak").exists());
    let journal = std::fs::read_to_string(d.join("saves/f.ron.journal")).unwrap();
    assert!(
        journal.lines().last().unwrap().contains("next"),
        "{journal}"
    );
    // Enough changes for a fold: the snapshot is rewritten, the one before kept.
    let many = "next\n".repeat(srtrack::save::FOLD_EVERY);
    assert_eq!(srtrack(d, &["exec", "f"], &many).status.code(), Some(0));
    assert_eq!(std::fs::read(d.join("saves/f.ron.bak")).unwrap(), first);
    assert_ne!(std::fs::read(&save).unwrap(), first);
}

#[test]
fn list_in_a_data_directory_that_is_a_file_says_so_not_that_there_are_no_saves() {
    // Given a data directory that is a file
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    // When the GM lists the saves
    let out = srtrack(&file, &["list"], "");
    // Then one sentence says the path is a file, as `exec` would, and the exit is non-zero
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot read the folder") && err.contains("a file, not a folder"),
        "{err}"
    );
    assert!(text(&out.stdout).is_empty());
    // A data directory with no saves folder yet still lists none
    let empty = srtrack(&dir.path().join("new"), &["list"], "");
    assert_eq!(empty.status.code(), Some(0));
    assert!(text(&empty.stdout).starts_with("No saves in"));
}

#[test]
fn show_list_export_and_completions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(srtrack(d, &["exec", "one"], SETUP).status.code(), Some(0));
    assert_eq!(
        srtrack(d, &["exec", "two"], "add X pc int 1 rea 1\n")
            .status
            .code(),
        Some(0)
    );
    let show = srtrack(d, &["show", "one"], "");
    assert_eq!(show.status.code(), Some(0));
    assert!(text(&show.stdout).contains("Ann"));
    let list = text(&srtrack(d, &["list"], "").stdout);
    let lines: Vec<&str> = list.lines().collect();
    assert!(lines[0].starts_with("NAME"), "{list}");
    assert!(lines[1].starts_with("two"), "newest first: {list}");
    assert!(lines[2].starts_with("one"), "{list}");
    let md = text(&srtrack(d, &["export", "one"], "").stdout);
    assert!(md.starts_with("# one"), "{md}");
    assert!(md.contains("**Ann**"), "{md}");
    let comp = srtrack(d, &["completions", "bash"], "");
    assert_eq!(comp.status.code(), Some(0));
    assert!(text(&comp.stdout).contains("srtrack"));
}

#[test]
fn new_open_and_bare_srtrack_resume() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // No saves: the demo is copied into a new save. (No terminal here: the screen refuses to
    // open, exit 1, after saying which encounter it would have shown.)
    let out = srtrack(d, &[], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("needs a terminal"),
        "{}",
        text(&out.stderr)
    );
    assert!(d.join("saves/demo.ron").is_file());
    srtrack(d, &["new", "raid"], "");
    assert!(d.join("saves/raid.ron").is_file());
    assert_eq!(
        srtrack(d, &["new", "raid"], "").status.code(),
        Some(1),
        "exists already"
    );
    assert_eq!(srtrack(d, &["new", "../x"], "").status.code(), Some(1));
    // The bare command resumes the one used last.
    let out = srtrack(d, &[], "");
    assert!(
        text(&out.stderr).starts_with("srtrack: \"raid\" is ready"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&srtrack(d, &["open", "demo"], "").stderr).contains("\"demo\" is ready"));
    assert!(text(&srtrack(d, &[], "").stderr).contains("\"demo\" is ready"));
    let missing = srtrack(d, &["open", "nope"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("no such save"));
}

#[test]
fn usage_errors_exit_2_and_help_has_examples() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(srtrack(d, &["frobnicate"], "").status.code(), Some(2));
    assert_eq!(srtrack(d, &["exec"], "").status.code(), Some(2));
    for cmd in [
        "open",
        "new",
        "list",
        "check",
        "exec",
        "show",
        "export",
        "completions",
        "defaults",
    ] {
        let help = srtrack(d, &[cmd, "--help"], "");
        assert_eq!(help.status.code(), Some(0));
        assert!(
            text(&help.stdout).contains("Example"),
            "{cmd} --help has examples"
        );
    }
}

#[test]
fn two_processes_cannot_both_write_one_save() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "f"], SETUP);
    let save = d.join("saves/f.ron");
    let before = std::fs::read(&save).unwrap();
    // This test process stands in for a running srtrack holding the save.
    let lock = srtrack::save::Lock::acquire(&save).unwrap();
    let out = srtrack(d, &["exec", "f"], "next\n");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "in use by another srtrack (process {})",
            std::process::id()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read(&save).unwrap(), before);
    // Opening it in the TUI falls back to read-only and says why.
    let open = srtrack(d, &["open", "f"], "");
    assert!(text(&open.stderr).contains("read-only"));
    drop(lock);
    assert_eq!(srtrack(d, &["exec", "f"], "next\n").status.code(), Some(0));
}

#[test]
fn a_stale_lock_does_not_block() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "f"], SETUP);
    // A crashed srtrack leaves its lock file, but the kernel dropped its flock with it.
    std::fs::write(d.join("saves/f.ron.lock"), "4194000").unwrap();
    let out = srtrack(d, &["exec", "f"], "next\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn new_with_a_system_writes_it_into_the_save() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // No terminal here: the save is created, and not opened.
    let out = srtrack(d, &["new", "heist", "--system", "anarchy"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let save = std::fs::read_to_string(d.join("saves/heist.ron")).unwrap();
    assert!(save.contains("\n  system: anarchy,\n"), "{save}");
    srtrack(d, &["new", "plain"], "");
    let save = std::fs::read_to_string(d.join("saves/plain.ron")).unwrap();
    assert!(save.contains("\n  system: sr5,\n"), "the default: {save}");
}

#[test]
fn a_bad_system_word_is_a_usage_error_naming_the_choices() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for args in [
        vec!["new", "x", "--system", "sr4"],
        vec!["exec", "--system", "sr4", "x"],
    ] {
        let out = srtrack(d, &args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("\"sr4\" is not a rule system: use sr5, sr2097 or anarchy"),
            "{}",
            text(&out.stderr)
        );
    }
    assert!(!d.join("saves/x.ron").exists(), "nothing was created");
}

#[test]
fn exec_system_chooses_the_system_of_a_save_it_creates_only() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = srtrack(d, &["exec", "--system", "anarchy", "heist"], "add Ann pc\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let save = d.join("saves/heist.ron");
    let before = std::fs::read(&save).unwrap();
    // Another system for a save that exists: refused, nothing changed.
    let out = srtrack(
        d,
        &["exec", "--system", "sr5", "heist"],
        "add Bo npc int 3 rea 3\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("runs Shadowrun: Anarchy, not SR5: --system chooses the system only when exec creates the save (nothing changed)"),
        "{err}"
    );
    assert_eq!(std::fs::read(&save).unwrap(), before);
    // The same system, or none, goes on; the system's gate refuses what it does not play.
    let again = srtrack(d, &["exec", "--system", "anarchy", "heist"], "add Bo npc\n");
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let out = srtrack(d, &["exec", "heist"], "roll all\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(
            "stdin:1: `roll` is a command of SR5 and Shadowrun 2097; this encounter runs Shadowrun: Anarchy"
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn show_and_list_name_the_system() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "--system", "sr2097", "seattle"], SETUP);
    srtrack(d, &["exec", "old"], SETUP);
    let show = text(&srtrack(d, &["show", "seattle"], "").stdout);
    assert!(show.starts_with("System: Shadowrun 2097\n"), "{show}");
    let list = text(&srtrack(d, &["list"], "").stdout);
    let lines: Vec<&str> = list.lines().collect();
    assert!(lines[0].contains("  SYSTEM  "), "{list}");
    let row = |name: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(name))
            .copied()
            .unwrap_or("")
    };
    assert!(row("seattle").contains("  Shadowrun 2097  "), "{list}");
    assert!(row("old").contains("  SR5  "), "{list}");
}

#[test]
fn exec_prints_one_line_per_test_rolled_or_typed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = "add Ann pc int 4 rea 5\nadd Bo npc int 3 rea 3\nroll Ann hits 3 glitch\nroll Bo\nstart\nnext\n";
    let out = srtrack(d, &["exec", "--seed", "7", "fight"], script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // Two initiative tests, nothing for the bookkeeping lines around them.
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(
        lines[0], "Ann initiative: typed in: 3 hits on 9 dice, glitch",
        "{stdout}"
    );
    assert!(lines[1].starts_with("Bo initiative: 6 dice ["), "{stdout}");
    assert!(
        lines[1].contains("hits") || lines[1].contains("hit,"),
        "{stdout}"
    );
}

#[test]
fn a_refusal_in_a_race_for_the_lock_always_names_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "f"], SETUP);
    let mut refusals = 0;
    for _ in 0..6 {
        // A new lock file each time: the holder has just made it when the others look.
        let _ = std::fs::remove_file(d.join("saves/f.ron.lock"));
        let children: Vec<_> = (0..12)
            .map(|_| {
                let mut c = Command::new(env!("CARGO_BIN_EXE_srtrack"))
                    .arg("--data-dir")
                    .arg(d)
                    .args(["exec", "f"])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                // A refused exec may end before its script is written (it takes the lock
                // first): a broken pipe here is that, and its refusal is checked below.
                let _ = c.stdin.take().unwrap().write_all(b"why Ann Bo\n");
                c
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            if out.status.success() {
                continue;
            }
            let err = text(&out.stderr);
            assert!(err.contains("in use by another srtrack (process "), "{err}");
            refusals += 1;
        }
    }
    assert!(refusals > 0, "the processes raced");
}

#[test]
fn damage_beyond_any_number_says_the_allowed_range() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = srtrack(
        d,
        &["exec", "f"],
        "add Ana pc int 3 rea 3 body 4 will 4\ndamage Ana 4294967295\n",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("allowed 1 to"), "{err}");
    assert!(!err.contains("expected"), "{err}");
}

/// Every file and folder under `dir`, relative to it.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() {
                todo.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_command_that_takes_a_save_name_refuses_a_bad_one_in_one_sentence() {
    let long = "x".repeat(201);
    // Given names no save may have: empty, hidden, with a control character, padded, too long,
    // or looking like another name
    for name in [
        "",
        ".hidden",
        ".ron",
        "bell\u{7}",
        " padded",
        "padded ",
        long.as_str(),
        // invisible, a direction mark, a line separator, a direction override, a joiner
        "f\u{ad}x",
        "f\u{feff}x",
        "f\u{200f}x",
        "f\u{2066}x",
        "f\u{2028}x",
        "f\u{202e}x",
        "👩\u{200d}🚀",
        // a combining mark first, or an accent apart from its letter (café as e and U+0301 looks
        // like the café of a precomposed é)
        "\u{301}x",
        "cafe\u{301}",
    ] {
        for args in [
            vec!["new", name],
            vec!["open", name],
            vec!["exec", name],
            vec!["show", name],
            vec!["export", name],
            vec!["check", name],
            vec!["watch", name],
            vec!["roster", "save", name, "Ann"],
        ] {
            let dir = tempfile::tempdir().unwrap();
            // When a command is given one
            let out = srtrack(dir.path(), &args, "add Ann pc int 4 rea 5\n");
            // Then it is refused in one sentence, and nothing is made
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert!(err.contains("is not a save name: "), "{args:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
            assert!(
                tree(dir.path()).is_empty(),
                "{args:?}: {:?}",
                tree(dir.path())
            );
        }
    }
    // A name that ends in .ron is a path everywhere, so `new`, which takes a name, refuses it
    let dir = tempfile::tempdir().unwrap();
    let out = srtrack(dir.path(), &["new", "fight.ron"], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("ends in .ron"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn exec_makes_a_new_save_by_path_only_as_name_ron() {
    let dir = tempfile::tempdir().unwrap();
    // Given a path whose file name is not NAME.ron
    for bad in ["a/b", "a/.ron", "a/.hidden.ron"] {
        let path = dir.path().join(bad);
        // When exec would create it
        let out = srtrack(dir.path(), &["exec", path.to_str().unwrap()], SETUP);
        // Then it is refused in one sentence and nothing is made
        assert_eq!(out.status.code(), Some(1), "{bad}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr).trim_end().lines().count(), 1);
        assert!(tree(dir.path()).is_empty(), "{bad}: {:?}", tree(dir.path()));
    }
    // A path stays a path: its folder is made, and the save is there
    let path = dir.path().join("a/b.ron");
    let out = srtrack(dir.path(), &["exec", path.to_str().unwrap()], SETUP);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(path.is_file());
}

#[test]
fn a_new_save_whose_path_runs_through_a_file_is_refused_in_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    // Given a file where the new save's path needs a folder
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "hello\n").unwrap();
    let path = file.join("a/new.ron");
    // When exec would create the save there
    let out = srtrack(dir.path(), &["exec", path.to_str().unwrap()], SETUP);
    // Then one sentence names the folder and why, in no OS error's words, and nothing is made
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err,
        format!(
            "srtrack: cannot create the folder {}: a part of its path is a file, not a folder\n",
            file.join("a").display()
        )
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\n");
}

#[test]
fn an_edit_that_fills_a_monitor_and_one_that_frees_it_are_saved_and_check() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let d = dir.path();
    // Given Bob with 9 of 10 Physical boxes, when Body 1 fills the monitor and Body 3 frees it.
    let out = srtrack(
        d,
        &["exec", "fight"],
        "add Bob pc int 3 rea 3 body 3 will 3\ndamage Bob 9\nedit Bob body 1\nedit Bob body 3\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Then the save's history checks (an edit may down and bring back), and it opens again.
    let out = srtrack(d, &["check", "fight"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = srtrack(d, &["exec", "fight"], "edit Bob body 1\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = srtrack(d, &["show", "fight"], "");
    assert!(
        text(&out.stdout)
            .trim_end()
            .ends_with("Bob is Downed (Physical monitor full)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn damage_to_a_group_reads_a_number_after_its_name_as_the_boxes_when_none_follows() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given the group Guard (Guard 1 to 3) and Bo
    let setup =
        "add Guard x3 npc int 3 rea 3 body 4 will 4\nadd Bo npc int 3 rea 3 body 4 will 4\n";
    let out = srtrack(d, &["exec", "yard"], setup);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // When the GM gives the group 3 Stun and heals it 1 (`Guard 3` and `Guard 1` are members
    // too, but no boxes would follow them), and Guard 2 alone takes 2 Stun more
    let out = srtrack(
        d,
        &["exec", "yard"],
        "damage Guard 3 stun\nheal Guard 1 s\ndamage Guard 2 2 stun\ndamage Guard, Bo 1\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Then each member took 3 and healed 1, Guard 2 took 2 more, and all four took 1 Physical
    let show = text(&srtrack(d, &["show", "yard"], "").stdout);
    let line = |name: &str| {
        show.lines()
            .find(|l| l.contains(name) && l.contains("Stun"))
            .unwrap_or_else(|| panic!("no monitors for {name}:\n{show}"))
            .to_string()
    };
    for (name, stun) in [("Guard 1", 2), ("Guard 2", 4), ("Guard 3", 2), ("Bo", 0)] {
        assert!(
            line(name).contains(&format!("Physical 1/10, Stun {stun}/10")),
            "{name}: {show}"
        );
    }
    // And a name with no boxes after it is refused for its missing number, not read as an attack
    cli::refused_unchanged(
        d,
        "yard",
        "damage Bo stun",
        "the boxes of damage (a number)",
    );
    cli::refused_unchanged(d, "yard", "heal Bo", "the boxes to heal (a number)");
}

#[test]
fn exec_refuses_to_write_to_a_save_whose_kept_state_is_not_its_historys() {
    // Given a save whose kept state was edited by hand (Edge left 9, not 2)
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(srtrack(d, &["exec", "fight"], SETUP).status.code(), Some(0));
    let save = d.join("saves").join("fight.ron");
    let journal = d.join("saves").join("fight.ron.journal");
    let bytes = std::fs::read_to_string(&save).unwrap();
    let at = bytes.find("  state: Some(").unwrap();
    let line_end = at + bytes[at..].find('\n').unwrap();
    let line = bytes[at..line_end].replacen("edge_left: 2", "edge_left: 9", 1);
    let edited = format!("{}{line}{}", &bytes[..at], &bytes[line_end..]);
    assert_ne!(edited, bytes);
    std::fs::write(&save, &edited).unwrap();
    let check = srtrack(d, &["check", "fight"], "");
    assert_eq!(check.status.code(), Some(1));
    let said = text(&check.stderr).trim().to_string();
    let journal_before = std::fs::read(&journal).ok();
    // When a script is run on it
    let out = srtrack(d, &["exec", "fight"], "next\n");
    // Then it is refused with check's sentence, and nothing on disk changed
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&said), "{err} / {said}");
    assert!(err.contains("nothing is written"), "{err}");
    assert_eq!(std::fs::read_to_string(&save).unwrap(), edited);
    assert_eq!(std::fs::read(&journal).ok(), journal_before);
}

#[test]
fn a_script_refused_before_any_line_applies_leaves_no_new_save() {
    // Given no save `trap`
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // When a script whose first line is refused would create it
    let out = srtrack(d, &["exec", "trap"], "add Nix pc edg 3\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // Then no file of it is left
    let left: Vec<_> = std::fs::read_dir(d.join("saves"))
        .map(|r| r.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    // And the script, mended, creates it under the system asked for
    let out = srtrack(
        d,
        &["exec", "--system", "anarchy", "trap"],
        "add Nix pc edge 3\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_script_starting_with_a_byte_order_mark_runs() {
    // Given a script an editor saved with a UTF-8 byte-order mark
    let dir = tempfile::tempdir().unwrap();
    // When it is run
    let out = srtrack(dir.path(), &["exec", "fight"], &format!("\u{feff}{SETUP}"));
    // Then the mark is not read as part of the first word
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// The README's example of the command language runs as written, every line taken.
#[test]
fn the_readmes_command_language_example_runs() {
    let readme = include_str!("../README.md");
    let example = readme
        .split("```text\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .find(|b| b.starts_with("add "))
        .expect("the README has a command-language example");
    let dir = tempfile::tempdir().unwrap();
    let out = srtrack(dir.path(), &["exec", "--seed", "1", "example"], example);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn defaults_prints_the_built_in_files_exactly_and_they_load_as_the_gms_own() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let config = d.join("config");
    std::fs::create_dir(&config).unwrap();
    // Given a GM with only the binary
    for (word, file, built_in) in [
        ("rules", "rules.ron", include_str!("../assets/rules.ron")),
        (
            "actions",
            "actions.ron",
            include_str!("../assets/actions.ron"),
        ),
    ] {
        // When they ask for a built-in file
        let out = srtrack(d, &["defaults", word], "");
        // Then it is printed as the binary holds it, byte for byte
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout) == built_in,
            "{word}: not the built-in file"
        );
        std::fs::write(config.join(file), &out.stdout).unwrap();
    }
    // And the two copies load as the GM's own without a word
    let loaded = srtrack::load_ruleset(Some(&config));
    assert_eq!(loaded.warnings, Vec::<String>::new());
    // And any other word is refused naming the allowed ones, nothing printed
    let out = srtrack(d, &["defaults", "rulez"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("\"rulez\" is not a built-in file: use rules or actions"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    // And the shells complete the two words
    let fish = text(&srtrack(d, &["completions", "fish"], "").stdout);
    assert!(
        fish.lines()
            .any(|l| l.contains("defaults") && l.contains("rules") && l.contains("actions")),
        "{fish}"
    );
}

#[test]
fn new_without_a_terminal_creates_the_save_says_where_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a GM's script, where standard input and output are pipes
    // When it starts an encounter
    let out = srtrack(d, &["new", "raid", "--system", "sr2097"], "");
    // Then the save is made, the script told where and how to open it, and nothing fails
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    let save = d.join("saves/raid.ron");
    let said = text(&out.stdout);
    assert_eq!(
        said,
        format!(
            "created \"raid\" (Shadowrun 2097) in {}: open it in a terminal with `srtrack open raid`\n",
            save.display()
        )
    );
    // And it is a whole save, empty, that no one holds
    let check = srtrack(d, &["check", "raid"], "");
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    assert!(text(&check.stdout).contains("ok (0 entries, in setup)"));
    assert_eq!(tree(d), ["last-used", "saves", "saves/raid.ron"]);
    // And a script can go on with it, and a bare `srtrack` resumes it
    let next = srtrack(d, &["exec", "raid"], "add Ann pc rea 4 int 3\n");
    assert_eq!(next.status.code(), Some(0), "{}", text(&next.stderr));
    assert!(text(&srtrack(d, &[], "").stderr).contains("\"raid\" is ready"));
}

#[test]
fn a_reader_that_goes_away_ends_no_command_in_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/saves/demo.ron");
    // Given a save in the data directory (for `list`)
    assert_eq!(
        srtrack(d, &["exec", "f"], "add Ann int 3 rea 3\n")
            .status
            .code(),
        Some(0)
    );
    for args in [
        vec!["show", demo],
        vec!["export", demo],
        vec!["export", "--log", demo],
        vec!["list"],
        vec!["check", demo],
        vec!["completions", "bash"],
        vec!["defaults", "actions"],
        vec!["roster", "list"],
    ] {
        // When the reader of standard output has gone before a byte is written (`| head`)
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_srtrack"))
            .arg("--data-dir")
            .arg(d)
            .args(&args)
            .env_remove("SRTRACK_DATA_DIR")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        // Then the command ends as it would have, quietly: nobody is left to read the rest
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn a_command_line_clap_refuses_sends_no_escape_raw_even_in_colour() {
    let dir = tempfile::tempdir().unwrap();
    // Given arguments holding an escape sequence (clearing the screen), where a word, a value
    // or a flag is expected, and a terminal that takes colours
    for args in [
        vec!["x\u{1b}[2Jy"],
        vec!["defaults", "x\u{1b}[2Jy"],
        vec!["new", "--system", "x\u{1b}[2Jy", "f"],
        vec!["show", "--x\u{1b}[2Jy"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_srtrack"))
            .arg("--data-dir")
            .arg(dir.path())
            .args(&args)
            .env("CLICOLOR_FORCE", "1")
            .output()
            .unwrap();
        // When the parser refuses them, then the refusal says so with no escape sent raw
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err:?}");
        assert!(!err.contains('\u{1b}'), "{args:?}: {err:?}");
    }
}

#[test]
fn the_shells_complete_the_rule_systems_of_system() {
    let dir = tempfile::tempdir().unwrap();
    // When fish's completions are printed, then `--system` offers the three words
    let fish = text(&srtrack(dir.path(), &["completions", "fish"], "").stdout);
    let offered: Vec<&str> = fish
        .split("-l system")
        .skip(1)
        .filter_map(|rest| rest.split(" -a \"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(offered.len(), 2, "new and exec: {fish}");
    for words in offered {
        assert_eq!(words, "sr5\\t''\nsr2097\\t''\nanarchy\\t''", "{fish}");
    }
    // And a word not among them is still refused in one sentence naming them
    let out = srtrack(dir.path(), &["new", "--system", "sr6", "f"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("sr2097"),
        "{}",
        text(&out.stderr)
    );
}

/// Waits (up to 20 s) until `srtrack show NAME` prints `what`.
fn shown_soon(d: &Path, name: &str, what: &str) -> bool {
    let since = std::time::Instant::now();
    while since.elapsed() < std::time::Duration::from_secs(20) {
        if text(&srtrack(d, &["show", name], "").stdout).contains(what) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

#[test]
fn exec_from_a_pipe_holds_the_save_and_saves_each_line_as_it_arrives() {
    // Given a save, and an exec on it fed from a pipe that stays open
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "s5"], "add Ana pc int 4 rea 5\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .args(["--data-dir", d.to_str().unwrap(), "exec", "s5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // When a first line comes, and the pipe is not closed yet
    pipe.write_all(b"status Ana first\n").unwrap();
    // Then the line is applied and saved at once, readable by another srtrack
    assert!(
        shown_soon(d, "s5", "first"),
        "the first line was never saved while the pipe was open"
    );
    // And the save is held all the while: another writer is told it is in use
    let other = srtrack(d, &["exec", "s5"], "status Ana third\n");
    assert_eq!(other.status.code(), Some(1));
    assert!(
        text(&other.stderr).contains("in use by another srtrack"),
        "{}",
        text(&other.stderr)
    );
    // And when the next line comes and the pipe closes, it is saved too and exec ends well
    pipe.write_all(b"status Ana second\n").unwrap();
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&srtrack(d, &["show", "s5"], "").stdout);
    assert!(
        shown.contains("first") && shown.contains("second"),
        "{shown}"
    );
    assert!(!shown.contains("third"), "{shown}");
}

#[test]
fn a_script_that_is_a_directory_is_said_to_be_one_not_a_save() {
    // Given a directory where the script should be
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = d.join("scripts");
    std::fs::create_dir(&script).unwrap();
    // When exec is given it as the script
    let out = srtrack(d, &["exec", "a1", script.to_str().unwrap()], "");
    // Then it says the script is a directory, in one sentence, and makes no save
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("scripts: it is a directory, not a script"),
        "{err}"
    );
    assert!(!err.contains("save file"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!d.join("saves/a1.ron").exists());
}

#[test]
fn a_script_line_that_is_not_utf8_is_refused_by_its_number_keeping_the_lines_before() {
    let dir = tempfile::tempdir().unwrap();
    let script: &[u8] =
        b"add Ann pc int 4 rea 5\nadd B\xe9 npc int 3 rea 3\nadd Cy pc int 3 rea 3\n";
    refused_at_from_a_file_and_a_pipe(dir.path(), script, 2, "not UTF-8 text");
}

/// Given `script`, whose first line adds Ann and whose later line adds Cy, from a file (save
/// `f`) and through a pipe (save `p`): when it runs, then line `at` is refused by its number in
/// one sentence holding `says`, Ann is saved and Cy never run.
fn refused_at_from_a_file_and_a_pipe(d: &Path, script: &[u8], at: usize, says: &str) {
    let file = d.join("x.script");
    std::fs::write(&file, script).unwrap();
    for (name, args, stdin, source) in [
        (
            "f",
            vec!["exec", "f", file.to_str().unwrap()],
            &b""[..],
            "x.script",
        ),
        ("p", vec!["exec", "p"], script, "stdin"),
    ] {
        let out = srtrack_bytes(d, &args, stdin);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(&format!("{source}:{at}: ")), "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        let shown = text(&srtrack(d, &["show", name], "").stdout);
        assert!(
            shown.contains("Ann") && !shown.contains("Cy"),
            "{name}: {shown}"
        );
    }
}

#[test]
fn only_the_commands_that_roll_dice_take_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given the commands that roll (the screen, and exec) and those that never do
    for cmd in [&["open"][..], &["new"], &["exec"]] {
        let help = text(&srtrack(d, &[cmd, &["--help"]].concat(), "").stdout);
        assert!(help.contains("--seed"), "{cmd:?}: {help}");
    }
    assert!(text(&srtrack(d, &["--help"], "").stdout).contains("--seed"));
    for cmd in [
        &["watch"][..],
        &["show"],
        &["check"],
        &["list"],
        &["export"],
        &["defaults"],
        &["completions"],
        &["roster"],
        &["roster", "list"],
        &["roster", "show"],
        &["roster", "save"],
        &["roster", "remove"],
    ] {
        // Then the help of one that never rolls offers no seed
        let help = text(&srtrack(d, &[cmd, &["--help"]].concat(), "").stdout);
        assert!(!help.contains("--seed"), "{cmd:?}: {help}");
    }
    // And a seed given to one is a usage error, before or after its name, naming it
    srtrack(d, &["exec", "f"], "add Ann pc int 4 rea 5\n");
    for args in [
        &["show", "f", "--seed", "3"][..],
        &["--seed", "3", "show", "f"],
        &["--seed", "3", "list"],
    ] {
        let out = srtrack(d, args, "");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("--seed"), "{args:?}: {err}");
        // the same sentence wherever the seed was put
        assert!(err.contains("rolls no dice"), "{args:?}: {err}");
        assert!(text(&out.stdout).is_empty(), "{args:?}");
    }
    // And a seed given twice, before and after the subcommand, is refused, not one of them dropped
    for args in [
        &["--seed", "3", "exec", "--seed", "4", "f"][..],
        &["--seed", "3", "open", "--seed", "3", "f"],
        &["--seed", "3", "new", "g", "--seed", "4"],
    ] {
        let out = srtrack(d, args, "roll Ann\n");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let first = err.lines().next().unwrap_or_default();
        assert!(first.contains("--seed given twice"), "{args:?}: {err}");
    }
    assert!(!d.join("g.ron").exists(), "a refused `new` made no save");
    // And a seed that is no whole number is told what a seed is, a negative one too
    for bad in ["-1", "abc", "1.5"] {
        let out = srtrack(d, &["exec", "--seed", bad, "f"], "roll Ann\n");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains("a seed is a whole number from 0 to"),
            "{bad}: {err}"
        );
        assert!(!err.contains("tip:"), "{bad}: {err}");
    }
    // And the forms that roll take it before or after the subcommand's name
    for args in [
        &["--seed", "3", "exec", "f"][..],
        &["exec", "--seed", "3", "f"],
    ] {
        let out = srtrack(d, args, "roll Ann\n");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_dash_for_the_script_is_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a file named `-` in the working directory, which is not the script meant
    std::fs::write(d.join("-"), "add Zed pc int 4 rea 5\n").unwrap();
    // When exec is given `-` as its script, with the script on standard input
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .current_dir(d)
        .args(["--data-dir", ".", "exec", "f", "-"])
        .env_remove("SRTRACK_DATA_DIR")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"add Ann pc int 4 rea 5\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Then standard input was applied, not the file
    let shown = text(&srtrack(d, &["show", "f"], "").stdout);
    assert!(shown.contains("Ann") && !shown.contains("Zed"), "{shown}");
    // And `./-` names the file
    let out = srtrack(d, &["exec", "g", &d.join("-").display().to_string()], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&srtrack(d, &["show", "g"], "").stdout).contains("Zed"));
}

#[test]
fn a_script_line_over_the_bound_is_refused_by_its_number_and_not_read_on() {
    use srtrack::cli::MAX_SCRIPT_LINE_BYTES as MAX;
    let dir = tempfile::tempdir().unwrap();
    // Given a script whose line 2 (a comment) is as long as a line may be, line end included,
    // and whose line 3 is one byte longer
    let mut script = b"add Ann pc int 4 rea 5\n#".to_vec();
    script.extend(std::iter::repeat_n(b'x', MAX - 2));
    script.extend(b"\n#");
    script.extend(std::iter::repeat_n(b'x', MAX - 1));
    script.extend(b"\nadd Cy pc int 3 rea 3\n");
    // Then line 3 is refused, naming the bound, the lines before it saved
    let says = format!("the line is longer than {MAX} bytes");
    refused_at_from_a_file_and_a_pipe(dir.path(), &script, 3, &says);
}

#[test]
fn an_endless_script_line_is_refused_without_being_read_into_memory() {
    // Given a script with no line end ever, and exec held to far less memory than it holds
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // When it runs (`/dev/zero` as the script file, and as standard input)
    for (name, line) in [
        ("y", "exec \"$0\" --data-dir \"$1\" exec y /dev/zero"),
        ("z", "exec \"$0\" --data-dir \"$1\" exec z < /dev/zero"),
    ] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 2000000; {line}"))
            .arg(env!("CARGO_BIN_EXE_srtrack"))
            .arg(d)
            .env_remove("SRTRACK_DATA_DIR")
            .output()
            .unwrap();
        // Then its first line is refused in one sentence, and no save is made
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(":1: the line is longer than"), "{name}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        assert!(!d.join(format!("saves/{name}.ron")).exists());
    }
}

#[test]
fn a_save_path_ending_in_a_slash_is_refused_before_anything_is_made() {
    // Given an empty folder
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for arg in ["x.ron/", "x.ron/.", "sub/x.ron/"] {
        for cmd in ["exec", "check", "open"] {
            // When a command is given a save path ending in a slash
            let out = Command::new(env!("CARGO_BIN_EXE_srtrack"))
                .current_dir(d)
                .args(["--data-dir", "data", cmd, arg])
                .env_remove("SRTRACK_DATA_DIR")
                .stdin(Stdio::piped())
                .output()
                .unwrap();
            // Then it is refused in one sentence saying so
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{cmd} {arg}: {err}");
            assert_eq!(
                err,
                format!(
                    "srtrack: {arg}: a save path cannot end in / (nor /.): it names the save file itself, DIR/NAME.ron\n"
                ),
                "{cmd} {arg}"
            );
            // And nothing is made: no save, no folder, no lock
            assert!(tree(d).is_empty(), "{cmd} {arg}: {:?}", tree(d));
        }
    }
}
