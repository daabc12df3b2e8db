//! The crash test: 1,000 commands through `srtrack exec`, one process each, while this test
//! kills some of them with SIGKILL at random moments. After every kill the save loads and equals
//! the state after a prefix of the script no shorter than the commands acknowledged.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use srtrack::catalogue::Catalogue;
use srtrack::encounter::{Encounter, State};
use srtrack::lang::{self, Line};
use srtrack::rules::{HouseRules, RandomDice};
use srtrack::save::file;

const SEED: u64 = 7;
const COMMANDS: usize = 1000;

/// A script every line of which the engine accepts, with the state after each prefix.
/// Each process rolls with fresh dice from `--seed`, so this does the same.
fn script() -> (Vec<String>, Vec<State>) {
    let mut enc = Encounter::new(
        Arc::new(HouseRules::embedded()),
        Arc::new(Catalogue::default()),
    );
    let mut lines = Vec::new();
    let mut states = vec![enc.state().clone()];
    let mut pick = StdRng::seed_from_u64(3);
    let setup = [
        "add Jinx pc int 4 rea 5 edge 2 body 4 will 3",
        "add Rook pc int 3 rea 4 edge 1 body 5 will 3",
        "add Ganger x2 npc int 3 rea 3 edge 1 body 3 will 2",
        "roll all",
        "start",
    ];
    let mut setup = setup.iter().map(|s| (*s).to_string());
    while lines.len() < COMMANDS {
        let line = setup.next().unwrap_or_else(|| {
            let who = enc
                .state()
                .turn()
                .map_or("Jinx".to_string(), |t| enc.state().name(t.who).to_string());
            match pick.random_range(0..6) {
                0 => format!("act {who} simple"),
                1 => format!("act {who} free"),
                2 => "damage Rook 1 stun".to_string(),
                3 => "heal Rook 1 stun".to_string(),
                _ => "next".to_string(),
            }
        });
        let Ok(Line::Command(cmd)) = lang::parse(&line, enc.state(), enc.catalogue()) else {
            continue;
        };
        if lang::execute(&mut enc, cmd, &mut RandomDice::seeded(SEED)).is_ok() {
            lines.push(line);
            states.push(enc.state().clone());
        }
    }
    (lines, states)
}

/// Entries in the save (0 if it was never written).
fn saved_prefix(path: &Path, states: &[State]) -> usize {
    if !path.exists() {
        return 0;
    }
    let (_, enc) = file::load(path, Arc::new(Catalogue::default()))
        .unwrap_or_else(|e| panic!("the save must load after a kill: {e}"));
    let k = enc.cursor();
    assert_eq!(enc.history().len(), k);
    assert_eq!(
        enc.state(),
        &states[k],
        "the save is the state after {k} commands"
    );
    k
}

#[test]
fn killed_at_random_the_save_is_always_a_prefix_of_the_script() {
    let (lines, expected) = script();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.ron");
    let mut rng = StdRng::seed_from_u64(9);
    let (mut next, mut acked, mut kills) = (0usize, 0usize, 0usize);
    let started = Instant::now();
    while next < lines.len() {
        let mut child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
            .args([
                "--data-dir",
                dir.path().to_str().unwrap(),
                "--seed",
                &SEED.to_string(),
            ])
            .arg("exec")
            .arg(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{}", lines[next]).unwrap();
        drop(stdin);
        if rng.random_bool(0.3) {
            // A moment anywhere in a process's life: start-up, load, write, fsync, rename.
            std::thread::sleep(Duration::from_micros(rng.random_range(0..40_000)));
            let _ = child.kill();
            let status = child.wait().unwrap();
            if status.success() {
                acked = next + 1;
            } else {
                kills += 1;
            }
            let k = saved_prefix(&path, &expected);
            assert!(k >= acked, "lost acknowledged commands: {k} < {acked}");
            assert!(k <= next + 1, "more than was sent: {k}");
            next = k;
        } else {
            let status = child.wait().unwrap();
            assert!(status.success(), "line {}: {}", next + 1, lines[next]);
            next += 1;
            acked = next;
        }
    }
    assert_eq!(saved_prefix(&path, &expected), lines.len());
    assert!(kills > 10, "the test killed processes mid-way ({kills})");
    // What the killed processes left behind goes with the next one that takes the lock.
    let last = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .args(["--data-dir", dir.path().to_str().unwrap(), "exec"])
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(last.status.success());
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "crash.ron",
            "crash.ron.bak",
            "crash.ron.journal",
            "crash.ron.lock"
        ],
        "no temporary files"
    );
    eprintln!(
        "{} commands, {kills} kills, {:?}",
        lines.len(),
        started.elapsed()
    );
}

#[test]
fn a_long_exec_killed_midway_keeps_what_it_applied() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.ron");
    let mut script = String::from("add Ann pc int 3 rea 3 body 4 will 4\n");
    // Long enough to be running when killed; each line is one entry.
    script.push_str(&"damage Ann 1 stun\nheal Ann 1 stun\n".repeat(200_000));
    let mut child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .args(["--data-dir", dir.path().to_str().unwrap(), "exec"])
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Written from a thread of its own: exec reads its script as it applies it, so the write
    // blocks until the pipe drains; the kill ends it with a broken pipe.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    std::thread::sleep(Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    writer.join().unwrap();
    let (_, enc) = file::load(&path, Arc::new(Catalogue::default()))
        .expect("a save was written while the script ran");
    assert!(
        enc.history().len() > 64,
        "more than the first lines: {}",
        enc.history().len()
    );
}

/// `srtrack exec PATH` with `script` on stdin; whether it succeeded.
fn exec(dir: &Path, path: &Path, script: &str) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_srtrack"))
        .args(["--data-dir", dir.to_str().unwrap(), "exec"])
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    child.wait().unwrap().success()
}

/// A save made by one `exec` (a snapshot) with a change made by another (in its journal).
fn two_commands(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    assert!(exec(
        dir.path(),
        &path,
        "add Ann pc int 3 rea 3 body 4 will 4\n"
    ));
    assert!(exec(dir.path(), &path, "damage Ann 1 stun\n"));
    (dir, path)
}

#[test]
fn a_journal_line_cut_short_is_dropped_and_the_next_change_goes_on_a_line_of_its_own() {
    let (dir, path) = two_commands("torn.ron");
    let journal = dir.path().join("torn.ron.journal");
    let text = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(text.lines().count(), 2, "a header and one change: {text}");
    let last = text.lines().last().unwrap();
    let catalogue = Arc::new(Catalogue::default());
    // A kill in the middle of the next append: every cut of a whole line.
    for cut in 1..last.len() {
        std::fs::write(&journal, format!("{text}{}", &last[..cut])).unwrap();
        let (_, enc) = file::load(&path, Arc::clone(&catalogue))
            .unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        assert_eq!(enc.history().len(), 2, "cut at {cut}");
    }
    assert!(exec(dir.path(), &path, "heal Ann 1 stun\n"));
    let (_, enc) = file::load(&path, catalogue).unwrap();
    assert_eq!(
        enc.history()
            .iter()
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>(),
        [
            "add Ann pc int 3 rea 3 body 4 will 4",
            "damage Ann 1 stun",
            "heal Ann 1 stun"
        ]
    );
}

#[test]
fn a_journal_of_an_older_snapshot_is_not_applied() {
    let (dir, path) = two_commands("old.ron");
    let journal = dir.path().join("old.ron.journal");
    let stale = std::fs::read(&journal).unwrap();
    // The snapshot is rewritten (here by hand, as a fold does: the old one kept as `.bak`)
    // before its journal starts.
    let (_, enc) = file::load(&path, Arc::new(Catalogue::default())).unwrap();
    let text = file::SaveFile::of(&enc, "old", "2026-01-01T00:00:00Z").to_ron();
    std::fs::copy(&path, dir.path().join("old.ron.bak")).unwrap();
    std::fs::write(&path, text).unwrap();
    std::fs::write(&journal, stale).unwrap();
    let (_, enc) = file::load(&path, Arc::new(Catalogue::default())).unwrap();
    assert_eq!(enc.history().len(), 2, "the damage is applied once");
}
