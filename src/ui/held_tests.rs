//! A save another srtrack holds: the screen follows it read-only and takes it when it is free.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::KeyCode;

use super::app::{App, HeldPoll};
use super::demo;
use super::held::Held;
use super::tests::{press, screen, typ};
use crate::encounter::Encounter;
use crate::save::{Autosave, FileSave, Lock, NoSave, file};

/// Another srtrack holding the save (the GM's screen, an `exec`): its lock, the snapshot, then a
/// journal line per command, a fold on close.
pub(crate) struct Holder {
    pub(crate) enc: Encounter,
    pub(crate) saver: FileSave,
}

impl Holder {
    pub(crate) fn new(path: &std::path::Path) -> Self {
        let enc = demo::table();
        let lock = Lock::acquire(path).expect("lock");
        let mut saver = FileSave::new(path.to_path_buf(), "t".into(), "2026".into(), lock);
        saver.save(&enc).expect("first save");
        Self { enc, saver }
    }

    pub(crate) fn run(&mut self, line: &str) {
        assert_eq!(demo::script(&mut self.enc, &[line], 9), Ok(()), "{line}");
        self.saver.save(&self.enc).expect("saved");
    }
}

/// Looks at the held save until `want` comes, for a few seconds at most.
fn poll_until(app: &mut App, want: HeldPoll) {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let got = app.poll_held();
        if got == want {
            return;
        }
        assert!(Instant::now() < until, "no {want:?} came (last {got:?})");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A screen opened on the held save at `path`, read-only, as `srtrack open` opens it.
fn opened_held(path: &std::path::Path, catalogue: &Arc<crate::catalogue::Catalogue>) -> App {
    let (_, opened) = file::open(path, || Arc::clone(catalogue)).expect("opens");
    App::new(
        opened,
        "t".into(),
        Box::new(NoSave),
        Some("the save is in use by another srtrack".into()),
    )
    .with_held(Held::of_save(path, Arc::clone(catalogue)))
}

fn jinx_stun(enc: &Encounter) -> u8 {
    enc.state().find("Jinx").map_or(99, |c| c.damage.stun)
}

#[test]
fn a_held_save_is_followed_read_only_and_taken_when_its_holder_lets_go() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.ron");
    let catalogue = Arc::new(demo::catalogue());
    // Given a save another srtrack holds, and a screen opened on it read-only
    let mut holder = Holder::new(&path);
    let mut app = opened_held(&path, &catalogue);
    assert!(app.held());
    // When the holder writes
    holder.run("damage Jinx 2 stun");
    // Then the screen shows what it wrote, and stays read-only
    poll_until(&mut app, HeldPoll::Followed);
    assert_eq!(app.encounter().state(), holder.enc.state());
    assert!(app.read_only.is_some());
    press(&mut app, KeyCode::Char(':'));
    typ(&mut app, "damage Jinx 1 stun");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.encounter().state(),
        holder.enc.state(),
        "nothing typed applies"
    );
    press(&mut app, KeyCode::Esc);
    // When the holder writes once more and lets go
    holder.run("damage Jinx 1 stun");
    holder.saver.close(&holder.enc).expect("closed");
    drop(holder.saver);
    // Then the screen takes the save as it is now, says so, and is no longer read-only
    poll_until(&mut app, HeldPoll::Taken);
    assert!(!app.held() && app.read_only.is_none());
    assert_eq!(app.encounter().state(), holder.enc.state());
    assert!(
        screen(&mut app, 120, 40).contains("it is yours to change now"),
        "{}",
        screen(&mut app, 120, 40)
    );
    // And a command now changes the save on disk, under the lock the screen took
    press(&mut app, KeyCode::Char(':'));
    typ(&mut app, "damage Jinx 1 stun");
    press(&mut app, KeyCode::Enter);
    assert_eq!(jinx_stun(app.encounter()), jinx_stun(&holder.enc) + 1);
    app.save_on_exit().expect("saved");
    let (_, on_disk) = file::load(&path, Arc::clone(&catalogue)).expect("loads");
    assert_eq!(on_disk.state(), app.encounter().state());
    assert!(matches!(
        Lock::acquire(&path),
        Err(crate::save::LockError::InUse { .. })
    ));
}

#[test]
fn a_held_save_the_check_distrusts_is_not_taken_when_its_holder_lets_go() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.ron");
    let catalogue = Arc::new(demo::catalogue());
    // Given a screen opened read-only on a held save, whose check then distrusts the save
    let holder = Holder::new(&path);
    let mut app =
        opened_held(&path, &catalogue).with_audit(crate::save::audit::Audit::with(|| {
            Err(crate::save::audit::Distrust {
                message: "its states are not what its history gives".into(),
                history: None,
            })
        }));
    app.start_audit();
    let until = Instant::now() + Duration::from_secs(10);
    while !app.poll_audit() {
        assert!(Instant::now() < until, "the check answered");
        std::thread::sleep(Duration::from_millis(5));
    }
    // When the holder lets go
    drop(holder);
    std::thread::sleep(Duration::from_millis(1100));
    // Then the screen takes nothing: read-only, saying why, and the lock free
    assert_eq!(app.poll_held(), HeldPoll::Nothing);
    assert!(!app.held());
    assert!(
        app.read_only
            .as_deref()
            .is_some_and(|r| r.contains("not what its history gives"))
    );
    assert!(Lock::acquire(&path).is_ok(), "the screen took no lock");
}

#[test]
fn a_freed_save_that_does_not_load_is_read_again_only_once_it_changes() {
    use crate::save::validate::ENTRIES_CHECKED;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.ron");
    let journal = dir.path().join("t.ron.journal");
    let catalogue = Arc::new(demo::catalogue());
    // Given a screen on a held save, and the holder gone leaving a journal line that fails the
    // check (its text holds a control character)
    let mut holder = Holder::new(&path);
    holder.run("damage Jinx 1 stun");
    let mut app = opened_held(&path, &catalogue);
    drop(holder);
    let good = std::fs::read_to_string(&journal).expect("journal");
    let line = good.lines().last().expect("a change").to_string();
    let bad = format!(
        "{good}{}\n",
        line.replace("damage Jinx 1 stun", "damage Jinx 1 stun\\u{7}")
    );
    std::fs::write(&journal, &bad).expect("written");
    // When the screen tries the free lock: the save is read, does not load, is not taken
    ENTRIES_CHECKED.with(|n| n.set(0));
    assert_eq!(app.poll_held(), HeldPoll::Nothing);
    let read = ENTRIES_CHECKED.with(std::cell::Cell::get);
    assert!(read > 0, "the save was read");
    // Then the next try, the files unchanged, reads nothing
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(app.poll_held(), HeldPoll::Nothing);
    assert_eq!(ENTRIES_CHECKED.with(std::cell::Cell::get), read);
    assert!(app.held());
    // And once the journal is mended, the save is taken
    std::fs::write(&journal, &good).expect("mended");
    poll_until(&mut app, HeldPoll::Taken);
    assert!(app.read_only.is_none());
}
