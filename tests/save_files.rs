//! The file system is not to be trusted: symbolic links, modes, read-only saves, files that are
//! not saves, temporary files, and the backup.

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SETUP: &str = "add Ann pc int 4 rea 5 edge 2\nadd Bo npc int 3 rea 3\nroll all\nstart\n";

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_srtrack")
}

/// `srtrack ARGS` with `stdin`, in `sh` so a umask or a file size limit can be set first.
fn run_in(dir: &Path, prelude: &str, args: &[&str], stdin: &str) -> Output {
    let mut line = format!("{prelude} exec \"$0\" --data-dir \"$1\"");
    for i in 0..args.len() {
        line.push_str(&format!(" \"${}\"", i + 2));
    }
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(line)
        .arg(bin())
        .arg(dir)
        .args(args)
        .env_remove("SRTRACK_DATA_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("srtrack runs");
    let mut input = child.stdin.take().unwrap();
    // An exec refused before it reads its script ends first: a broken pipe is that.
    let _ = std::io::Write::write_all(&mut input, stdin.as_bytes());
    drop(input);
    child.wait_with_output().unwrap()
}

fn run(dir: &Path, args: &[&str], stdin: &str) -> Output {
    run_in(dir, "", args, stdin)
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A save made by `exec`, in `dir`.
fn a_save(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let out = run(dir, &["exec", path.to_str().unwrap()], SETUP);
    assert!(out.status.success(), "{}", err(&out));
    path
}

#[test]
fn a_symlinked_lock_file_is_refused_and_what_it_points_to_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let save = a_save(dir.path(), "f.ron");
    let victim = dir.path().join("precious.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::fs::remove_file(dir.path().join("f.ron.lock")).unwrap();
    symlink(&victim, dir.path().join("f.ron.lock")).unwrap();
    let before = std::fs::read(&save).unwrap();
    let out = run(dir.path(), &["exec", save.to_str().unwrap()], "next\n");
    assert_eq!(out.status.code(), Some(1), "{}", err(&out));
    assert!(err(&out).contains("symbolic link"), "{}", err(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert_eq!(std::fs::read(&save).unwrap(), before);
}

/// Given a save whose lock file is a directory, when exec runs on it, then the lock file is
/// blamed (as a FIFO or a link there is), not the save, and nothing changes.
#[test]
fn a_lock_file_that_is_a_directory_is_named_not_the_save() {
    let dir = tempfile::tempdir().unwrap();
    let save = a_save(dir.path(), "f.ron");
    let lock = dir.path().join("f.ron.lock");
    std::fs::remove_file(&lock).unwrap();
    std::fs::create_dir(&lock).unwrap();
    let before = std::fs::read(&save).unwrap();
    let out = run(dir.path(), &["exec", save.to_str().unwrap()], "next\n");
    assert_eq!(out.status.code(), Some(1), "{}", err(&out));
    assert!(
        err(&out).contains(&format!(
            "its lock file {} is not a regular file, which srtrack never makes: remove it and try again",
            lock.display()
        )),
        "{}",
        err(&out)
    );
    assert!(!err(&out).contains("not a save file"), "{}", err(&out));
    assert_eq!(std::fs::read(&save).unwrap(), before);
}

#[test]
fn exec_on_a_file_that_is_not_a_save_makes_no_lock_file_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let passwd = dir.path().join("passwd");
    std::fs::write(&passwd, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    let out = run(dir.path(), &["exec", passwd.to_str().unwrap()], "next\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        names_in(dir.path()),
        ["passwd"],
        "no passwd.lock: {}",
        err(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&passwd).unwrap(),
        "root:x:0:0:root:/root:/bin/bash\n"
    );
}

#[test]
fn saving_through_a_symlinked_save_writes_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let target = a_save(&dir.path().join("real"), "fight.ron");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("fight.ron");
    symlink(&target, &link).unwrap();
    let before = std::fs::read(&target).unwrap();
    // Enough changes that the journal is folded into a new snapshot.
    let out = run(dir.path(), &["exec", link.to_str().unwrap()], &folding());
    assert!(out.status.success(), "{}", err(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link is still a link"
    );
    assert_ne!(
        std::fs::read(&target).unwrap(),
        before,
        "the target changed"
    );
    assert_eq!(mode(&target), 0o640, "the target keeps its mode");
    let bak = dir.path().join("real/fight.ron.bak");
    assert_eq!(
        std::fs::read(&bak).unwrap(),
        before,
        "the backup is beside the target"
    );
    assert!(!dir.path().join("fight.ron.bak").exists());
    let journal = dir.path().join("real/fight.ron.journal");
    assert_eq!(mode(&journal), 0o640, "the journal gets the save's mode");
    assert!(!dir.path().join("fight.ron.journal").exists());
}

/// Changes enough for a fold of the journal into the snapshot, whatever the journal held.
fn folding() -> String {
    "next\n".repeat(srtrack::save::FOLD_EVERY + 1)
}

#[test]
fn a_link_to_nothing_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("gone.ron");
    symlink(dir.path().join("nowhere.ron"), &link).unwrap();
    let out = run(dir.path(), &["exec", link.to_str().unwrap()], SETUP);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err(&out).contains("symbolic link to a file that does not exist"),
        "{}",
        err(&out)
    );
    assert!(!dir.path().join("nowhere.ron").exists());
}

/// Given a save that is a link to nothing and one that is a loop of links, when each command
/// meets them, then each says the same plain sentence of each, and `list` shows no time (no
/// 1970 date) for them.
#[test]
fn links_to_nothing_and_loops_get_one_sentence_from_every_command_and_no_date() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("saves");
    std::fs::create_dir(&saves).unwrap();
    symlink(saves.join("nowhere.ron"), saves.join("dang.ron")).unwrap();
    symlink(saves.join("loop.ron"), saves.join("loop.ron")).unwrap();
    for (name, says) in [
        (
            "dang",
            "it is a symbolic link to a file that does not exist",
        ),
        (
            "loop",
            "it is a symbolic link in a loop of links that never reaches a file",
        ),
    ] {
        let path = saves.join(format!("{name}.ron"));
        for cmd in ["check", "show", "exec", "open"] {
            let out = run(dir.path(), &[cmd, name], "");
            assert_eq!(out.status.code(), Some(1), "{cmd} {name}");
            assert_eq!(
                err(&out),
                format!("srtrack: {}: {says}\n", path.display()),
                "{cmd} {name}"
            );
        }
        let list = String::from_utf8_lossy(&run(dir.path(), &["list"], "").stdout).into_owned();
        let row = list
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_default();
        assert!(row.ends_with(&format!("-  (unreadable: {says})")), "{list}");
        assert!(!list.contains("1970"), "{list}");
    }
    assert!(!saves.join("nowhere.ron").exists());
}

#[test]
fn a_new_save_is_0644_less_the_umask_and_a_replaced_one_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.ron");
    let p = path.to_str().unwrap();
    let out = run_in(dir.path(), "umask 002;", &["exec", p], SETUP);
    assert!(out.status.success(), "{}", err(&out));
    assert_eq!(mode(&path), 0o644, "0644 less umask 002");
    let out = run_in(
        dir.path(),
        "umask 077;",
        &["exec", dir.path().join("m.ron").to_str().unwrap()],
        SETUP,
    );
    assert!(out.status.success(), "{}", err(&out));
    assert_eq!(
        mode(&dir.path().join("m.ron")),
        0o600,
        "0644 less umask 077"
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o660)).unwrap();
    let out = run_in(dir.path(), "umask 077;", &["exec", p], "next\n");
    assert!(out.status.success(), "{}", err(&out));
    assert_eq!(mode(&path), 0o660, "the mode of the file it replaced");
}

#[test]
fn a_read_only_save_is_refused_with_a_message_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let save = a_save(dir.path(), "ro.ron");
    std::fs::set_permissions(&save, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&save).unwrap();
    let out = run(dir.path(), &["exec", save.to_str().unwrap()], "next\n");
    assert_eq!(out.status.code(), Some(1), "{}", err(&out));
    assert!(err(&out).contains("read-only"), "{}", err(&out));
    assert_eq!(std::fs::read(&save).unwrap(), before);
    assert_eq!(mode(&save), 0o444);
    // The screen opens it read-only (here it then stops: there is no terminal).
    let open = run(dir.path(), &["open", save.to_str().unwrap()], "");
    assert!(err(&open).contains("read-only"), "{}", err(&open));
}

#[test]
fn a_failed_save_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("big.ron");
    let setup = "add Ann pc int 4 rea 5\nadd G x30 npc int 3 rea 3\nroll all\nstart\n";
    let out = run(dir.path(), &["exec", save.to_str().unwrap()], setup);
    assert!(out.status.success(), "{}", err(&out));
    // Then a fold, and a journal past the limit below.
    let script = "next\n".repeat(srtrack::save::FOLD_EVERY + 120);
    let out = run(dir.path(), &["exec", save.to_str().unwrap()], &script);
    assert!(out.status.success(), "{}", err(&out));
    let before = std::fs::read(&save).unwrap();
    assert!(
        before.len() > 16 * 1024,
        "the save outgrows the limit below: {}",
        before.len()
    );
    // Files may not grow past 4 or 8 KiB (blocks of 512 or 1024 bytes): no new save fits.
    let out = run_in(
        dir.path(),
        "trap '' XFSZ; ulimit -f 8;",
        &["exec", save.to_str().unwrap()],
        "next\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", err(&out));
    assert!(err(&out).contains("cannot save"), "{}", err(&out));
    assert_eq!(std::fs::read(&save).unwrap(), before);
    assert_eq!(
        names_in(dir.path()),
        ["big.ron", "big.ron.bak", "big.ron.journal", "big.ron.lock"],
        "nothing else is left"
    );
}

#[test]
fn leftovers_of_dead_writers_are_removed_on_the_next_exec_and_others_kept() {
    let dir = tempfile::tempdir().unwrap();
    let save = a_save(dir.path(), "f.ron");
    // A process id that is no longer running.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let live = std::process::id();
    let d = dir.path();
    let leftovers = [
        format!(".f.ron.{dead}.tmp"),
        format!(".f.ron.bak.{dead}.tmp"),
        "f.ron.bak.tmp".to_string(),
        ".f.ron.Ab12Cd".to_string(),
    ];
    for name in &leftovers {
        std::fs::write(d.join(name), "SaveFile(\n  version: 1,").unwrap();
    }
    let kept = [format!(".f.ron.{live}.tmp"), ".f.ron.backup".to_string()];
    std::fs::write(d.join(&kept[0]), "SaveFile(").unwrap();
    std::fs::write(d.join(&kept[1]), "the GM's own notes").unwrap();
    let out = run(d, &["exec", save.to_str().unwrap()], "next\n");
    assert!(out.status.success(), "{}", err(&out));
    let names = names_in(d);
    for name in &leftovers {
        assert!(!names.contains(name), "{name} removed: {names:?}");
    }
    for name in &kept {
        assert!(names.contains(name), "{name} kept: {names:?}");
    }
}

#[test]
fn a_run_that_changes_nothing_leaves_the_backup_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let save = a_save(dir.path(), "f.ron");
    let out = run(dir.path(), &["exec", save.to_str().unwrap()], &folding());
    assert!(out.status.success());
    let bak = dir.path().join("f.ron.bak");
    let (save_then, bak_then) = (std::fs::read(&save).unwrap(), std::fs::read(&bak).unwrap());
    let journal = dir.path().join("f.ron.journal");
    let journal_then = std::fs::read(&journal).unwrap();
    assert_ne!(save_then, bak_then);
    let out = run(
        dir.path(),
        &["exec", save.to_str().unwrap()],
        "why Ann Bo\n# nothing else\n",
    );
    assert!(out.status.success(), "{}", err(&out));
    assert_eq!(
        std::fs::read(&bak).unwrap(),
        bak_then,
        "the version before is still there"
    );
    assert_eq!(std::fs::read(&save).unwrap(), save_then);
    assert_eq!(std::fs::read(&journal).unwrap(), journal_then);
}

#[test]
fn check_and_open_on_a_directory_say_the_same_thing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d.ron");
    std::fs::create_dir(&d).unwrap();
    let p = d.to_str().unwrap();
    let said: Vec<String> = ["check", "open", "show", "export", "exec"]
        .iter()
        .map(|cmd| {
            let out = run(dir.path(), &[cmd, p], "");
            assert_eq!(out.status.code(), Some(1), "{cmd}");
            err(&out)
        })
        .collect();
    for s in &said {
        assert_eq!(
            s,
            &format!("srtrack: {p}: it is a directory, not a save file\n")
        );
    }
}

#[test]
fn a_save_in_a_read_only_folder_opens_read_only_and_exec_refuses_it_in_words() {
    // Given a save in a folder its owner made read-only (the file itself writable, or not)
    for file_mode in [0o644, 0o444] {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("ro");
        std::fs::create_dir(&folder).unwrap();
        let save = a_save(&folder, "fight.ron");
        std::fs::set_permissions(&save, std::fs::Permissions::from_mode(file_mode)).unwrap();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
        let before = names_in(&folder);
        let p = save.to_str().unwrap();
        // When the screen opens it
        let open = run(dir.path(), &["open", p], "");
        // Then it opens read-only, saying why (here it then stops: there is no terminal)
        assert!(
            err(&open).contains("opening it read-only"),
            "{file_mode:o}: {}",
            err(&open)
        );
        assert!(err(&open).contains("needs a terminal"), "{}", err(&open));
        // And exec refuses it in one sentence
        let out = run(dir.path(), &["exec", p], "next\n");
        assert_eq!(out.status.code(), Some(1), "{}", err(&out));
        assert!(err(&out).contains("read-only"), "{}", err(&out));
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(names_in(&folder), before, "nothing made beside it");
    }
}

#[test]
fn an_exec_that_creates_a_save_leaves_a_backup_it_did_not_make_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a backup beside where a save is to be made, the only copy left of an earlier fight
    let earlier = std::fs::read(a_save(d, "earlier.ron")).unwrap();
    for (name, script, code) in [
        // When exec creates the save, applying lines enough for the journal to be folded
        ("x", format!("{SETUP}{}", folding()), 0),
        // Or when its first line is refused, so that no save is made
        ("y", "bogus\n".to_string(), 1),
    ] {
        let bak = d.join(format!("{name}.ron.bak"));
        std::fs::write(&bak, &earlier).unwrap();
        let out = run(
            d,
            &["exec", d.join(format!("{name}.ron")).to_str().unwrap()],
            &script,
        );
        assert_eq!(out.status.code(), Some(code), "{name}: {}", err(&out));
        // Then the backup is there as it was: not replaced, not removed
        assert_eq!(std::fs::read(&bak).ok().as_ref(), Some(&earlier), "{name}");
    }
    assert!(d.join("x.ron").is_file());
    assert!(!d.join("y.ron").exists());
}

#[test]
fn a_backup_that_is_a_directory_is_refused_before_anything_is_written() {
    // Given a save whose `.bak` is a directory (a rewrite could not keep the version before)
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let save = a_save(d, "f.ron");
    std::fs::create_dir(d.join("f.ron.bak")).unwrap();
    let journal = d.join("f.ron.journal");
    let (save_then, journal_then) = (
        std::fs::read(&save).unwrap(),
        std::fs::read(&journal).unwrap(),
    );
    let p = save.to_str().unwrap();
    // When exec would change it
    let out = run(d, &["exec", p], "next\n");
    // Then it is refused in one sentence naming the backup, and nothing is written
    assert_eq!(out.status.code(), Some(1), "{}", err(&out));
    let said = format!("{}/f.ron.bak is a directory", d.display());
    assert!(err(&out).contains(&said), "{}", err(&out));
    assert_eq!(err(&out).trim().lines().count(), 1, "{}", err(&out));
    assert_eq!(std::fs::read(&save).unwrap(), save_then);
    assert_eq!(std::fs::read(&journal).unwrap(), journal_then);
    // And the screen opens it read-only, saying why (here it then stops: there is no terminal)
    let open = run(d, &["open", p], "");
    assert!(err(&open).contains(&said), "{}", err(&open));
    assert!(
        err(&open).contains("opening it read-only"),
        "{}",
        err(&open)
    );
}

#[test]
fn a_backup_made_a_directory_while_exec_runs_is_named_at_the_line_whose_save_failed() {
    // Given an exec on a save, fed from a pipe, that has saved its first line
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let save = a_save(d, "f.ron");
    let journal = d.join("f.ron.journal");
    let mut child = Command::new(bin())
        .args([
            "--data-dir",
            d.to_str().unwrap(),
            "exec",
            save.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut pipe, b"next\n").unwrap();
    let since = std::time::Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |j| j.lines().count()) < 2 {
        assert!(
            since.elapsed().as_secs() < 20,
            "the first line was never saved"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // When its `.bak` becomes a directory, and lines come until the journal is to be folded
    std::fs::create_dir(d.join("f.ron.bak")).unwrap();
    let _ = std::io::Write::write_all(&mut pipe, folding().as_bytes());
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    // Then the line whose save failed is named, and the file that failed is the backup
    let fold_line = srtrack::save::FOLD_EVERY + 1;
    assert_eq!(out.status.code(), Some(1), "{}", err(&out));
    assert_eq!(
        err(&out),
        format!(
            "srtrack: stdin:{fold_line}: cannot save {p}: its backup {p}.bak is a directory, which srtrack never makes: move it away; the lines before it are saved\n",
            p = save.display()
        )
    );
    // And the lines before it are in the journal, which loads
    let journal_now = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(journal_now.lines().count(), fold_line, "{journal_now}");
    std::fs::remove_dir(d.join("f.ron.bak")).unwrap();
    let check = run(d, &["check", save.to_str().unwrap()], "");
    assert!(check.status.success(), "{}", err(&check));
}

#[test]
fn a_journal_that_is_a_link_or_read_only_makes_the_save_read_only_and_nothing_is_written() {
    for how in ["a symbolic link", "read-only"] {
        // Given a save whose journal is a link to a file elsewhere, or one its owner made
        // read-only (the snapshot writable)
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let save = a_save(d, "f.ron");
        let p = save.to_str().unwrap();
        assert!(run(d, &["exec", p], "next\n").status.success());
        let journal = d.join("f.ron.journal");
        let elsewhere = d.join("elsewhere");
        if how == "read-only" {
            std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o444)).unwrap();
        } else {
            std::fs::rename(&journal, &elsewhere).unwrap();
            symlink(&elsewhere, &journal).unwrap();
        }
        let contents = || [&save, &journal, &elsewhere].map(|f| std::fs::read(f).ok());
        let then = contents();
        // When exec would change it
        let out = run(d, &["exec", p], "next\n");
        // Then it is refused in one sentence naming the journal, and nothing is written
        assert_eq!(out.status.code(), Some(1), "{how}: {}", err(&out));
        let said = format!("its journal {} is {how}", journal.display());
        assert!(err(&out).contains(&said), "{how}: {}", err(&out));
        assert_eq!(err(&out).trim().lines().count(), 1, "{}", err(&out));
        assert_eq!(contents(), then, "{how}");
        // And the screen opens it read-only, saying why, as it does a read-only save
        let open = run(d, &["open", p], "");
        assert!(err(&open).contains(&said), "{how}: {}", err(&open));
        assert!(
            err(&open).contains("opening it read-only"),
            "{}",
            err(&open)
        );
    }
}
