//! Opening a save from its snapshot's end (`file::open`): the state it keeps at the start of its
//! tail and the entries after it; the history before stays on disk until undo reaches it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use srtrack::catalogue::Catalogue;
use srtrack::encounter::Encounter;
use srtrack::save::{Autosave, FileSave, Lock, NoSave, Written, file};
use srtrack::ui::{Action, App};

#[path = "common/cli.rs"]
mod cli;

fn exec(path: &Path, script: &str) {
    let dir = path.parent().unwrap();
    let o = cli::srtrack(
        dir,
        &["--seed", "5", "exec", path.to_str().unwrap()],
        script,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn catalogue() -> Arc<Catalogue> {
    Arc::new(Catalogue::default())
}

/// A save of `rounds` damage-and-heal pairs after a short setup (4 + 2 × `rounds` entries).
fn long_save(dir: &Path, rounds: usize) -> PathBuf {
    let path = dir.join("long.ron");
    let mut script = String::from(
        "add Ana pc int 4 rea 5 body 4 will 3\nadd Bo npc int 3 rea 3 body 3 will 2\nroll all\nstart\n",
    );
    for _ in 0..rounds {
        script.push_str("damage Ana 1 stun\nheal Ana 1 stun\n");
    }
    exec(&path, &script);
    path
}

fn texts(enc: &Encounter) -> Vec<String> {
    enc.history().iter().map(|e| e.text.clone()).collect()
}

/// The opened encounter is the loaded one: same state, and the loaded entries are its end.
fn assert_same(opened: &Encounter, loaded: &Encounter) {
    assert_eq!(opened.state(), loaded.state());
    assert_eq!(opened.base() + opened.cursor(), loaded.cursor());
    assert_eq!(opened.history(), &loaded.history()[opened.base()..]);
}

#[test]
fn a_long_save_opens_from_its_end_in_the_state_a_full_load_gives() {
    let dir = tempfile::tempdir().unwrap();
    let path = long_save(dir.path(), 300);
    let (_, loaded) = file::load(&path, catalogue()).unwrap();
    let (header, opened) = file::open(&path, catalogue).unwrap();
    assert_eq!(loaded.history().len(), 604);
    // The snapshot exec folded last and its journal: the tail before its cursor, then the rest.
    assert!(opened.base() > 0 && opened.base() <= 604 - file::TAIL);
    assert_eq!(header.cursor, 604);
    assert_same(&opened, &loaded);
}

#[test]
fn saves_of_every_version_open_as_a_full_load_reads_them() {
    for fixture in ["v1.ron", "v2.ron", "v3.ron"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(fixture);
        std::fs::copy(Path::new("tests/fixtures").join(fixture), &path).unwrap();
        let journal = Path::new("tests/fixtures").join(format!("{fixture}.journal"));
        if journal.exists() {
            std::fs::copy(&journal, dir.path().join(format!("{fixture}.journal"))).unwrap();
        }
        let (_, loaded) = file::load(&path, catalogue()).unwrap();
        let (_, opened) = file::open(&path, catalogue).unwrap();
        assert_same(&opened, &loaded);
        assert_eq!(opened.base(), 0, "{fixture}: short, so whole");
    }
}

#[test]
fn the_history_left_on_disk_completes_the_encounter() {
    let dir = tempfile::tempdir().unwrap();
    let path = long_save(dir.path(), 300);
    let (_, loaded) = file::load(&path, catalogue()).unwrap();
    let (_, mut opened) = file::open(&path, catalogue).unwrap();
    let earlier = file::earlier(&path, &opened).unwrap();
    opened.prepend(earlier).unwrap();
    assert_eq!(opened.base(), 0);
    assert_eq!(texts(&opened), texts(&loaded));
    assert_eq!(opened.history(), loaded.history());
    assert_eq!(opened.state(), loaded.state());
    opened.undo(600);
    assert_eq!(opened.state(), &loaded.state_after(4));
}

#[test]
fn undo_at_the_start_of_what_is_loaded_reads_the_rest_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = long_save(dir.path(), 300);
    let (_, loaded) = file::load(&path, catalogue()).unwrap();
    let (header, opened) = file::open(&path, catalogue).unwrap();
    let saver = saver_of(&path, &header, &opened);
    let undos = opened.cursor() + 3;
    let mut app = App::new(opened, header.name.clone(), Box::new(saver), None);
    app.complete_log();
    for _ in 0..undos {
        app.update(Action::Undo);
    }
    assert_eq!(app.encounter().base(), 0);
    assert_eq!(app.encounter().cursor(), 604 - undos);
    assert_eq!(app.state(), &loaded.state_after(604 - undos));
    app.save_on_exit().unwrap();
    drop(app);
    let (_, after) = file::load(&path, catalogue()).unwrap();
    assert_eq!(after.history(), loaded.history());
    assert_eq!(after.cursor(), 604 - undos);
    file::verify_snapshot(&path, catalogue()).unwrap();
}

#[test]
fn a_fold_of_an_encounter_opened_from_its_end_keeps_the_history_it_did_not_load() {
    let dir = tempfile::tempdir().unwrap();
    let path = long_save(dir.path(), 300);
    let (_, loaded) = file::load(&path, catalogue()).unwrap();
    let (header, mut opened) = file::open(&path, catalogue).unwrap();
    let mut saver = saver_of(&path, &header, &opened);
    let mut dice = srtrack::rules::RandomDice::seeded(3);
    let line =
        srtrack::lang::parse("damage Bo 2 stun", opened.state(), opened.catalogue()).unwrap();
    let srtrack::lang::Line::Command(cmd) = line else {
        panic!("a command")
    };
    srtrack::lang::execute(&mut opened, cmd, &mut dice).unwrap();
    saver.save(&opened).unwrap();
    saver.close(&opened).unwrap();
    drop(saver);
    let (_, after) = file::load(&path, catalogue()).unwrap();
    assert_eq!(&after.history()[..604], loaded.history());
    assert_eq!(after.history().len(), 605);
    assert_eq!(after.state(), opened.state());
    file::verify_snapshot(&path, catalogue()).unwrap();
    // And it opens from its end again.
    let (_, reopened) = file::open(&path, catalogue).unwrap();
    assert_eq!(reopened.base(), 605 - file::TAIL);
    assert_same(&reopened, &after);
}

#[test]
fn a_journal_that_moves_back_before_the_tail_opens_the_whole_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = long_save(dir.path(), 300);
    // exec folds on exit only when it appended: these stay in the journal.
    exec(&path, "undo 300\n");
    let journal = std::fs::read_to_string(srtrack::save::journal::path_of(&path)).unwrap();
    assert!(journal.contains("Move(304)"), "{journal}");
    let (_, loaded) = file::load(&path, catalogue()).unwrap();
    let (_, opened) = file::open(&path, catalogue).unwrap();
    assert_same(&opened, &loaded);
}

#[test]
fn open_trusts_the_snapshot_but_undo_and_the_check_read_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = long_save(dir.path(), 300);
    let text = std::fs::read_to_string(&path).unwrap();
    // Entry 10, long before the tail, made unreadable.
    let start = text.find("  history: [\n").unwrap();
    let line = text[start..].lines().nth(10).unwrap().to_string();
    assert!(line.contains("heal"), "{line}");
    let at = text.find(&line).unwrap();
    let mut edited = text.clone();
    edited.replace_range(at..at + line.len(), "    Nonsense,");
    std::fs::write(&path, edited).unwrap();
    let (_, opened) = file::open(&path, catalogue).unwrap();
    let (header, _) = file::open(&path, catalogue).unwrap();
    assert!(file::earlier(&path, &opened).is_err());
    assert!(file::verify_snapshot(&path, catalogue()).is_err());
    let undos = opened.cursor() + 1;
    let mut app = App::new(opened, header.name, Box::new(NoSave), None);
    for _ in 0..undos {
        app.update(Action::Undo);
    }
    assert_eq!(
        app.encounter().cursor(),
        0,
        "stops where the loaded entries start"
    );
    assert!(
        app.message()
            .is_some_and(|(m, _)| m.contains("not on disk"))
    );
}

#[test]
fn open_goes_by_the_history_not_the_state_kept_after_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let path = long_save(dir.path(), 300);
    let (_, loaded) = file::load(&path, catalogue()).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let start = text.find("\n  state: Some(").unwrap() + 1;
    let end = start + text[start..].find('\n').unwrap();
    // Derived data, damaged: opening does not read it, the check does.
    let mut edited = text.clone();
    edited.replace_range(start..end, "  state: Some(Nonsense),");
    std::fs::write(&path, edited).unwrap();
    let (header, opened) = file::open(&path, catalogue).unwrap();
    assert_same(&opened, &loaded);
    assert_eq!(header.cursor, loaded.cursor());
    assert!(file::verify_snapshot(&path, catalogue()).is_err());
}

/// Waits for a save written on its own thread to be on disk, or to fail.
fn settled(saver: &mut FileSave) -> Written {
    loop {
        match saver.written() {
            Written::Writing => std::thread::sleep(std::time::Duration::from_millis(1)),
            w => return w,
        }
    }
}

/// The save at `path`, locked, as `header` and `enc` were read from it.
fn saver_of(path: &Path, header: &srtrack::save::SaveFile, enc: &Encounter) -> FileSave {
    let lock = Lock::acquire(path).unwrap();
    FileSave::new(
        path.to_path_buf(),
        header.name.clone(),
        header.created.clone(),
        lock,
    )
    .on_disk(enc, header)
}

/// A long save opened from its end, saved by a writer thread.
fn opened_in_background(dir: &Path) -> (PathBuf, FileSave, Encounter) {
    let path = long_save(dir, 300);
    let (header, enc) = file::open(&path, catalogue).unwrap();
    let saver = saver_of(&path, &header, &enc).in_background();
    (path, saver, enc)
}

fn run(enc: &mut Encounter, line: &str) {
    let parsed = srtrack::lang::parse(line, enc.state(), enc.catalogue()).unwrap();
    let srtrack::lang::Line::Command(cmd) = parsed else {
        panic!("{line}: a command")
    };
    srtrack::lang::execute(enc, cmd, &mut srtrack::rules::RandomDice::seeded(3)).unwrap();
}

#[test]
fn a_save_written_on_its_own_thread_is_on_disk_when_it_says_so_and_at_close() {
    let dir = tempfile::tempdir().unwrap();
    let (path, mut saver, mut enc) = opened_in_background(dir.path());
    run(&mut enc, "damage Bo 1 stun");
    saver.save(&enc).unwrap();
    assert_eq!(settled(&mut saver), Written::Yes);
    // On disk before close: a reader sees it.
    let (_, seen) = file::load(&path, catalogue()).unwrap();
    assert_eq!(seen.state(), enc.state());
    enc.undo(1);
    saver.save(&enc).unwrap();
    run(&mut enc, "damage Bo 2 stun");
    saver.save(&enc).unwrap();
    saver.close(&enc).unwrap();
    assert_eq!(saver.written(), Written::Yes);
    drop(saver);
    let (_, after) = file::load(&path, catalogue()).unwrap();
    assert_eq!(after.state(), enc.state());
    assert_eq!(after.history().len(), 605);
    file::verify_snapshot(&path, catalogue()).unwrap();
}

#[test]
fn a_write_that_fails_on_the_writer_thread_is_told_once_and_written_again_at_close() {
    let dir = tempfile::tempdir().unwrap();
    let (path, mut saver, mut enc) = opened_in_background(dir.path());
    let good = std::fs::read(&path).unwrap();
    // The snapshot is not the one opened: a new one cannot copy the history it did not load.
    std::fs::write(&path, "not a save\n").unwrap();
    run(&mut enc, "damage Bo 1 stun");
    run(&mut enc, "damage Bo 1 stun");
    // Two commands at once: a new snapshot, which fails.
    saver.save(&enc).unwrap();
    let Written::Failed(message) = settled(&mut saver) else {
        panic!("the failure is told")
    };
    assert!(message.starts_with("cannot save "), "{message}");
    assert!(!message.contains('\n'), "one sentence: {message}");
    assert_eq!(saver.written(), Written::Yes, "told once");
    // Put right, the next save writes everything again.
    std::fs::write(&path, &good).unwrap();
    saver.close(&enc).unwrap();
    drop(saver);
    let (_, after) = file::load(&path, catalogue()).unwrap();
    assert_eq!(after.state(), enc.state());
    file::verify_snapshot(&path, catalogue()).unwrap();
}

/// The save at `path` with the first `from` in its line `field` (e.g. `  state: `) made `to`.
fn edit_line(path: &Path, field: &str, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find(&format!("\n{field}")).unwrap() + 1;
    let end = start + text[start..].find('\n').unwrap();
    let at = start + text[start..end].find(from).unwrap();
    let mut edited = text.clone();
    edited.replace_range(at..at + from.len(), to);
    std::fs::write(path, edited).unwrap();
}

/// Every file of the save's folder with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".lock"))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    all.sort();
    all
}

/// The screen as `srtrack open` makes it: opened from the tail, locked, saving, checked.
fn screen_of(path: &Path) -> App {
    let (header, enc) = file::open(path, catalogue).unwrap();
    let saver = saver_of(path, &header, &enc);
    App::new(enc, header.name, Box::new(saver), None).with_audit(srtrack::save::audit::Audit::of(
        path.to_path_buf(),
        catalogue(),
    ))
}

#[test]
fn a_save_whose_kept_state_is_not_its_historys_opens_read_only_and_is_never_written() {
    for (field, from, to) in [
        // The state after the cursor, which opening does not read.
        ("  state: ", "reaction: 5", "reaction: 6"),
        // The state at the tail's start, which opening starts from.
        ("  tail: ", "reaction: 5", "reaction: 6"),
    ] {
        // Given a save edited by hand so that a state it keeps is not what its history gives
        let dir = tempfile::tempdir().unwrap();
        let path = long_save(dir.path(), 300);
        let (_, history) = file::load(&path, catalogue()).unwrap();
        edit_line(&path, field, from, to);
        let check = file::verify_snapshot(&path, catalogue()).unwrap_err();
        let before = files(dir.path());
        // When the screen opens it, the GM makes a change and quits
        let mut app = screen_of(&path);
        app.start_audit();
        app.update(Action::Next);
        app.save_on_exit().unwrap();
        // Then it is read-only with `check`'s sentence, shows what the history gives, and
        // nothing on disk changed
        let (message, error) = app.message().unwrap();
        assert!(
            error && message.contains(&check.to_string()),
            "{field}: {message}"
        );
        assert_eq!(app.encounter().state(), history.state(), "{field}");
        assert_eq!(
            app.encounter().cursor() + app.encounter().base(),
            history.cursor()
        );
        drop(app);
        assert_eq!(files(dir.path()), before, "{field}: left untouched");
    }
}

#[test]
fn a_save_that_checks_out_is_written_as_before() {
    // Given a save as srtrack wrote it
    let dir = tempfile::tempdir().unwrap();
    let path = long_save(dir.path(), 300);
    // When the screen opens it, the GM makes a change and quits
    let mut app = screen_of(&path);
    app.start_audit();
    app.update(Action::Next);
    let state = app.encounter().state().clone();
    app.save_on_exit().unwrap();
    drop(app);
    // Then the change is saved, and the file checks out
    let (_, after) = file::load(&path, catalogue()).unwrap();
    assert_eq!(after.state(), &state);
    file::verify_snapshot(&path, catalogue()).unwrap();
}
