//! `srtrack exec` on SR5's commands: one line per test on standard output, the odds, and what a
//! GM types wrong (one sentence, exit code 1, the save as it was).

#[path = "common/cli.rs"]
mod cli;
use cli::{refused_unchanged, srtrack, text};

const SETUP: &str = "add Ana pc int 4 rea 5 edge 3 body 4 will 5
add Ganger x2 npc int 3 rea 3 edge 1 body 4 will 2
weapon Ana add Ares Predator dv 8P ap -1 acc 5 ammo 15
armor Ganger 1 6
";

#[test]
fn exec_prints_the_issues_two_example_lines() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = format!(
        "{SETUP}test Ana 8 limit 3 threshold 2 dice 6 6 5 5 1 1 1 2\nodds 10 limit 4 threshold 3\n"
    );
    let out = srtrack(dir.path(), &["exec", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "test Ana: 8 dice [6 6 5 5 1 1 1 2], limit 3, 3 hits (4 rolled), threshold 2: success, net 1\n\
         odds 10 dice, limit 4, threshold 3: P(success) 0.7009, P(glitch) 0.0024, P(critical) 0.0003, net 0.44\n"
    );
}

#[test]
fn exec_prints_a_close_call_with_the_tests_it_changes() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = format!(
        "{SETUP}teamwork Ana 4 with Ganger 1 3 hits 0 critical closecall, Ganger 2 2 hits 1\n\
         test Ana 3 dice 1 1 5\nclosecall Ana\n"
    );
    let out = srtrack(dir.path(), &["exec", "--seed", "5", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    assert_eq!(
        lines[1],
        "Ganger 1 uses Close Call (1 Edge) on the teamwork assist: the critical glitch becomes a glitch"
    );
    assert!(
        lines[3].starts_with("test Ana (teamwork: +1 die): 5 dice"),
        "{stdout}"
    );
    assert_eq!(
        lines[5],
        "Ana uses Close Call (1 Edge) on the test: the glitch is negated"
    );
}

#[test]
fn exec_prints_the_attack_a_new_one_drops_before_its_roll() {
    // Given Ganger 1's club attack waiting for Ana's defense (before the fight: no action owed)
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = format!(
        "{SETUP}weapon Ganger 1 add Club dv 5P ap 0 acc 4\n\
         attack Ganger 1 Ana pool 2 dice 6 2\n\
         attack Ana Ganger 2 pool 1 dice 2\n"
    );
    // When Ana's attack is rolled, then the drop is printed first, with the attack's lines
    let out = srtrack(dir.path(), &["exec", "--seed", "5", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.get(2).copied(),
        Some("the attack of Ganger 1 on Ana is dropped, unfinished"),
        "{stdout}"
    );
    assert!(lines[3].starts_with("attack Ana on Ganger 2"), "{stdout}");
}

#[test]
fn edge_with_more_words_in_an_sr5_fight_says_what_sr5_takes() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let out = srtrack(
        dir.path(),
        &["exec", "fight"],
        &format!("{SETUP}edge Ana 2\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("`edge NAME`: SR5's Edge for IP"), "{err}");
}

#[test]
fn exec_prints_one_line_per_test_of_an_attack() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = format!("{SETUP}attack Ana Ganger 1 pool 9\n");
    let out = srtrack(dir.path(), &["exec", "--seed", "5", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("attack Ana on Ganger 1 with Ares Predator"));
    assert!(lines[1].starts_with("defense Ganger 1: 6 dice"));
    // The attack hit or missed; a hit is resisted.
    assert!(
        lines.len() == 2 || lines[2].starts_with("soak Ganger 1: "),
        "{stdout}"
    );
    // Same seed, same dice.
    let again = srtrack(dir.path(), &["exec", "--seed", "5", "other"], &script);
    assert_eq!(text(&again.stdout), stdout);
}

#[test]
fn exec_says_when_a_one_target_attack_waits_for_a_players_dice() {
    // Given an attack on a player character, whose defense the table rolls
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = format!(
        "{SETUP}add Jinx pc int 3 rea 4 edge 2 body 3\nattack Ana Jinx pool 4 dice 6 6 5 1\n"
    );
    let out = srtrack(dir.path(), &["exec", "--seed", "5", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // Then the attack line is followed by who waits, and for what
    assert!(
        lines[0].starts_with("attack Ana on Jinx with Ares Predator"),
        "{stdout}"
    );
    assert_eq!(lines[1..], ["Jinx waits for the defense"], "{stdout}");
}

#[test]
fn exec_prints_an_area_attacks_line_then_one_line_per_target() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = format!(
        "{SETUP}add Jinx pc int 3 rea 4 edge 2 body 3\nattack Ana Ganger 1, Ganger 2, Jinx pool 9\n"
    );
    let out = srtrack(dir.path(), &["exec", "--seed", "5", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("attack Ana on Ganger 1, Ganger 2, Jinx with Ares Predator"));
    assert!(lines[1].starts_with("defense Ganger 1: 6 dice"), "{stdout}");
    assert!(lines[2].starts_with("defense Ganger 2: 6 dice"), "{stdout}");
    // A hit target's soak joins its defense on its line.
    for l in &lines[1..3] {
        assert!(l.contains("misses") || l.contains("; soak Ganger"), "{l}");
    }
    assert_eq!(lines[3], "Jinx waits for the defense");
}

#[test]
fn what_a_gm_types_wrong_exits_1_with_one_sentence_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let d = dir.path();
    let setup = srtrack(d, &["exec", "fight"], SETUP);
    assert_eq!(setup.status.code(), Some(0), "{}", text(&setup.stderr));
    for (line, says) in [
        ("test Ana 0", "pool 0 is out of range: allowed 1 to 60"),
        ("test Ana 200", "pool 200 is out of range: allowed 1 to 60"),
        (
            "test Ana 99999999999",
            "pool of 2147483647 or more is out of range: allowed 1 to 60",
        ),
        (
            "test Ana 6 limit -1",
            "limit -1 is out of range: allowed 1 to 60",
        ),
        ("test Ana 3 dice 6 7 1", "a die shows 1 to 6, not 7"),
        (
            "attack Ana Ganger 1 with Bazooka pool 6",
            "Ana has no weapon called \"Bazooka\" (has Ares Predator)",
        ),
        ("odds 0", "pool 0 is out of range: allowed 1 to 60"),
    ] {
        refused_unchanged(d, "fight", line, &format!("srtrack: stdin:1: {says}\n"));
    }
    let downed = srtrack(d, &["exec", "fight"], "down Ganger 2\n");
    assert_eq!(downed.status.code(), Some(0));
    let out = srtrack(d, &["exec", "fight"], "attack Ana Ganger 2 pool 6\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "srtrack: stdin:1: Ganger 2 is Downed already: attack someone still standing\n"
    );
}

#[test]
fn an_add_or_edit_keyword_given_twice_is_refused_not_read_as_its_last() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let d = dir.path();
    let setup = srtrack(d, &["exec", "fight"], "add Q int 3 rea 3\n");
    assert_eq!(setup.status.code(), Some(0), "{}", text(&setup.stderr));
    for (line, says) in [
        (
            "add Z int 3 rea 3 ip 2 ip 9",
            "word 9 \"ip\": expected `ip` once only",
        ),
        (
            "add X int 3 rea 3 int 4",
            "word 7 \"int\": expected `int` once only",
        ),
        (
            "add X int 3 rea 3 pc npc",
            "word 8 \"npc\": expected `pc` or `npc` once only",
        ),
        (
            "add X pc int 3 pc rea 3",
            "word 6 \"pc\": expected `pc` or `npc` once only",
        ),
        (
            "add X x2 int 3 rea 3 shared shared",
            "word 9 \"shared\": expected `shared` once only",
        ),
        (
            "add X int 3 rea 3 hidden hidden",
            "word 8 \"hidden\": expected `hidden` once only",
        ),
        (
            "edit Q int 4 int 9",
            "word 5 \"int\": expected `int` once only",
        ),
        (
            "edit Q name Bob int 4 int 9",
            "word 7 \"int\": expected `int` once only",
        ),
        (
            "edit Q name Bo int 4 name Cy",
            "word 7 \"name\": expected `name` once only",
        ),
        (
            "edit Q pc npc",
            "word 4 \"npc\": expected `pc` or `npc` once only",
        ),
    ] {
        refused_unchanged(d, "fight", line, &format!("srtrack: stdin:1: {says}\n"));
    }
}

#[test]
fn a_save_with_sr5_events_checks_and_shows_weapons_and_armor() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let d = dir.path();
    let script = format!("{SETUP}teamwork Ana 4 with Ganger 2 3\nattack Ana Ganger 1 pool 9\n");
    let out = srtrack(d, &["exec", "--seed", "2", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let check = srtrack(d, &["check", "fight"], "");
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    let show = text(&srtrack(d, &["show", "fight"], "").stdout);
    assert!(show.contains("; Ares Predator 15/15 in hand"), "{show}");
    assert!(show.contains("armor 6"), "{show}");
}

#[test]
fn a_downed_attacker_at_a_misspelled_target_is_refused_for_being_downed_first() {
    // Given Ana Downed, and Ganger 2 with no weapon
    let dir = tempfile::tempdir().expect("a temp dir");
    let d = dir.path();
    let setup = srtrack(d, &["exec", "fight"], &format!("{SETUP}down Ana\n"));
    assert_eq!(setup.status.code(), Some(0), "{}", text(&setup.stderr));
    // When an attack roll names a target that is no one, alone or among several
    // Then the attacker's refusal comes first, the attack form's sentence, the save unchanged
    for (line, says) in [
        ("attack Ana Gangr 1 pool 8", "Ana is Downed and cannot act"),
        (
            "attack Ana Ganger 1, Gangr 2 pool 8",
            "Ana is Downed and cannot act",
        ),
        (
            "attack Ganger 2 Anna pool 6",
            "Ganger 2 has no weapon: add one (`weapon Ganger 2 add NAME dv N ap N acc N`)",
        ),
    ] {
        refused_unchanged(d, "fight", line, &format!("srtrack: stdin:1: {says}\n"));
    }
    // And a chain under way (no `pool`) with a wrong name still gets the name's error
    refused_unchanged(
        d,
        "fight",
        "attack Ana Gangr 1 defense 3",
        "srtrack: stdin:1: word 3 \"Gangr\": expected a combatant name",
    );
}
