//! Save benchmarks: load (read, parse, check, replay) and autosave a 10,000-event save.

use std::sync::Arc;

use srtrack::catalogue::Catalogue;
use srtrack::encounter::Encounter;
use srtrack::lang::{self, Line};
use srtrack::rules::{HouseRules, RandomDice};
use srtrack::save::{Autosave, FileSave, Lock, SaveFile, file};

fn main() {
    divan::main();
}

/// A fight: `setup`, then the lines `then` gives (from the encounter and the line's number)
/// until `enough` says so (from the encounter and the events so far).
fn play(
    setup: &[&str],
    then: impl Fn(&Encounter, usize) -> String,
    enough: impl Fn(&Encounter, usize) -> bool,
) -> Encounter {
    let mut enc = Encounter::new(
        Arc::new(HouseRules::embedded()),
        Arc::new(Catalogue::default()),
    );
    let mut dice = RandomDice::seeded(1);
    let (mut events, mut i) = (0, 0usize);
    while !enough(&enc, events) {
        let line = setup
            .get(i)
            .map_or_else(|| then(&enc, i), |l| (*l).to_string());
        i += 1;
        if let Ok(Line::Command(c)) = lang::parse(&line, enc.state(), enc.catalogue())
            && let Ok(e) = lang::execute(&mut enc, c, &mut dice)
        {
            events += e.events.len();
        }
    }
    enc
}

/// A fight played until its history holds at least 10,000 events.
fn big_encounter() -> Encounter {
    let setup = [
        "add Jinx pc int 4 rea 5 edge 2 body 4 will 3",
        "add Rook pc int 3 rea 4 edge 1 body 5 will 3",
        "add Ganger x3 npc int 3 rea 3 edge 1 body 3 will 2",
        "roll all",
        "start",
    ];
    let then = |enc: &Encounter, i: usize| {
        let who = enc
            .state()
            .turn()
            .map_or(String::new(), |t| enc.state().name(t.who).to_string());
        if i.is_multiple_of(3) {
            format!("act {who} simple")
        } else {
            "next".into()
        }
    };
    play(&setup, then, |_, events| events >= 10_000)
}

#[divan::bench(sample_count = 30)]
fn load_10k_events(bencher: divan::Bencher) {
    let (_dir, path) = written(&big_encounter());
    bencher.bench(|| file::load(&path, Arc::new(Catalogue::default())).unwrap());
}

#[divan::bench(sample_count = 30)]
fn autosave_10k_events(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ron");
    let enc = big_encounter();
    let lock = Lock::acquire(&path).unwrap();
    let mut saver = FileSave::new(path, "big".into(), "2026-01-01T00:00:00Z".into(), lock);
    saver.save(&enc).unwrap();
    // One command undone and redone in turn: each save has a change to write (an unchanged
    // encounter is not written again).
    let mut undone = enc.clone();
    undone.undo(1);
    let mut flip = false;
    bencher.bench_local(|| {
        flip = !flip;
        saver.save(if flip { &undone } else { &enc }).unwrap();
    });
}

/// The CPU part of a cold autosave (the first after a load): the whole text, no disk.
#[divan::bench(sample_count = 30)]
fn serialize_10k_events_cold(bencher: divan::Bencher) {
    let enc = big_encounter();
    bencher.bench(|| {
        SaveFile::of(&enc, "big", "2026-01-01T00:00:00Z")
            .to_ron()
            .len()
    });
}

/// The CPU part of a load: parse, check and replay from memory.
#[divan::bench(sample_count = 30)]
fn parse_and_replay_10k_events(bencher: divan::Bencher) {
    let enc = big_encounter();
    let text = SaveFile::of(&enc, "big", "2026-01-01T00:00:00Z").to_ron();
    bencher.bench(|| {
        file::parse(text.as_bytes(), "big.ron")
            .unwrap()
            .into_encounter("big.ron", Arc::new(Catalogue::default()))
            .unwrap()
    });
}

/// The save of the pty runs (README, Performance): 50 combatants, 10,000 entries.
fn table_encounter() -> Encounter {
    let setup = [
        "add Jinx pc int 4 rea 5 edge 2 body 4 will 3",
        "add Rook pc int 3 rea 4 edge 1 body 5 will 3",
        "add Ganger x48 npc int 3 rea 3 edge 1 body 3 will 2",
        "roll all",
        "start",
    ];
    let cycle = ["next", "damage Rook 1 stun", "heal Rook 1 stun"];
    play(
        &setup,
        |_, i| cycle[i % 3].to_string(),
        |enc, _| enc.history().len() >= 10_000,
    )
}

/// `enc` written as a snapshot in a new directory.
fn written(enc: &Encounter) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ron");
    std::fs::write(
        &path,
        SaveFile::of(enc, "big", "2026-01-01T00:00:00Z").to_ron(),
    )
    .unwrap();
    (dir, path)
}

/// The whole history: what `srtrack check`, `exec` and a watcher pay.
#[divan::bench(sample_count = 20)]
fn load_50_combatants_10k_entries(bencher: divan::Bencher) {
    let (_dir, path) = written(&table_encounter());
    bencher.bench(|| file::load(&path, Arc::new(Catalogue::default())).unwrap());
}

/// From the snapshot's end: what the screen pays before its first frame.
#[divan::bench(sample_count = 20)]
fn open_50_combatants_10k_entries(bencher: divan::Bencher) {
    let (_dir, path) = written(&table_encounter());
    bencher.bench(|| file::open(&path, || Arc::new(Catalogue::default())).unwrap());
}
