//! `srtrack exec` on a Shadowrun 2097 fight: one line per check and per damage roll on standard
//! output, the odds on asking, wrong input refused in one sentence with exit 1 and the save as it
//! was; the sample fight in `saves/` is what its script makes.

use std::path::Path;

#[path = "common/cli.rs"]
mod cli;
use cli::{refused_unchanged, srtrack, text};

const SETUP: &str = "add Ana pc int 4 rea 5 edge 1
add Bo npc int 3 rea 3 edge 2
armor Bo pt 15 dr 30
weapon Ana add Pistol 2d6+4
";

#[test]
fn exec_prints_a_line_per_check_and_per_damage_roll() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = format!(
        "{SETUP}sc Ana tn 20 bonus 12 dice 7 7\ndmg Ana Bo 2d6+4 mos 0 dice 6 6\nodds2097 tn moderate bonus 10 adv\n"
    );
    let out = srtrack(d, &["exec", "--system", "sr2097", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(
        lines[0],
        "sc Ana: 2d10 [7 7] + 12 = 26 vs TN 20: success, MoS 6 +5 double = 11 (complete); an attack adds 2d6 damage"
    );
    assert_eq!(
        lines[1],
        "dmg Ana → Bo: 2d6 [6 6] + 4 = 16 vs PT 15/DR 30: 16 - 4 (30%) = 12, serious injury"
    );
    assert!(
        lines[2].starts_with("TN 20, bonus +10, Advantage: success "),
        "{}",
        lines[2]
    );
    assert_eq!(lines.len(), 3);
}

#[test]
fn odds_with_edge_against_disadvantage_say_edge_removes_it_not_edge_alone() {
    // Given odds asked with Disadvantage and Edge spent against it
    let dir = tempfile::tempdir().unwrap();
    let out = srtrack(
        dir.path(),
        &["exec", "--system", "sr2097", "fight"],
        "odds2097 tn 20 bonus 10 dis edge\nodds2097 tn 20 bonus 10 edge\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    // Then the first reads as plain 2d10, the Disadvantage removed; the second as Edge's
    // Advantage
    assert!(
        lines[0].starts_with("TN 20, bonus +10, Edge removes Disadvantage: success 66.0%"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("TN 20, bonus +10, Advantage, Edge: success "),
        "{}",
        lines[1]
    );
}

#[test]
fn a_damage_roll_after_a_failed_check_is_refused_and_one_after_a_success_takes_its_mos() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given Ana's check failed (7 7 + 0 vs moderate: MoS -6, -5 for the double).
    let setup = format!("{SETUP}sc Ana tn moderate bonus 0 dice 7 7\n");
    let out = srtrack(d, &["exec", "--system", "sr2097", "fight"], &setup);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // When a damage roll follows it, even with MoS 0: Then it is refused, the save as it was.
    let save = d.join("saves/fight.ron");
    let before = std::fs::read(&save).unwrap();
    let out = srtrack(d, &["exec", "fight"], "dmg Ana Bo 2d6+4 mos 0 dice 6 6\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim(),
        "srtrack: stdin:1: Ana's check failed (MoS -11): a missed attack deals no damage; a new attack needs a new check"
    );
    assert_eq!(std::fs::read(&save).unwrap(), before);
    // A check that succeeds (with the Disadvantage the failure left, 3 dropped: 2 + 1 + 22 = 25,
    // MoS 5) gives its damage roll 1d6 more when the roll names no MoS.
    let out = srtrack(
        d,
        &["exec", "fight"],
        "sc Ana tn moderate bonus 22 dice 2 3 1\ndmg Ana Bo 2d6+4 dice 6 6 6\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("2d6 [6 6] + 1d6 MoS [6] + 4 = 22"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn wrong_input_is_one_sentence_exit_1_and_the_save_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Ana's only Edge goes on a check.
    let setup = format!("{SETUP}sc Ana tn 20 bonus 10 edge dice 5 6 1\n");
    let out = srtrack(d, &["exec", "--system", "sr2097", "fight"], &setup);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for (line, reason) in [
        (
            "sc Ana tn tough bonus 10",
            "\"tough\" is not a difficulty: give a number or one of very easy 10, easy 15, moderate 20, challenging 25, difficult 30, very difficult 35, near impossible 40",
        ),
        (
            "sc Ana tn 20 bonus 10 dice 11 3",
            "a d10 has faces 1 to 10, not 11",
        ),
        (
            "dmg Ana Bo with Rifle",
            "Ana carries no weapon \"Rifle\" (has Pistol)",
        ),
        (
            "sc Ana tn 20 bonus 10 edge",
            "Ana has no Edge left (needs 1, has 0)",
        ),
        (
            "edge Bo award 1",
            "Bo's Edge is full (2 of 2): there is nothing to regain",
        ),
        (
            "edge Ana award 2",
            "Ana has 0 of 1 Edge: 2 more would be above the maximum",
        ),
        // The odds of a check that could not be made are refused as the check is.
        (
            "odds2097 tn 0 bonus 5",
            "TN 0 is out of range: allowed 1 to 99",
        ),
        (
            "odds2097 tn 20 bonus 100",
            "skill bonus 100 is out of range: allowed -30 to 99",
        ),
        // SR5's form of a verb 2097 has too: the sentence gives 2097's form.
        (
            "armor Bo 10",
            "this form of `armor` is SR5's; this encounter runs Shadowrun 2097: `armor NAME pt N dr N`",
        ),
        // SR5's `act` with the table's dice for its test: the sentence gives 2097's form alone,
        // without the words it refuses.
        (
            "act Ana Stand Up dice 6 5",
            "this form of `act` is SR5's; this encounter runs Shadowrun 2097: `act NAME ACTION [as free|simple|complex]`",
        ),
        // 2097's armor with its `pt N` left out: the sentence gives 2097's form, not SR5's.
        (
            "armor Bo dr 10",
            "word 3 \"dr\": expected `pt N dr N` (Shadowrun 2097's armor: the Penetration Threshold, then the Damage Reduction in %)",
        ),
        (
            "armor Bo none",
            "word 3 \"none\": expected `pt N dr N` (Shadowrun 2097's armor: the Penetration Threshold, then the Damage Reduction in %)",
        ),
        // A word given twice is refused, not read as the last one.
        (
            "sc Ana tn 20 tn 25 bonus 5",
            "word 5 \"tn\": expected `tn` once only",
        ),
        (
            "sc Ana tn 20 bonus 5 adv advantage",
            "word 8 \"advantage\": expected `adv` once only",
        ),
        (
            "dmg Ana Bo 2d6+4 mos 5 mos 10",
            "word 7 \"mos\": expected `mos` once only",
        ),
        (
            "dmg Ana Bo 2d6 dice 1 1 dice 2 2",
            "word 8 \"dice\": expected `dice` once only",
        ),
    ] {
        refused_unchanged(d, "fight", line, &format!("srtrack: stdin:1: {reason}\n"));
    }
}

#[test]
fn a_weapon_of_dice_out_of_range_is_refused_for_its_dice_before_its_missing_st() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a 2097 fight where Ana carries a pistol
    let out = srtrack(d, &["exec", "--system", "sr2097", "fight"], SETUP);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // When a weapon is added with dice no weapon may have, and no ST yet
    for (line, reason) in [
        (
            "weapon Ana add Toy 0d6",
            "damage dice 0 is out of range: allowed 1 to 30",
        ),
        (
            "weapon Ana add Cannon 31d6",
            "damage dice 31 is out of range: allowed 1 to 30",
        ),
        (
            "weapon Ana add Odd 2d8",
            "Shadowrun 2097 damage dice are d6: write 2d6, not 2d8",
        ),
        // Then the dice are refused with their range, not hinted as `0d6+4`; dice in range
        // still get the hint of the ST they lack
        (
            "weapon Ana add Rifle 2d6",
            "after word 5: expected the weapon's own ST (2d6+4) or `melee` (the wielder's Strength)",
        ),
    ] {
        refused_unchanged(d, "fight", line, &format!("srtrack: stdin:1: {reason}\n"));
    }
}

#[test]
fn the_sample_fight_is_what_its_script_makes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let made = d.join("sr2097.ron");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = srtrack(
        d,
        &[
            "exec",
            "--system",
            "sr2097",
            "--seed",
            "2097",
            made.to_str().unwrap(),
            root.join("saves/sr2097.script").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Compared as loaded (snapshot and journal): a save's generation is new at every rewrite.
    let history = |p: &Path| {
        let rules = srtrack::rules::HouseRules::embedded();
        let catalogue = srtrack::catalogue::Catalogue::embedded(&rules).unwrap();
        let catalogue = std::sync::Arc::new(catalogue);
        let (header, enc) = srtrack::save::file::load(p, catalogue).unwrap();
        assert_eq!(header.system, srtrack::encounter::System::Sr2097);
        enc.history().to_vec()
    };
    assert_eq!(
        history(&made),
        history(&root.join("saves/sr2097.ron")),
        "saves/sr2097.ron is out of date: regenerate it from saves/sr2097.script"
    );
    let check = srtrack(
        d,
        &["check", root.join("saves/sr2097.ron").to_str().unwrap()],
        "",
    );
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
}

#[test]
fn a_save_holding_a_boost_bought_before_the_start_loads() {
    // Given Bo's initiative boosted before `start` (for the fight's first turn)
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = format!("{SETUP}roll Ana dice 4 4\nroll Bo dice 1 1\nedge Bo boost dice 6 6\n");
    let out = srtrack(d, &["exec", "--system", "sr2097", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // When the save is checked and played on, then it loads and Bo (8 + 12 = 20) goes before Ana (17).
    let out = srtrack(d, &["check", "fight"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = srtrack(d, &["exec", "fight"], "start\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = srtrack(d, &["show", "fight"], "");
    assert!(
        text(&out.stdout).contains("Bo's turn"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn damage_with_no_attacker_prints_its_line_and_the_save_loads_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given Bo in light armor; when a fire deals 2d6+4 to Bo, with no attacker.
    let script = format!("{SETUP}dmg - Bo 2d6+4 dice 6 6\n");
    let out = srtrack(d, &["exec", "--system", "sr2097", "fight"], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Then its line has no arrow, and the save (its text `dmg - Bo …`) loads for the next line.
    assert_eq!(
        text(&out.stdout).lines().collect::<Vec<_>>(),
        vec!["dmg Bo: 2d6 [6 6] + 4 = 16 vs PT 15/DR 30: 16 - 4 (30%) = 12, serious injury"]
    );
    let out = srtrack(d, &["exec", "fight"], "dmg - Bo 1d6 dice 2\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "dmg Bo: 1d6 [2] + 0 = 2 vs PT 15/DR 30: below PT, stopped, no injury\n"
    );
}

#[test]
fn export_log_says_once_that_a_boosted_turn_won_a_tie_and_the_save_loads_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given Ana 21, Cy 12 and Bo 8 (Edge 2 to Cy's 1), Bo boosted by 2 2 to Cy's 12.
    let script = "add Ana pc int 4 rea 5 edge 1
add Bo npc int 3 rea 3 edge 2
add Cy npc int 3 rea 3 edge 1
roll Ana dice 6 6
roll Cy dice 3 3
roll Bo dice 1 1
start
edge Bo boost dice 2 2
next
next
next
";
    let out = srtrack(d, &["exec", "--system", "sr2097", "fight"], script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // When the log is exported (the save read back), then the tie is told once, under `next`.
    let out = srtrack(d, &["export", "--log", "fight"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let md = text(&out.stdout);
    let said = "  - Bo, boosted to 12, ties Cy's 12 and goes first: a tie goes by more dice \
                (2 each), then higher Edge, 2 to 1\n";
    assert_eq!(md.matches(said).count(), 1, "{md}");
    assert!(md.contains(&format!("- next\n{said}  - Bo's turn")), "{md}");
    assert_eq!(md.matches("a tie goes by").count(), 1, "{md}");
}

#[test]
fn a_downed_attacker_rolling_damage_at_a_misspelled_target_is_refused_for_being_downed_first() {
    // Given Ana Downed at a 2097 table
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let setup = format!("{SETUP}down Ana\n");
    let out = srtrack(d, &["exec", "--system", "sr2097", "fight"], &setup);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // When she rolls damage at a name that is no one
    // Then her own refusal comes first, the damage form's sentence, the save unchanged
    refused_unchanged(
        d,
        "fight",
        "dmg Ana Boo 2d6+4",
        "srtrack: stdin:1: Ana is Downed and cannot act\n",
    );
    // And the monitors' `damage` of a Downed one with a wrong name is no attack
    refused_unchanged(
        d,
        "fight",
        "damage Ana, Boo 3",
        "srtrack: stdin:1: word 4 \"Boo\": expected",
    );
}
