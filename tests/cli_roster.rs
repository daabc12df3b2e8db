//! `srtrack roster`: sheets kept between fights (list, show, save, remove), checked on load like
//! saves, a bad file reported and never overwritten; `add NAME xN from template` and `add
//! party` in `exec` bring them in as plain `add` entries, so the save never needs the roster.

#[path = "common/cli.rs"]
mod cli;
use cli::srtrack;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fight to keep sheets from: a PC and a group of gangers.
fn with_sheets(d: &std::path::Path) {
    let out = srtrack(
        d,
        &["exec", "first"],
        "add Jinx pc int 5 rea 6 edge 3 body 4 will 5\nadd Ganger x2 int 3 rea 3 body 4 will 2\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    for args in [
        ["roster", "save", "first", "Ganger 1", "--as", "Ganger"].as_slice(),
        &["roster", "save", "first", "jinx"],
    ] {
        let out = srtrack(d, args, "");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).starts_with("kept "),
            "{}",
            text(&out.stdout)
        );
    }
}

#[test]
fn sheets_are_kept_listed_shown_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let empty = text(&srtrack(d, &["roster", "list"], "").stdout);
    assert!(empty.starts_with("No sheets in"), "{empty}");
    with_sheets(d);
    assert!(d.join("roster/Ganger.ron").is_file());
    let list = text(&srtrack(d, &["roster", "list"], "").stdout);
    assert_eq!(
        list,
        "Ganger  (sr5; NPC, Intuition 3 Reaction 3 Edge 0 Body 4 Willpower 2)\n\
         Jinx  (sr5; PC, Intuition 5 Reaction 6 Edge 3 Body 4 Willpower 5)\n"
    );
    let show = text(&srtrack(d, &["roster", "show", "GANGER"], "").stdout);
    assert!(
        show.contains("name: \"Ganger\"") && show.contains("body: Some(4)"),
        "{show}"
    );
    // Kept twice: refused unless asked to replace.
    let again = srtrack(d, &["roster", "save", "first", "Jinx"], "");
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("--replace"),
        "{}",
        text(&again.stderr)
    );
    assert!(
        srtrack(d, &["roster", "save", "first", "Jinx", "--replace"], "")
            .status
            .success()
    );
    // Unknown names say what there is.
    let none = srtrack(d, &["roster", "save", "first", "Nobody"], "");
    assert!(
        text(&none.stderr).contains("it has Jinx, Ganger 1, Ganger 2"),
        "{}",
        text(&none.stderr)
    );
    let gone = srtrack(d, &["roster", "remove", "ganger"], "");
    assert!(gone.status.success(), "{}", text(&gone.stderr));
    assert!(!d.join("roster/Ganger.ron").exists());
    let missing = srtrack(d, &["roster", "show", "Ganger"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing.stderr).contains("it holds Jinx"),
        "{}",
        text(&missing.stderr)
    );
}

#[test]
fn a_bad_file_is_reported_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_sheets(d);
    let bad = d.join("roster/Ganger.ron");
    // Intuition 99: what `add` refuses, the roster refuses on load.
    let broken = std::fs::read_to_string(&bad)
        .unwrap()
        .replace("intuition: 3", "intuition: 99");
    std::fs::write(&bad, &broken).unwrap();
    let list = text(&srtrack(d, &["roster", "list"], "").stdout);
    assert!(list.starts_with("Ganger  (unreadable: "), "{list}");
    assert!(list.contains("Intuition"), "{list}");
    let over = srtrack(
        d,
        &[
            "roster",
            "save",
            "first",
            "Ganger 2",
            "--as",
            "Ganger",
            "--replace",
        ],
        "",
    );
    assert_eq!(over.status.code(), Some(1));
    assert!(
        text(&over.stderr).contains("leaves it as it is"),
        "{}",
        text(&over.stderr)
    );
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), broken);
    let used = srtrack(d, &["exec", "second"], "add Ganger from template\n");
    assert_eq!(used.status.code(), Some(1));
    assert!(
        text(&used.stderr).contains("cannot be read"),
        "{}",
        text(&used.stderr)
    );
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), broken);
}

#[test]
fn templates_and_the_party_come_in_as_plain_adds_that_need_no_roster() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_sheets(d);
    let out = srtrack(
        d,
        &["exec", "second"],
        "add party\nadd Ganger x4 shared from template\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&srtrack(d, &["export", "--log", "second"], "").stdout);
    assert!(
        log.contains("- add Jinx pc int 5 rea 6 edge 3 body 4 will 5"),
        "{log}"
    );
    assert!(
        log.contains("- add Ganger x4 npc int 3 rea 3 body 4 will 2 shared"),
        "{log}"
    );
    // Without the roster the save still checks, shows and plays on.
    std::fs::remove_dir_all(d.join("roster")).unwrap();
    let check = srtrack(d, &["check", "second"], "");
    assert!(check.status.success(), "{}", text(&check.stderr));
    assert!(
        text(&check.stdout).contains("2 entries"),
        "{}",
        text(&check.stdout)
    );
    let show = text(&srtrack(d, &["show", "second"], "").stdout);
    assert!(show.contains("Ganger 4") && show.contains("Jinx"), "{show}");
}

#[test]
fn a_refused_party_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_sheets(d);
    // A second PC whose name the fight already holds: the whole party is refused.
    srtrack(d, &["exec", "third"], "add Rook pc int 3 rea 3\n");
    srtrack(d, &["roster", "save", "third", "Rook"], "");
    let out = srtrack(d, &["exec", "second"], "add Rook npc int 2 rea 2\n");
    assert!(out.status.success());
    let save = d.join("saves/second.ron");
    let before = std::fs::read(&save).unwrap();
    let out = srtrack(d, &["exec", "second"], "add party\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("stdin:1:"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stderr).contains("Rook"), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&save).unwrap(),
        before,
        "nothing of the party came in"
    );
    let show = text(&srtrack(d, &["show", "second"], "").stdout);
    assert!(!show.contains("Jinx"), "{show}");
}
