//! `srtrack roster`: sheets kept between fights (list, show, save, remove), checked on load like
//! saves, a bad file reported and never overwritten; `add NAME xN from template` and `add
//! party` in `exec` bring them in as plain `add` entries, so the save never needs the roster.

#[path = "common/cli.rs"]
mod cli;
use cli::{srtrack, text};

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
fn a_sheet_cut_short_or_mistyped_is_told_in_plain_words_not_rons() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_sheets(d);
    let bad = d.join("roster/Ganger.ron");
    let whole = std::fs::read_to_string(&bad).unwrap();
    // Given a sheet cut short, and one with a field's value mistyped
    for (broken, said) in [
        (
            whole[..whole.len() / 2].to_string(),
            "(unreadable: not a roster sheet: the file ends early, at line ",
        ),
        (
            whole.replacen("intuition: 3", "intuition: three", 1),
            "a whole number belongs here",
        ),
    ] {
        std::fs::write(&bad, &broken).unwrap();
        // When the roster is listed
        let list = text(&srtrack(d, &["roster", "list"], "").stdout);
        // Then the sheet is unreadable for a reason in the GM's words
        assert!(list.contains(said), "{list}");
        assert!(
            !list.contains("Unexpected") && !list.contains("Expected"),
            "{list}"
        );
        assert_eq!(std::fs::read_to_string(&bad).unwrap(), broken);
    }
}

/// Given a copy of Ganger.ron kept as Dup.ron (the same sheet name in two files), when the
/// roster is listed and the name used, then Ganger.ron keeps the name, Dup.ron is listed as
/// unreadable naming it, and `add Ganger from template` takes Ganger.ron's sheet.
#[test]
fn a_sheet_name_held_by_two_files_is_one_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_sheets(d);
    let kept = std::fs::read_to_string(d.join("roster/Ganger.ron")).unwrap();
    std::fs::write(
        d.join("roster/Dup.ron"),
        kept.replace("intuition: 3", "intuition: 6"),
    )
    .unwrap();
    let list = text(&srtrack(d, &["roster", "list"], "").stdout);
    assert_eq!(
        list.lines()
            .filter(|l| l.starts_with("Ganger  (sr5"))
            .count(),
        1,
        "one sheet of the name: {list}"
    );
    assert!(
        list.contains("it holds the sheet \"Ganger\", as Ganger.ron does: a name is one sheet's"),
        "{list}"
    );
    let out = srtrack(d, &["exec", "second"], "add Ganger from template\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = log_of(d, "second");
    assert!(log.contains("int 3"), "Ganger.ron's sheet: {log}");
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

/// The log of a save as `export --log` gives it.
fn log_of(d: &std::path::Path, save: &str) -> String {
    text(&srtrack(d, &["export", "--log", save], "").stdout)
}

/// The log's entries (its command lines), without what each did.
fn entries(log: &str) -> Vec<&str> {
    log.lines()
        .skip_while(|l| *l != "## Log")
        .filter(|l| l.starts_with("- "))
        .collect()
}

// Shadowrun 2097's Edge Burn lowers the maximum for good: the sheet keeps what is left.
#[test]
fn a_sheet_kept_after_an_edge_burn_keeps_the_lower_edge() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fight = "add Ana pc int 4 rea 5 edge 3\nadd Bo int 3 rea 3\n\
                 dmg Bo Ana 4d6+0 dice 6 6 6 6\nedge Ana burn\n";
    let out = srtrack(d, &["exec", "--system", "sr2097", "burned"], fight);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        srtrack(d, &["roster", "save", "burned", "Ana"], "")
            .status
            .success()
    );
    let list = text(&srtrack(d, &["roster", "list"], "").stdout);
    assert!(list.contains("Edge 2"), "{list}");
}

#[test]
fn gear_comes_with_a_sheet_onto_each_member_in_a_fight_of_its_system() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = "add Bo npc int 3 rea 3\nstrength Bo 6\narmor Bo pt 15 dr 30\n\
                weapon Bo add Pistol 2d6+4\nweapon Bo add Knife 1d6 melee\n";
    let out = srtrack(d, &["exec", "--system", "sr2097", "kept"], kept);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        srtrack(d, &["roster", "save", "kept", "Bo"], "")
            .status
            .success()
    );
    let list = text(&srtrack(d, &["roster", "list"], "").stdout);
    assert_eq!(
        list,
        "Bo  (sr2097; NPC, Intuition 3 Reaction 3 Edge 0; ST 6, PT 15/DR 30, Pistol, Knife)\n"
    );
    // A group of two: each member gets the gear, one plain line each, after the add.
    let out = srtrack(
        d,
        &["exec", "--system", "sr2097", "second"],
        "add Bo x2 from template\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = log_of(d, "second");
    assert_eq!(
        entries(&log),
        [
            "- add Bo x2 npc int 3 rea 3",
            "- strength \"Bo 1\" 6",
            "- armor \"Bo 1\" pt 15 dr 30",
            "- weapon \"Bo 1\" add Pistol 2d6+4",
            "- weapon \"Bo 1\" add Knife 1d6 melee",
            "- strength \"Bo 2\" 6",
            "- armor \"Bo 2\" pt 15 dr 30",
            "- weapon \"Bo 2\" add Pistol 2d6+4",
            "- weapon \"Bo 2\" add Knife 1d6 melee",
        ],
        "{log}"
    );
    // The gear works: Bo 2's armor stops 2d6+4 below PT 15.
    let out = srtrack(
        d,
        &["exec", "second"],
        "dmg \"Bo 1\" \"Bo 2\" with Pistol dice 3 3\n",
    );
    assert!(
        text(&out.stdout).contains("stopped"),
        "{}",
        text(&out.stdout)
    );
    // An SR5 fight takes the sheet alone: 2097's gear means nothing there.
    // It says so, so the GM does not look for the pistol.
    let out = srtrack(d, &["exec", "third"], "add Bo from template\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "Bo's Shadowrun 2097 gear stays on the roster sheet: this fight runs SR5\n"
    );
    let log = log_of(d, "third");
    assert_eq!(entries(&log), ["- add Bo npc int 3 rea 3"], "{log}");
}

#[test]
fn sr5_armor_and_weapons_come_with_add_party() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = "add Jinx pc int 5 rea 6\narmor Jinx 9\n\
                weapon Jinx add Predator dv 8 p ap -1 acc 5 ammo 15\n\
                weapon Jinx add Katana dv 10 p ap -3 acc 7\n";
    assert!(srtrack(d, &["exec", "kept"], kept).status.success());
    assert!(
        srtrack(d, &["roster", "save", "kept", "Jinx"], "")
            .status
            .success()
    );
    let out = srtrack(d, &["exec", "second"], "add party\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = log_of(d, "second");
    assert!(log.contains("- armor Jinx 9"), "{log}");
    assert!(
        log.contains("- weapon Jinx add Predator dv 8 p ap -1 acc 5 ammo 15"),
        "{log}"
    );
    assert!(
        log.contains("- weapon Jinx add Katana dv 10 p ap -3 acc 7"),
        "{log}"
    );
}

#[test]
fn gear_the_engine_would_refuse_makes_the_sheet_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = "add Bo npc int 3 rea 3\narmor Bo pt 15 dr 30\n";
    assert!(
        srtrack(d, &["exec", "--system", "sr2097", "kept"], kept)
            .status
            .success()
    );
    assert!(
        srtrack(d, &["roster", "save", "kept", "Bo"], "")
            .status
            .success()
    );
    let file = d.join("roster/Bo.ron");
    let good = std::fs::read_to_string(&file).unwrap();
    for (from, to, why) in [
        ("(15, 30)", "(15, 300)", "DR"),
        (
            "system: sr2097",
            "system: sr5",
            "its gear is for Shadowrun 2097 fights",
        ),
    ] {
        std::fs::write(&file, good.replace(from, to)).unwrap();
        let list = text(&srtrack(d, &["roster", "list"], "").stdout);
        assert!(list.starts_with("Bo  (unreadable: "), "{list}");
        assert!(list.contains(why), "{why}: {list}");
        let used = srtrack(d, &["exec", "second"], "add Bo from template\n");
        assert_eq!(used.status.code(), Some(1), "{why}");
    }
    // Another name: the roster is not empty, only unreadable.
    let other = srtrack(d, &["exec", "second"], "add Cy from template\n");
    assert!(
        text(&other.stderr)
            .contains("its one file cannot be read (`srtrack roster list` says why)"),
        "{}",
        text(&other.stderr)
    );
}

#[test]
fn a_sheet_saved_again_by_an_editor_with_a_byte_order_mark_still_reads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_sheets(d);
    let path = d.join("roster/Jinx.ron");
    let sheet = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("\u{feff}{sheet}")).unwrap();
    let show = srtrack(d, &["roster", "show", "Jinx"], "");
    assert!(show.status.success(), "{}", text(&show.stderr));
    assert!(text(&show.stdout).contains("name: \"Jinx\""));
}

/// `roster save` looks among those still in the fight: a removed combatant whose name a newer
/// one took is no longer a second match.
#[test]
fn roster_save_sees_only_those_still_in_the_fight() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a fight where Jinx was removed and a new Jinx added
    let out = srtrack(
        d,
        &["exec", "swap"],
        "add Jinx pc int 5 rea 6 edge 3 body 4 will 5\nremove Jinx because she left\nadd Jinx pc int 2 rea 2 edge 1 body 2 will 2\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // When the GM keeps Jinx's sheet
    let out = srtrack(d, &["roster", "save", "swap", "Jinx"], "");
    // Then the Jinx still in the fight is kept
    assert!(out.status.success(), "{}", text(&out.stderr));
    let show = text(&srtrack(d, &["roster", "show", "Jinx"], "").stdout);
    assert!(show.contains("body: Some(2)"), "{show}");
}

// One roster line is one step: a single `undo` takes the sheet and all its gear, a single `redo`
// brings them back, and so across exec runs (the save keeps the steps).
#[test]
fn one_roster_line_is_one_undo_and_one_redo_across_saves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a kept 2097 sheet with gear
    let kept = "add Bo npc int 3 rea 3\narmor Bo pt 15 dr 30\nweapon Bo add Pistol 2d6+4\n";
    assert!(
        srtrack(d, &["exec", "--system", "sr2097", "kept"], kept)
            .status
            .success()
    );
    assert!(
        srtrack(d, &["roster", "save", "kept", "Bo"], "")
            .status
            .success()
    );
    let fight = ["exec", "--system", "sr2097", "fight"];
    // When a fight brings in a group of it in one line, then undoes once
    let out = srtrack(
        d,
        &fight,
        "add Zed npc int 2 rea 2\nadd Bo x2 from template\nundo\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Then the whole line is gone, the line before it kept
    let log = log_of(d, "fight");
    assert_eq!(entries(&log), ["- add Zed npc int 2 rea 2"], "{log}");
    // When a later exec redoes once
    let out = srtrack(d, &["exec", "fight"], "redo\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Then the whole line is back
    let log = log_of(d, "fight");
    assert_eq!(entries(&log).len(), 6, "{log}");
    // And `undo 2` in another run counts lines, not entries: both lines go
    let out = srtrack(d, &["exec", "fight"], "undo 2\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = log_of(d, "fight");
    assert!(entries(&log).is_empty(), "{log}");
    // And a third is refused: only two lines were typed
    let out = srtrack(d, &["exec", "fight"], "redo 3\n");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("only 2 commands to redo"),
        "{}",
        text(&out.stderr)
    );
}

/// The roster's directory name taken by a plain file: every roster command says so in one
/// sentence, fails, and leaves the file as it was; a directory named like a sheet is never
/// removed.
#[test]
fn a_file_where_the_roster_directory_goes_is_said_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = srtrack(d, &["exec", "first"], "add Jinx pc int 5 rea 6\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::write(d.join("roster"), "notes\n").unwrap();
    for args in [
        ["roster", "list"].as_slice(),
        &["roster", "save", "first", "Jinx"],
        &["roster", "show", "Jinx"],
        &["roster", "remove", "Jinx"],
    ] {
        let out = srtrack(d, args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let said = text(&out.stderr);
        assert!(
            said.contains("roster is a file, not a directory") && said.lines().count() == 1,
            "{args:?}: {said}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(d.join("roster")).unwrap(),
        "notes\n"
    );
    // A directory named like a sheet: listed as unreadable, and not removed.
    std::fs::remove_file(d.join("roster")).unwrap();
    std::fs::create_dir_all(d.join("roster/Bob.ron/inside")).unwrap();
    let out = srtrack(d, &["roster", "remove", "Bob"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is a directory, not a roster sheet"),
        "{}",
        text(&out.stderr)
    );
    assert!(d.join("roster/Bob.ron/inside").is_dir());
}

/// Given a party of two PC sheets, one spoilt by hand (Intuition 99), when `add party` runs,
/// then it is refused whole, naming the sheet and why, and nothing comes in; with both
/// spoilt, the refusal names both rather than saying the roster holds no PC sheet.
#[test]
fn a_party_with_an_unreadable_pc_sheet_is_refused_whole_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_sheets(d);
    srtrack(d, &["exec", "third"], "add Rook pc int 3 rea 3\n");
    srtrack(d, &["roster", "save", "third", "Rook"], "");
    let spoil = |name: &str, from: &str| {
        let path = d.join(format!("roster/{name}.ron"));
        let kept = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, kept.replace(from, "intuition: 99")).unwrap();
    };
    spoil("Rook", "intuition: 3");
    let out = srtrack(d, &["exec", "second"], "add party\n");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("`add party` brings every PC sheet or none, and the PC sheet Rook.ron cannot be read (Intuition 99 is out of range"),
        "{err}"
    );
    assert!(!d.join("saves/second.ron").exists(), "nothing came in");
    // An NPC template that cannot be read is no runner: the party comes without it.
    spoil("Ganger", "intuition: 3");
    spoil("Jinx", "intuition: 5");
    let out = srtrack(d, &["exec", "second"], "add party\n");
    let err = text(&out.stderr);
    assert!(
        err.contains("the PC sheets Jinx.ron, Rook.ron cannot be read (Jinx.ron: Intuition 99"),
        "{err}"
    );
    assert!(!err.contains("Ganger"), "{err}");
    assert!(!err.contains("holds no PC sheet"), "{err}");
}

/// Given a 300-character name, when `roster remove`, `roster save … --as` or `roster save` of
/// a combatant refuse it, then each echoes 40 characters of it and `…`, as every refusal does.
#[test]
fn roster_refusals_echo_at_most_40_characters_of_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_sheets(d);
    let long = "A".repeat(300);
    let cut = format!("\"{}…\"", "A".repeat(40));
    for args in [
        vec!["roster", "remove", long.as_str()],
        vec!["roster", "save", "first", "Jinx", "--as", long.as_str()],
        vec!["roster", "save", "first", long.as_str()],
    ] {
        let out = srtrack(d, &args, "");
        assert_eq!(out.status.code(), Some(1), "{:?}", &args[..2]);
        let err = text(&out.stderr);
        assert!(err.contains(&cut), "{err}");
        assert!(!err.contains(&"A".repeat(41)), "{err}");
    }
}
