//! The journal beside a save: changes are appended to it, folded into the snapshot every
//! `FOLD_EVERY` changes, and saves of earlier versions open and go on in the current format.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use srtrack::catalogue::Catalogue;
use srtrack::encounter::Encounter;
use srtrack::save::{FOLD_EVERY, file};

#[path = "common/cli.rs"]
mod cli;

fn exec(path: &Path, script: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .args(["--data-dir", path.parent().unwrap().to_str().unwrap()])
        .args(["--seed", "5", "exec"])
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // An exec refused before it reads its script ends first: a broken pipe is that.
    let _ = std::io::Write::write_all(&mut stdin, script.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// [`exec`], which must succeed.
fn exec_ok(path: &Path, script: &str) {
    let o = exec(path, script);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn load(path: &Path) -> Encounter {
    file::load(path, Arc::new(Catalogue::default()))
        .unwrap_or_else(|e| panic!("{e}"))
        .1
}

fn texts(enc: &Encounter) -> Vec<String> {
    enc.history().iter().map(|e| e.text.clone()).collect()
}

fn version_of(path: &Path) -> u32 {
    file::parse(&std::fs::read(path).unwrap(), "t")
        .unwrap()
        .version
}

#[test]
fn saves_of_earlier_versions_open_and_go_on_in_the_current_format() {
    for (fixture, version) in [("v1.ron", 1), ("v2.ron", 2)] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(fixture);
        let old = std::fs::read(Path::new("tests/fixtures").join(fixture)).unwrap();
        std::fs::write(&path, &old).unwrap();
        assert_eq!(version_of(&path), version);
        let before = load(&path);
        // Opening changes nothing on disk.
        exec_ok(&path, "");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            old,
            "{fixture}: not rewritten"
        );
        let who = before.state().combatants[0].name.clone();
        exec_ok(&path, &format!("damage \"{who}\" 1 stun\n"));
        assert_eq!(version_of(&path), file::VERSION, "{fixture}");
        assert_eq!(
            std::fs::read(dir.path().join(format!("{fixture}.bak"))).unwrap(),
            old,
            "{fixture}: the backup is the file as it was"
        );
        let after = load(&path);
        assert_eq!(after.history().len(), before.cursor() + 1, "{fixture}");
        assert_eq!(&after.history()[..before.cursor()], before.applied());
    }
}

#[test]
fn undo_redo_and_new_commands_replay_from_the_journal_as_they_were_made() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.ron");
    let script = [
        "add Ann pc int 3 rea 3 body 4 will 4",
        "add Bo npc int 3 rea 3 body 4 will 4",
        "damage Ann 1 stun",
        "damage Ann 2 stun",
        "undo 2",
        "redo",
        "heal Ann 1 stun",
        "undo",
        "damage Bo 3 physical",
        "undo",
    ];
    assert!(exec(&path, &format!("{}\n", script[0])).status.success());
    // One process a line, so every change goes through the journal.
    for line in &script[1..] {
        let o = exec(&path, &format!("{line}\n"));
        assert!(
            o.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let journal = std::fs::read_to_string(dir.path().join("j.ron.journal")).unwrap();
    assert_eq!(journal.lines().count(), script.len(), "{journal}");
    let enc = load(&path);
    assert_eq!(
        texts(&enc),
        [
            "add Ann pc int 3 rea 3 body 4 will 4",
            "add Bo npc int 3 rea 3 body 4 will 4",
            "damage Ann 1 stun",
            "damage Bo 3 physical"
        ]
    );
    assert_eq!(enc.cursor(), 3);
    assert_eq!(enc.state(), &enc.replayed());
    let check = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn the_journal_is_folded_into_the_snapshot_every_so_many_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.ron");
    let mut script = String::from("add Ann pc int 3 rea 3 body 4 will 4\n");
    for _ in 0..FOLD_EVERY + 10 {
        script.push_str("damage Ann 1 stun\nheal Ann 1 stun\n");
    }
    exec_ok(&path, &script);
    let journal = std::fs::read_to_string(dir.path().join("f.ron.journal")).unwrap();
    assert!(
        journal.lines().count() <= FOLD_EVERY + 1,
        "{} lines",
        journal.lines().count()
    );
    assert_eq!(load(&path).history().len(), 1 + 2 * (FOLD_EVERY + 10));
}

#[test]
fn loading_writes_and_locks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.ron");
    assert!(
        exec(&path, "add Ann pc int 3 rea 3 body 4 will 4\n")
            .status
            .success()
    );
    assert!(exec(&path, "damage Ann 1 stun\n").status.success());
    let listing = |d: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name(), std::fs::read(e.path()).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let before = listing(dir.path());
    assert_eq!(load(&path).history().len(), 2);
    assert_eq!(listing(dir.path()), before);
}

#[test]
fn a_save_edited_so_that_its_state_disagrees_with_its_history_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("e.ron");
    assert!(
        exec(&path, "add Ann pc int 3 rea 3 body 4 will 4\n")
            .status
            .success()
    );
    let text = std::fs::read_to_string(&path).unwrap();
    // The kept state says Ann has initiative 3 and reaction 4; her entry says 3 and 3.
    let edited = text.replacen("reaction: 3", "reaction: 4", 1);
    assert_ne!(edited, text, "the state is in the file: {text}");
    std::fs::write(&path, edited).unwrap();
    // Then check says so, and show and export, which print the save, refuse it as check does
    for args in [&["check"][..], &["show"], &["export"], &["export", "--log"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_srtrack"))
            .args(args)
            .arg(&path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
        assert!(
            said.contains("not what its history gives"),
            "{args:?}: {said}"
        );
        if args != ["check"] {
            assert!(out.stdout.is_empty(), "{args:?}");
        }
    }
}

#[test]
fn a_save_exec_creates_is_left_whole_in_its_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.ron");
    exec_ok(
        &path,
        "add Ann pc int 3 rea 3 body 4 will 4\ndamage Ann 1 stun\n",
    );
    let journal = std::fs::read_to_string(dir.path().join("new.ron.journal")).unwrap();
    assert_eq!(journal.lines().count(), 1, "a header, no entry: {journal}");
    assert!(
        !dir.path().join("new.ron.bak").exists(),
        "no backup of the fight as the run began it"
    );
    // Its snapshot holds the state at its end: it opens from there.
    let save = file::parse(&std::fs::read(&path).unwrap(), "new").unwrap();
    assert_eq!(save.cursor, 2);
    let tail = save
        .tail
        .as_ref()
        .expect("a snapshot of this version keeps its tail");
    assert_eq!((tail.start, tail.entries), (0, 2));
    let (_, opened) = file::open(&path, || Arc::new(Catalogue::default())).unwrap();
    assert_eq!(texts(&opened), texts(&load(&path)));
    // A later run appends to the journal, as before.
    exec_ok(&path, "heal Ann 1 stun\n");
    let journal = std::fs::read_to_string(dir.path().join("new.ron.journal")).unwrap();
    assert_eq!(journal.lines().count(), 2, "{journal}");
}

#[test]
fn a_journal_line_whose_text_holds_a_control_character_makes_the_save_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.ron");
    assert!(
        exec(&path, "add Ann pc int 3 rea 3 body 4 will 4\n")
            .status
            .success()
    );
    assert!(exec(&path, "damage Ann 1 stun\n").status.success());
    let journal_path = dir.path().join("j.ron.journal");
    let journal = std::fs::read_to_string(&journal_path).unwrap();
    assert!(
        journal.contains("text:\"damage Ann 1 stun\"")
            || journal.contains("text: \"damage Ann 1 stun\""),
        "{journal}"
    );
    for junk in ["\\u{1b}]0;pwned\\u{7}", "\\u{202e}"] {
        // The journal's entry, edited after its words: no typed command holds one.
        let edited = journal.replacen(
            "damage Ann 1 stun\"",
            &format!("damage Ann 1 stun{junk}\""),
            1,
        );
        assert_ne!(edited, journal);
        std::fs::write(&journal_path, &edited).unwrap();
        let snapshot = std::fs::read(&path).unwrap();
        let check = Command::new(env!("CARGO_BIN_EXE_srtrack"))
            .arg("check")
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&check.stderr);
        assert_eq!(check.status.code(), Some(1), "{err}");
        assert!(err.contains("control character"), "{err}");
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{202e}'),
            "{err}"
        );
        // Opening it refuses too, and leaves the snapshot and the journal as they were.
        let o = exec(&path, "heal Ann 1 stun\n");
        assert_eq!(
            o.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(std::fs::read(&path).unwrap(), snapshot);
        assert_eq!(std::fs::read_to_string(&journal_path).unwrap(), edited);
    }
}

#[test]
fn check_in_one_replay_says_what_load_and_then_the_snapshot_check_say() {
    let cat = || Arc::new(Catalogue::default());
    let texts_or_error = |r: Result<(file::SaveFile, Encounter), file::LoadError>| {
        r.map(|(_, enc)| texts(&enc)).map_err(|e| e.to_string())
    };
    // Given a save whose journal undid two entries of its snapshot and recorded another
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("e.ron");
    let adds = "add Ann pc int 4 rea 5\nadd Bo pc int 4 rea 5\nadd Cy pc int 4 rea 5\n";
    assert!(exec(&path, adds).status.success());
    assert!(
        exec(&path, "undo 2\nadd Di pc int 4 rea 5\n")
            .status
            .success()
    );
    let (good, good_journal) = (
        std::fs::read_to_string(&path).unwrap(),
        std::fs::read_to_string(srtrack::save::journal::path_of(&path)).unwrap(),
    );
    let state_line = good
        .lines()
        .find(|l| l.starts_with("  state: Some("))
        .unwrap();
    // Whole, and edited: an entry both histories hold, one only the snapshot holds, the
    // snapshot's kept state, the journal's entry; then without the journal, whole and edited
    let stale = good.replace(
        state_line,
        &state_line.replacen("reaction: 5", "reaction: 6", 1),
    );
    for (snapshot, journal, says) in [
        (
            good.clone(),
            Some(good_journal.clone()),
            Ok(vec!["add Ann pc int 4 rea 5", "add Di pc int 4 rea 5"]),
        ),
        (
            good.replace("\"add Ann pc int 4 rea 5\"", "\"add Ann\\tpc int 4 rea 5\""),
            Some(good_journal.clone()),
            Err("entry 1"),
        ),
        (
            good.replace("\"add Cy pc int 4 rea 5\"", "\"add Cy\\tpc int 4 rea 5\""),
            Some(good_journal.clone()),
            Err("entry 3"),
        ),
        (
            stale.clone(),
            Some(good_journal.clone()),
            Err("not what its history gives"),
        ),
        (
            good.clone(),
            Some(good_journal.replace("\"add Di pc int 4 rea 5\"", "\"add Di\\tpc int 4 rea 5\"")),
            Err("entry 2"),
        ),
        (
            good.clone(),
            None,
            Ok(vec![
                "add Ann pc int 4 rea 5",
                "add Bo pc int 4 rea 5",
                "add Cy pc int 4 rea 5",
            ]),
        ),
        (stale, None, Err("not what its history gives")),
    ] {
        std::fs::write(&path, &snapshot).unwrap();
        let journal_path = srtrack::save::journal::path_of(&path);
        match journal {
            Some(journal) => std::fs::write(journal_path, journal).unwrap(),
            None => drop(std::fs::remove_file(journal_path)),
        }
        // When it is checked in one go, and by loading and then checking the snapshot
        let once = texts_or_error(file::load_verified(&path, cat()));
        let twice = texts_or_error(
            file::load(&path, cat())
                .and_then(|loaded| file::verify_snapshot(&path, cat()).map(|()| loaded)),
        );
        // Then the two say the same, and what each edit breaks
        assert_eq!(once, twice);
        match (&once, says) {
            (Ok(got), Ok(want)) => assert_eq!(got, &want),
            (Err(got), Err(want)) => assert!(got.contains(want), "{got}"),
            (got, want) => panic!("{got:?}, not {want:?}"),
        }
    }
}

#[test]
fn a_journal_of_another_save_is_refused_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ron"), dir.path().join("b.ron"));
    let journal_of = |p: &Path| p.with_extension("ron.journal");
    // Given two saves, the first with changes in its journal
    for (path, script) in [
        (&a, "add Ann pc int 3 rea 3 body 4 will 4\n"),
        (&a, "damage Ann 1 stun\nheal Ann 1 stun\n"),
        (&b, "add Bo pc int 3 rea 3 body 4 will 4\n"),
    ] {
        exec_ok(path, script);
    }
    // When the first's journal is put beside the second (a copy gone wrong)
    std::fs::copy(journal_of(&a), journal_of(&b)).unwrap();
    let before = (
        std::fs::read(&b).unwrap(),
        std::fs::read(journal_of(&b)).unwrap(),
    );
    // Then loading the second refuses it, naming the journal, instead of dropping its changes
    let err = file::load(&b, Arc::new(Catalogue::default()))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("b.ron.journal"), "{err}");
    assert!(err.contains("continues another snapshot"), "{err}");
    // And a command on it is refused, the save and the journal left as they were
    let o = exec(&b, "damage Bo 1 stun\n");
    assert!(!o.status.success());
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(said.contains("continues another snapshot"), "{said}");
    assert_eq!(
        (
            std::fs::read(&b).unwrap(),
            std::fs::read(journal_of(&b)).unwrap()
        ),
        before
    );
}

#[test]
fn the_journal_a_fold_cut_short_left_is_known_as_folded_and_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.ron");
    let journal = dir.path().join("f.ron.journal");
    // Given a save whose journal holds changes
    exec_ok(&path, "add Ann pc int 3 rea 3 body 4 will 4\n");
    exec_ok(&path, "damage Ann 1 stun\n");
    let unfolded = std::fs::read(&journal).unwrap();
    // When a fold rewrites the snapshot and is killed before its new journal replaced the old
    // (one fold: FOLD_EVERY changes with the one already in the journal)
    let script: String = (0..FOLD_EVERY)
        .map(|i| ["heal Ann 1 stun\n", "damage Ann 1 stun\n"][i % 2])
        .collect();
    exec_ok(&path, &script);
    let folded = load(&path);
    std::fs::write(&journal, &unfolded).unwrap();
    // Then the old journal (it continues the snapshot kept as `.bak`) is ignored
    assert!(dir.path().join("f.ron.bak").exists());
    let reopened = file::load(&path, Arc::new(Catalogue::default()))
        .unwrap_or_else(|e| panic!("{e}"))
        .1;
    assert_eq!(texts(&reopened).len(), 2 + FOLD_EVERY);
    assert_eq!(texts(&reopened), texts(&folded));
}

#[test]
fn a_new_save_replaces_a_journal_its_removed_namesake_left() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("saves");
    let run = |args: &[&str], stdin: &str| cli::srtrack(dir.path(), args, stdin);
    // Given a save with changes in its journal, the save then removed and its journal left
    assert!(
        run(&["exec", "c"], "add Ann pc int 3 rea 3 will 3\n")
            .status
            .success()
    );
    assert!(run(&["exec", "c"], "damage Ann 1 stun\n").status.success());
    std::fs::remove_file(saves.join("c.ron")).unwrap();
    // When a new save of that name is made
    let o = run(&["new", "c"], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Then it opens, empty, and the old journal is gone
    let o = run(&["check", "c"], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(load(&saves.join("c.ron")).history().is_empty());
}

#[test]
fn a_bad_entry_from_the_journal_is_blamed_on_the_journal_and_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.ron");
    let journal = dir.path().join("f.ron.journal");
    // Given a save with two changes in its journal, the second edited to name no one there is
    exec_ok(&path, "add Ann pc int 3 rea 3 body 4 will 4\n");
    exec_ok(&path, "damage Ann 1 stun\ndamage Ann 2 stun\n");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let edited = lines[2].replace("CombatantId(0)", "CombatantId(9)");
    lines[2] = &edited;
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    // When it is loaded, and checked
    let err = file::load(&path, Arc::new(Catalogue::default()))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    // Then the error names the journal and the line, not the snapshot that does not hold it
    assert!(
        err.contains("f.ron.journal: line 3: entry 3 (`damage Ann 2 stun`)"),
        "{err}"
    );
    let verified = file::load_verified(&path, Arc::new(Catalogue::default()))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert_eq!(verified, err);
}

#[test]
fn a_field_srtrack_does_not_know_makes_the_save_a_bad_file_never_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.ron");
    exec_ok(&path, "add Ann pc int 3 rea 3 body 4 will 4\n");
    // Given a save with a field added by hand
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replacen("  cursor: ", "  bogus: 1,\n  cursor: ", 1);
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();
    // When a command is run on it
    let o = exec(&path, "damage Ann 1 stun\n");
    // Then it is refused naming the field, and the file is as it was (the field not dropped)
    let said = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(said.contains("`bogus` is not a field"), "{said}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
}

/// A fight under way whose journal holds Ana's delay of 2 IP, Bo's Edge for IP and Bo's turn
/// starting, in that order (lines 2, 3 and 4).
fn delay_edge_and_a_turn(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("v.ron");
    for script in [
        "add Ana pc int 4 rea 5 edge 2\nadd Bo pc int 3 rea 3 edge 2\nroll Ana hits 3\nroll Bo hits 2\nstart\n",
        "delay Ana 2\nedge Bo\nnext\n",
    ] {
        exec_ok(&path, script);
    }
    path
}

#[test]
fn a_journal_edited_into_what_the_engine_refuses_makes_the_save_a_bad_file() {
    type Edit = fn(Vec<String>) -> Vec<String>;
    let cases: [(&str, Edit, &str); 7] = [
        (
            "a delay's text saying other IP than its event",
            |mut l| {
                l[1] = l[1].replace("delay Ana 2", "delay Ana 3");
                l
            },
            "no event shows what the text says (`delay` for whom and what it names)",
        ),
        (
            "a second delay while one is held",
            |mut l| {
                l.insert(2, l[1].clone());
                l
            },
            "Ana delays while holding a delay",
        ),
        (
            "Edge for IP twice in a round",
            |mut l| {
                l.insert(3, l[2].clone());
                l
            },
            "Bo spends Edge for IP more than 1 time a round",
        ),
        (
            "a delay of no IP",
            |mut l| {
                l[1] = l[1].replace("ip: 2", "ip: 0").replace("Ana 2", "Ana 0");
                l
            },
            "Ana delays 0 IP: a delay holds 1 to 5",
        ),
        (
            "a delay over the cap",
            |mut l| {
                l[1] = l[1].replace("ip: 2", "ip: 9").replace("Ana 2", "Ana 9");
                l
            },
            "Ana delays 9 IP: a delay holds 1 to 5",
        ),
        (
            "Edge giving more IP than the rules",
            |mut l| {
                l[2] = l[2].replace("ip_gained: 4", "ip_gained: 200");
                l
            },
            "Bo's Edge gives 200 IP for 1 Edge: the rules give 4 for 1",
        ),
        (
            "a turn giving more IP than the rules",
            |mut l| {
                l[3] = l[3].replace("ip_gained: 1", "ip_gained: 200");
                l
            },
            "Bo's turn gives 200 IP: the rules give 1",
        ),
    ];
    for (what, edit, says) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = delay_edge_and_a_turn(dir.path());
        let journal = dir.path().join("v.ron.journal");
        // Given the journal edited by hand into what no command makes
        let lines: Vec<String> = std::fs::read_to_string(&journal)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let edited = edit(lines.clone()).join("\n") + "\n";
        assert_ne!(
            edited,
            lines.join("\n") + "\n",
            "{what}: the edit changed nothing"
        );
        std::fs::write(&journal, &edited).unwrap();
        // Then loading refuses it, saying what is wrong
        let err = file::load(&path, Arc::new(Catalogue::default()))
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains(says), "{what}: {err}");
    }
}
