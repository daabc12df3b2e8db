//! Given/when/then for Shadowrun 2097 (sr2097-success-checks-damage-edge.txt): success checks,
//! Advantage and Disadvantage, MoS bands, doubles, damage through armor, injuries, Edge, and our
//! rulings (initiative as a sum of d6s, Boost Initiative in the pass order, the injury track).

mod common;
use common::Table;
use srtrack::encounter::query::Attack;
use srtrack::encounter::system::sr2097::{Fate, Sr2097Event, Sr2097Sheet};
use srtrack::encounter::{DownCause, Event, RuleError, System};
use srtrack::report;
use srtrack::rules::sr2097::check::{Band, Double, Verdict};
use srtrack::rules::sr2097::edge::EdgePool;
use srtrack::rules::sr2097::{Severity, Sr2097Error, Through, Tilt};

/// Ana (Edge 3), Bo (Edge 1) and Cy (Edge 2) at a 2097 table, in setup.
fn table() -> Table {
    let mut t = Table::under(System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3");
    t.run("add Bo int 3 rea 3 edge 1");
    t.run("add Cy int 2 rea 2 edge 2");
    t
}

/// The same three in a fight: Ana 21, Bo 14, Cy 6.
fn fight() -> Table {
    let mut t = table();
    t.run("roll Ana dice 6 6");
    t.run("roll Bo dice 4 4");
    t.run("roll Cy dice 1 1");
    t.run("start");
    t
}

fn checked(
    events: &[Event],
) -> (
    srtrack::rules::sr2097::CheckRoll,
    srtrack::rules::sr2097::check::Outcome,
) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Sr2097(Sr2097Event::Checked { roll, outcome, .. }) => {
                Some((roll.clone(), *outcome))
            }
            _ => None,
        })
        .expect("a check was made")
}

fn sheet(t: &Table, name: &str) -> Sr2097Sheet {
    let id = t.c(name).id;
    t.state()
        .sr2097
        .as_ref()
        .expect("a 2097 table")
        .sheet(id)
        .clone()
}

fn sr2097_error(err: RuleError) -> Sr2097Error {
    match err {
        RuleError::Sr2097(e) => e,
        other => panic!("not a 2097 refusal: {other}"),
    }
}

/// The sentence a line that does not parse gets (empty if it parses).
fn parse_error(t: &Table, line: &str) -> String {
    srtrack::lang::parse(line, t.enc.state(), t.enc.catalogue())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

/// The log lines of the last entry.
fn last_lines(t: &Table) -> Vec<String> {
    let applied = t.enc.applied();
    let mut state = t.enc.empty_state();
    for entry in &applied[..applied.len() - 1] {
        for e in &entry.events {
            state.apply(e, t.enc.rules());
        }
    }
    report::entry_lines(
        state,
        applied.last().unwrap(),
        t.enc.rules(),
        t.enc.catalogue(),
    )
    .0
}

// ----- success checks -------------------------------------------------------------------------

#[test]
fn a_double_on_a_success_adds_five_to_the_mos_the_issues_example() {
    let mut t = table();
    let (roll, out) = checked(&t.run("sc Ana tn 20 bonus 12 dice 7 7"));
    assert_eq!(roll.kept(), vec![7, 7]);
    assert_eq!((out.total, out.margin, out.mos), (26, 6, 11));
    assert_eq!(out.double, Double::Success);
    assert_eq!(out.verdict, Verdict::Success(Band::Complete));
    assert_eq!(
        last_lines(&t),
        vec![
            "sc Ana: 2d10 [7 7] + 12 = 26 vs TN 20: success, MoS 6 +5 double = 11 (complete); an attack adds 2d6 damage"
        ]
    );
}

#[test]
fn srtrack_rolls_two_d10_and_adds_the_skill_bonus() {
    let mut t = table();
    let (roll, out) = checked(&t.roll("sc Ana tn 20 bonus 10 ", &[3, 5]));
    assert_eq!(roll.dice, vec![3, 5]);
    assert_eq!((out.total, out.mos), (18, -2));
    assert_eq!(out.verdict, Verdict::Failure(Band::Marginal));
}

#[test]
fn the_difficulty_words_are_target_numbers() {
    let mut t = table();
    for (word, tn) in [
        ("very easy", 10),
        ("easy", 15),
        ("moderate", 20),
        ("challenging", 25),
        ("difficult", 30),
        ("very difficult", 35),
        ("near impossible", 40),
    ] {
        let (roll, _) = checked(&t.run(&format!("sc Ana tn {word} bonus 30 dice 4 5")));
        assert_eq!(roll.check.tn, tn, "{word}");
    }
}

#[test]
fn a_difficulty_of_two_words_ends_at_advantage_or_disadvantage_in_any_spelling_sc_takes() {
    // Given a check at `very easy` (two words) with Advantage or Disadvantage after it
    for (word, tilt) in [
        ("advantage", Tilt::Advantage),
        ("adv", Tilt::Advantage),
        ("Advantage", Tilt::Advantage),
        ("disadvantage", Tilt::Disadvantage),
        ("dis", Tilt::Disadvantage),
    ] {
        let mut t = table();
        // When the GM types the words in the order README gives, or the flag first
        for line in [
            format!("sc Ana tn very easy {word} bonus 5 dice 4 5 6"),
            format!("sc Ana {word} tn very easy bonus 5 dice 4 5 6"),
        ] {
            // Then the TN is very easy's 10, and the check has its Advantage or Disadvantage
            let (roll, _) = checked(&t.run(&line));
            assert_eq!((roll.check.tn, roll.check.tilt), (10, tilt), "{line}");
        }
    }
}

#[test]
fn an_unknown_difficulty_word_is_refused_naming_the_words() {
    let mut t = table();
    let err = t.refuse("sc Ana tn hard bonus 10 dice 4 5");
    assert_eq!(
        err.to_string(),
        "\"hard\" is not a difficulty: give a number or one of very easy 10, easy 15, moderate 20, challenging 25, difficult 30, very difficult 35, near impossible 40"
    );
}

#[test]
fn a_tn_of_a_number_and_more_words_is_refused_where_the_number_ends() {
    // Given a check whose TN is a number with more words after it, typed or in quotes
    let t = table();
    let why = "a TN is one number, or a difficulty (easy, moderate, difficult, …)";
    for (line, at) in [
        ("sc Ana tn 20 5 bonus 10", "word 5 \"5\""),
        ("sc Ana bonus 10 tn 20 5", "word 7 \"5\""),
        ("odds2097 tn 20 easy bonus 10", "word 4 \"easy\""),
        ("sc Ana tn \"20 5\" bonus 10", "word 4 \"20 5\""),
        ("sc Ana tn \"20\" 5 bonus 10", "word 5 \"5\""),
    ] {
        // Then it is refused at the word after the number (the quoted TN as a whole)
        let err = parse_error(&t, line);
        assert!(
            err.starts_with(&format!("{at}: expected ")) && err.ends_with(why),
            "{line}: {err}"
        );
    }
    // And a number alone is the TN, before any word the check takes
    let mut t = table();
    let (roll, _) = checked(&t.run("sc Ana tn 25 adv bonus 10 dice 4 5 6"));
    assert_eq!((roll.check.tn, roll.check.tilt), (25, Tilt::Advantage));
}

/// Given a sheet weapon, when `stun` follows it in `dmg`, then the refusal names that word (the
/// sheet says what the weapon deals), wherever the line's other words put it.
#[test]
fn stun_after_a_sheet_weapon_is_refused_at_its_own_word() {
    let mut t = fight();
    t.run("weapon Ana add Knife 1d6 melee");
    for (line, at) in [
        ("dmg Ana Bo with Knife stun dice 6", "word 6 \"stun\""),
        ("dmg Ana Bo with Knife mos 2 stun", "word 8 \"stun\""),
    ] {
        let err = parse_error(&t, line);
        assert!(
            err.starts_with(&format!("{at}: expected ")) && err.ends_with("typed NdM+ST only"),
            "{line}: {err}"
        );
    }
}

/// Given nobody hurt, when an injury is named by number for Edge, then the refusal says there is
/// none, not a count of 0.
#[test]
fn an_injury_number_with_no_injury_is_told_there_is_none() {
    let mut t = table();
    for line in ["edge Ana burn 1", "edge Ana lessen 2"] {
        let said = t.refuse(line).to_string();
        assert!(said.starts_with("Ana has no injury"), "{line}: {said}");
        assert!(!said.contains("has 0"), "{line}: {said}");
    }
    t.run("dmg - Ana 1d6+0 dice 2");
    assert_eq!(
        t.refuse("edge Ana lessen 2").to_string(),
        "Ana has no injury 2: only injury 1"
    );
}

/// Given Ana's turn at a 2097 table, when she takes two attack actions with no Multiple Attacks,
/// then both are taken: the 2097 turn is limited by its IP (the 5 IP cap), not SR5's one attack
/// action per Action Phase.
#[test]
fn a_2097_turn_takes_a_second_attack_action_its_ip_pay_for() {
    let mut t = fight();
    t.run("act Ana Fire Gun");
    t.run("act Ana Fire Gun");
    // And the IP still hold: a third of 2 IP is more than she has left
    let said = t.refuse("act Ana Fire Gun").to_string();
    assert!(!said.contains("already attacked"), "{said}");
}

#[test]
fn a_die_face_of_eleven_is_refused() {
    let mut t = table();
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 10 dice 11 3").to_string(),
        "a d10 has faces 1 to 10, not 11"
    );
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 10 dice 4").to_string(),
        "this check (no Advantage) rolls 2 dice: type 2 faces, not 1"
    );
}

#[test]
fn the_mos_bands_of_success_and_failure() {
    let mut t = table();
    // 4 + 5 = 9 and no double: MoS = 9 + bonus - TN.
    for (bonus, verdict) in [
        (11, Verdict::Success(Band::Marginal)),    // MoS 0
        (15, Verdict::Success(Band::Marginal)),    // 4
        (16, Verdict::Success(Band::Significant)), // 5
        (20, Verdict::Success(Band::Significant)), // 9
        (21, Verdict::Success(Band::Complete)),    // 10
        (10, Verdict::Failure(Band::Marginal)),    // -1
        (6, Verdict::Failure(Band::Marginal)),     // -5
        (5, Verdict::Failure(Band::Significant)),  // -6
        (1, Verdict::Failure(Band::Significant)),  // -10
        (0, Verdict::Failure(Band::Complete)),     // -11
    ] {
        let (_, out) = checked(&t.run(&format!("sc Cy tn 20 bonus {bonus} dice 4 5")));
        assert_eq!(out.verdict, verdict, "bonus {bonus}");
        // Failures leave statuses; clear them so the next check is plain.
        for s in t.c("Cy").statuses.clone() {
            t.run(&format!("clear Cy {}", s.name));
        }
    }
}

#[test]
fn a_double_on_a_failure_takes_five_from_the_mos() {
    let mut t = table();
    let (_, out) = checked(&t.run("sc Ana tn 20 bonus 10 dice 3 3"));
    assert_eq!((out.margin, out.double, out.mos), (-4, Double::Failure, -9));
    assert_eq!(out.verdict, Verdict::Failure(Band::Significant));
}

#[test]
fn with_edge_a_double_adds_five_even_to_a_failure_and_may_make_it_a_success() {
    let mut t = table();
    // Edge gains Advantage: 3d10 [4 4 1]; dropping the 1 keeps the double: 8 + 10 = 18, MoS -2,
    // and with Edge the double adds 5: MoS 3, a success.
    let events = t.run("sc Ana tn 20 bonus 10 edge dice 4 4 1");
    let (roll, out) = checked(&events);
    assert_eq!(roll.check.tilt, Tilt::Advantage);
    assert_eq!(roll.kept(), vec![4, 4]);
    assert_eq!((out.margin, out.double, out.mos), (-2, Double::Edge, 3));
    assert!(out.verdict.is_success());
    assert_eq!(t.c("Ana").edge_left, 2);
    assert_eq!(
        last_lines(&t)[1],
        "sc Ana: 3d10 [4 4 1] drop 1 (Advantage, by Edge) + 10 = 18 vs TN 20: success, MoS -2 +5 double (Edge) = 3 (marginal)"
    );
}

#[test]
fn advantage_keeps_a_double_when_that_does_better_than_dropping_the_lowest() {
    let mut t = table();
    // [9 7 7]: dropping the 9 gives 14 + 10 = 24, MoS 4 + 5 = 9; dropping a 7 gives MoS 6.
    let (roll, out) = checked(&t.run("sc Ana tn 20 bonus 10 adv dice 9 7 7"));
    assert_eq!((roll.dropped, out.mos), (Some(0), 9));
    // [2 2 9]: the double would fail (14 + 10 = 24 - 30 = -6 - 5); the lowest goes.
    let (roll, out) = checked(&t.run("sc Ana tn 30 bonus 10 adv dice 2 2 9"));
    assert_eq!(roll.kept(), vec![2, 9]);
    assert_eq!(out.mos, -9);
}

#[test]
fn disadvantage_drops_the_highest_or_forces_a_double_when_that_is_worse() {
    let mut t = table();
    let (roll, _) = checked(&t.run("sc Ana tn 20 bonus 10 dis dice 8 3 5"));
    assert_eq!(roll.kept(), vec![3, 5]);
    // [3 3 2]: the highest out leaves 3 + 2 (MoS -5); the GM takes the 2 and forces the
    // double: 16 - 20 = -4, -5 more: -9.
    let (roll, out) = checked(&t.run("sc Bo tn 20 bonus 10 dis dice 3 3 2"));
    assert_eq!((roll.kept(), out.mos), (vec![3, 3], -9));
    // [5 5 9]: dropping the 9 would hand the roller a double that succeeds (MoS 2 + 5); the GM
    // drops a 5 instead (MoS 6).
    let (roll, out) = checked(&t.run("sc Cy tn 20 bonus 12 dis dice 5 5 9"));
    assert_eq!((roll.kept(), out.mos), (vec![5, 9], 6));
}

#[test]
fn the_gm_may_pick_the_die_removed() {
    let mut t = table();
    let (roll, out) = checked(&t.run("sc Ana tn 20 bonus 10 adv dice 9 7 7 drop 7"));
    assert_eq!((roll.kept(), out.mos), (vec![9, 7], 6));
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 10 adv dice 9 7 7 drop 3")
            .to_string(),
        "`drop 3`: none of the dice shows 3"
    );
    assert!(matches!(
        sr2097_error(t.refuse("sc Ana tn 20 bonus 10 dice 9 7 drop 9")),
        Sr2097Error::DropWithoutTilt
    ));
}

#[test]
fn advantage_and_disadvantage_together_cancel_to_two_dice() {
    let mut t = table();
    let (roll, _) = checked(&t.roll("sc Ana tn 20 bonus 10 adv dis", &[4, 6]));
    assert_eq!((roll.check.tilt, roll.dice.len()), (Tilt::Even, 2));
}

#[test]
fn edge_removes_disadvantage_and_cannot_add_to_advantage() {
    let mut t = table();
    let (roll, _) = checked(&t.run("sc Ana tn 20 bonus 10 dis edge dice 4 6"));
    assert_eq!(roll.check.tilt, Tilt::Even);
    assert_eq!(t.c("Ana").edge_left, 2);
    // With both sources, Edge removes the Disadvantage and the Advantage stands.
    let (roll, _) = checked(&t.run("sc Ana tn 20 bonus 10 adv dis edge dice 4 6 1"));
    assert_eq!(roll.check.tilt, Tilt::Advantage);
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 10 adv edge dice 4 6 1")
            .to_string(),
        "Ana already has Advantage: Edge gains Advantage or removes Disadvantage, and there is neither to do"
    );
}

#[test]
fn edge_with_none_left_is_refused_and_nothing_changes() {
    let mut t = table();
    t.run("sc Bo tn 20 bonus 10 edge dice 4 6 1");
    assert_eq!(t.c("Bo").edge_left, 0);
    assert_eq!(
        t.refuse("sc Bo tn 20 bonus 10 edge dice 4 6 1").to_string(),
        "Bo has no Edge left (needs 1, has 0)"
    );
}

#[test]
fn a_significant_failure_leaves_disadvantage_for_the_next_related_check() {
    let mut t = table();
    t.run("sc Ana tn 20 bonus 5 dice 4 5"); // MoS -6
    assert!(
        t.c("Ana")
            .status("Disadvantage: next related check")
            .is_some()
    );
    // An unrelated check: the GM gives no `dis`, the status stays.
    let (roll, _) = checked(&t.run("sc Ana tn 15 bonus 10 dice 4 5"));
    assert_eq!(roll.check.tilt, Tilt::Even);
    assert!(
        t.c("Ana")
            .status("Disadvantage: next related check")
            .is_some()
    );
    // The related one: `dis` uses it up.
    t.run("sc Ana tn 15 bonus 10 dis dice 4 5 6");
    assert!(
        t.c("Ana")
            .status("Disadvantage: next related check")
            .is_none()
    );
    assert_eq!(
        t.last_lines().last().map(String::as_str),
        Some("Ana: Disadvantage: next related check ends (used up by this check)")
    );
}

#[test]
fn a_complete_failure_gives_disadvantage_on_the_next_check_whatever_it_is() {
    let mut t = table();
    t.run("sc Ana tn 30 bonus 5 dice 4 5"); // MoS -16
    assert!(t.c("Ana").status("Disadvantage: next check").is_some());
    let (roll, _) = checked(&t.run("sc Ana tn 15 bonus 10 dice 4 5 6"));
    assert_eq!(roll.check.tilt, Tilt::Disadvantage);
    assert!(t.c("Ana").status("Disadvantage: next check").is_none());
    // And the log says the check used it up
    assert!(
        t.last_lines()
            .contains(&"Ana: Disadvantage: next check ends (used up by this check)".to_string()),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn the_result_line_says_when_advantage_and_disadvantage_cancel() {
    // Given Ana owes a Disadvantage on her next check (a complete failure).
    let mut t = table();
    t.run("sc Ana tn 30 bonus 5 dice 4 5");
    // When her next check has Advantage: Then both cancel (2d10), and the line says so.
    let (roll, _) = checked(&t.run("sc Ana tn 15 bonus 10 adv dice 4 5"));
    assert_eq!(roll.check.tilt, Tilt::Even);
    let line = &last_lines(&t)[0];
    assert!(
        line.starts_with("sc Ana: 2d10 [4 5] (Advantage and Disadvantage cancel) + 10 = 19"),
        "{line}"
    );
    // And so with both given on the line; Edge instead removes the Disadvantage (no cancelling).
    t.run("sc Ana tn 15 bonus 10 adv dis dice 4 5");
    assert!(last_lines(&t)[0].contains("(Advantage and Disadvantage cancel)"));
    t.run("sc Ana tn 15 bonus 10 adv dis edge dice 4 5 6");
    assert!(!last_lines(&t)[0].contains("cancel"));
    // And a check with one of them only says nothing of it.
    t.run("sc Ana tn 15 bonus 10 dis dice 4 5 6");
    assert!(!last_lines(&t)[0].contains("cancel"));
}

#[test]
fn a_downed_character_makes_no_check() {
    let mut t = table();
    t.run("down Ana");
    assert!(matches!(
        t.refuse("sc Ana tn 20 bonus 10 dice 4 5"),
        RuleError::Downed { .. }
    ));
}

#[test]
fn the_attackers_check_asked_before_any_target_refuses_as_the_damage_roll_does() {
    // Given Ana in the fight
    let mut t = fight();
    let ana = t.c("Ana").id;
    assert_eq!(t.enc.may_attack(ana, Attack::Damage), Ok(()));
    // When she is Downed
    t.run("down Ana");
    // Then the check the damage form asks before its target is named refuses her with the
    // error the damage roll gives
    let typed = t.refuse("dmg Ana Bo 2d6+4 dice 6 6");
    assert_eq!(typed.to_string(), "Ana is Downed and cannot act");
    assert_eq!(t.enc.may_attack(ana, Attack::Damage), Err(typed));
}

#[test]
fn a_typed_damage_roll_asks_the_attacker_before_its_target() {
    // Given Ana Downed in the fight
    let mut t = fight();
    let ana = t.c("Ana").id;
    t.run("down Ana");
    // When she rolls damage at a target the roll would refuse too (herself)
    // Then her own refusal comes first, the form's sentence
    assert_eq!(
        Err(t.refuse("dmg Ana Ana 2d6+4 dice 6 6")),
        t.enc.may_attack(ana, Attack::Damage)
    );
}

// ----- damage and armor -----------------------------------------------------------------------

fn damaged(events: &[Event]) -> (u16, Through, Option<Severity>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Sr2097(Sr2097Event::DamageRolled {
                roll,
                through,
                injury,
                ..
            }) => Some((roll.total(), *through, injury.map(|i| i.severity))),
            _ => None,
        })
        .expect("a damage roll")
}

#[test]
fn the_pistol_against_light_armor_16_leaves_12_the_texts_example() {
    let mut t = table();
    t.run("armor Bo pt 15 dr 30");
    let (total, through, injury) = damaged(&t.run("dmg Ana Bo 2d6+4 dice 6 6"));
    assert_eq!(total, 16);
    assert_eq!(through, Through::Reduced { reduced: 4 });
    assert_eq!(through.left(total), 12);
    assert_eq!(injury, Some(Severity::Serious));
    assert_eq!(sheet(&t, "Bo").injuries[0].damage, 12);
    assert_eq!(
        last_lines(&t),
        vec!["dmg Ana → Bo: 2d6 [6 6] + 4 = 16 vs PT 15/DR 30: 16 - 4 (30%) = 12, serious injury"]
    );
}

#[test]
fn damage_below_the_penetration_threshold_is_stopped() {
    let mut t = table();
    t.run("armor Bo pt 15 dr 30");
    let (total, through, injury) = damaged(&t.run("dmg Ana Bo 2d6+4 dice 5 5"));
    assert_eq!((total, through, injury), (14, Through::Stopped, None));
    assert!(sheet(&t, "Bo").injuries.is_empty());
}

#[test]
fn a_melee_weapon_adds_the_wielders_strength_and_a_complete_success_two_dice() {
    let mut t = table();
    // Street Samurai: ST 6, a sword 2d6+6; at MoS 10+, 4d6+6.
    t.run("strength Ana 6");
    t.run("weapon Ana add Sword 2d6 melee");
    let (total, through, _) = damaged(&t.run("dmg Ana Bo with Sword mos 10 dice 1 2 3 4"));
    assert_eq!((total, through), (16, Through::Unarmored));
}

#[test]
fn a_ranged_weapon_adds_its_own_st_and_a_significant_success_one_die() {
    let mut t = table();
    t.run("weapon Bo add Ares Predator 3d6+5");
    let events = t.run("dmg Bo Ana with Ares Predator mos 6 dice 1 1 1 1");
    assert_eq!(damaged(&events).0, 9);
}

#[test]
fn edge_boosts_damage_by_two_dice() {
    let mut t = table();
    let events = t.run("dmg Ana Bo 2d6+4 edge dice 1 1 6 6");
    assert_eq!(damaged(&events).0, 18);
    assert_eq!(t.c("Ana").edge_left, 2);
}

#[test]
fn wrong_damage_input_is_refused_with_one_sentence() {
    let mut t = table();
    assert_eq!(
        t.refuse("dmg Ana Bo with Blaster").to_string(),
        "Ana carries no weapon \"Blaster\" (none yet: `weapon Ana add NAME 2d6+4`)"
    );
    t.run("weapon Ana add Sword 2d6 melee");
    assert_eq!(
        t.refuse("dmg Ana Bo with Sword dice 3 4").to_string(),
        "Sword is a melee weapon and Ana has no Strength on the sheet: `strength Ana N`"
    );
    assert_eq!(
        t.refuse("dmg Ana Bo 2d8+4").to_string(),
        "Shadowrun 2097 damage dice are d6: write 2d6, not 2d8"
    );
    assert_eq!(
        t.refuse("dmg Ana Bo 2d6+4 mos 5 dice 3 4").to_string(),
        "this damage roll (2d6 + 1d6 for the MoS) rolls 3 dice: type 3 faces, not 2"
    );
    assert_eq!(
        t.refuse("dmg Ana Bo 2d6+4 mos -2").to_string(),
        "a failed attack (MoS -2) deals no damage: give the MoS of a success, 0 or more"
    );
}

#[test]
fn damage_with_no_attacker_goes_through_armor_onto_the_injury_track() {
    // Given Bo in light armor and Ana's check that a damage roll of hers would follow.
    let mut t = fight();
    t.run("armor Bo pt 15 dr 30");
    t.run("sc Ana tn moderate bonus 10 dice 9 8");
    // When a fall deals 2d6+4 to Bo (the text: damage of weapons, spells and the surroundings
    // alike is d6 through armor).
    let events = t.run("dmg - Bo 2d6+4 dice 6 6");
    // Then 16 - 30% = 12 gets through, a serious injury, logged with no attacker.
    let (total, through, injury) = events
        .iter()
        .find_map(|e| match e {
            Event::Sr2097(Sr2097Event::Harmed {
                roll,
                through,
                injury,
                ..
            }) => Some((roll.total(), *through, injury.map(|i| i.severity))),
            _ => None,
        })
        .expect("damage with no attacker");
    assert_eq!(
        (total, through, injury),
        (16, Through::Reduced { reduced: 4 }, Some(Severity::Serious))
    );
    assert_eq!(sheet(&t, "Bo").injuries[0].damage, 12);
    assert_eq!(
        last_lines(&t),
        vec!["dmg Bo: 2d6 [6 6] + 4 = 16 vs PT 15/DR 30: 16 - 4 (30%) = 12, serious injury"]
    );
    // And no one is its attacker: Ana's check still waits for her damage roll.
    assert_eq!(sheet(&t, "Ana").to_follow, Some(9 + 8 + 10 - 20));
    // And a critical one downs; a spell's MoS adds its dice, Stun goes on the Stun track.
    t.run("dmg - Cy 3d6+8 mos 5 stun dice 1 1 1 6");
    let cy = sheet(&t, "Cy");
    assert_eq!(cy.injuries[0].damage, 17);
    assert_eq!(cy.injuries[0].track, srtrack::encounter::Track::Stun);
    assert!(t.c("Cy").is_downed());
}

#[test]
fn a_damage_roll_is_written_back_as_typed_with_an_attacker_or_none() {
    // Given the three in a fight, Ana with a weapon whose name is a keyword.
    let mut t = fight();
    t.run("weapon Ana add edge 2d6+4");
    // When damage is dealt with every word a damage roll takes, by Ana and by no one,
    for line in [
        "dmg Ana Bo 2d6+4 mos 5 edge dice 1 2 3 4 5 stun",
        r#"dmg Ana Cy with "edge" mos 0 dice 1 1"#,
        "dmg - Cy 3d6+8 mos 10 dice 1 1 1 1 1 stun",
        "dmg - Bo 1d6+0 dice 2",
    ] {
        t.run(line);
        // Then the log and the save keep the line as it was typed (the same words, in order).
        assert_eq!(t.enc.applied().last().map(|e| e.text.as_str()), Some(line));
    }
}

#[test]
fn damage_with_no_attacker_has_no_weapon_or_edge_and_a_missing_target_is_named() {
    let mut t = table();
    let err = |line: &str| parse_error(&t, line);
    assert!(
        err("dmg Ana 2d6+4").ends_with(
            "expected a combatant name (Ana, Bo, Cy) for the target; damage with no attacker \
             (a fall, fire, a spell cast off-screen) is `dmg - Ana 2d6+4`"
        ),
        "{}",
        err("dmg Ana 2d6+4")
    );
    assert!(err("dmg - Bo 2d6+4 edge").contains("Boost Damage spends the attacker's Edge"));
    assert!(err("dmg - Bo with Pistol").contains("with no attacker there is no weapon"));
    assert_eq!(
        t.refuse("dmg - Bo 2d6+4 dice 6").to_string(),
        "this damage roll (2d6) rolls 2 dice: type 2 faces, not 1"
    );
}

#[test]
fn a_failed_attack_check_deals_no_damage_whatever_mos_the_roll_is_given() {
    // Given Ana's attack check failed (7 7 + 0 vs 20: MoS -6, -5 for the double = -11).
    let mut t = fight();
    t.run("sc Ana tn moderate bonus 0 dice 7 7");
    // When a damage roll follows it, with no MoS, an MoS of 0 or a success's: Then it is refused,
    // and Bo has no injury.
    for line in [
        "dmg Ana Bo 2d6+4 dice 6 6",
        "dmg Ana Bo 2d6+4 mos 0 dice 6 6",
        "dmg Ana Bo 2d6+4 mos 12 dice 6 6 6 6",
    ] {
        assert_eq!(
            t.refuse(line).to_string(),
            "Ana's check failed (MoS -11): a missed attack deals no damage; a new attack needs a new check",
            "{line}"
        );
    }
    assert!(sheet(&t, "Bo").injuries.is_empty());
    // A new check that succeeds is a new attack (with the Disadvantage the complete failure left,
    // 5 dropped: 4 + 3 + 15 = 22, MoS 2): its damage is rolled.
    t.run("sc Ana tn moderate bonus 15 dice 4 5 3");
    damaged(&t.run("dmg Ana Bo 2d6+4 dice 6 6"));
    assert_eq!(sheet(&t, "Bo").injuries.len(), 1);
}

#[test]
fn a_damage_roll_without_a_mos_takes_the_attack_checks() {
    // Given Ana's check made MoS 11 (a double: 7 7 + 12 vs 20 = 6, +5), a complete success.
    let mut t = fight();
    t.run("sc Ana tn 20 bonus 12 dice 7 7");
    // When her damage roll gives no MoS: Then it rolls the check's 2d6 more (4d6 + 4).
    assert_eq!(
        t.refuse("dmg Ana Bo 2d6+4 dice 6 6").to_string(),
        "this damage roll (2d6 + 2d6 for the MoS) rolls 4 dice: type 4 faces, not 2"
    );
    assert_eq!(damaged(&t.run("dmg Ana Bo 2d6+4 dice 1 1 1 1")).0, 8);
    // Rolled for: a second roll follows no check (MoS 0 unless given).
    assert_eq!(damaged(&t.run("dmg Ana Bo 2d6+4 dice 1 1")).0, 6);
}

#[test]
fn injury_severity_bands_and_downed_at_critical() {
    let mut t = table();
    for (faces, severity) in [
        ("1", Severity::Graze),        // 1 + 0
        ("6", Severity::Moderate),     // 6
        ("5 6", Severity::Serious),    // 11
        ("6 6 4", Severity::Critical), // 16
    ] {
        let n = faces.split(' ').count();
        let events = t.run(&format!("dmg Ana Bo {n}d6+0 dice {faces}"));
        assert_eq!(damaged(&events).2, Some(severity), "{faces}");
    }
    assert_eq!(t.c("Bo").downed, Some(DownCause::Injury));
}

#[test]
fn lessen_injury_steps_one_severity_down_and_can_bring_the_character_back_up() {
    let mut t = table();
    t.run("dmg Ana Bo 3d6+0 dice 6 6 4"); // 16: critical, Downed
    assert!(t.c("Bo").is_downed());
    t.run("edge Bo lessen");
    let s = sheet(&t, "Bo");
    assert_eq!(s.injuries[0].severity, Severity::Serious);
    assert!(!t.c("Bo").is_downed());
    assert_eq!(t.c("Bo").edge_left, 0);
    assert_eq!(
        t.refuse("edge Bo lessen").to_string(),
        "Bo has no Edge left (needs 1, has 0)"
    );
    t.run("dmg Bo Cy 1d6+0 dice 2");
    assert_eq!(
        t.refuse("edge Cy lessen").to_string(),
        "Cy's injury 1 is a graze, the lightest: it cannot be lessened"
    );
}

#[test]
fn edge_burn_only_to_survive_a_life_threatening_injury_lowers_current_and_maximum() {
    let mut t = table();
    assert_eq!(
        t.refuse("edge Ana burn").to_string(),
        "Edge Burn only keeps a character from dying: Ana has no life-threatening injury left to survive"
    );
    t.run("dmg Bo Ana 4d6+0 dice 6 6 6 6"); // 24: life-threatening
    t.run("edge Ana burn");
    let s = sheet(&t, "Ana");
    assert_eq!(s.injuries[0].fate, Fate::Survived);
    assert_eq!(s.edge(3, t.c("Ana").edge_left).current, 2);
    assert_eq!(s.edge(3, t.c("Ana").edge_left).max, 2);
    assert!(
        t.c("Ana").is_downed(),
        "alive, but it needs medical attention"
    );
    // Once burned for, the injury is survived: no second burn for it.
    assert!(matches!(
        sr2097_error(t.refuse("edge Ana burn")),
        Sr2097Error::NothingToBurnFor { .. }
    ));
}

/// Given Ana has burned a point of Edge for good, when the GM edits her Edge rating below the
/// points burned, then it is refused in one sentence; an edit at or above it keeps her Edge left
/// within the new maximum, and no edit brings back the point burned.
#[test]
fn an_edge_rating_edited_after_a_burn_never_leaves_edge_above_the_maximum() {
    let mut t = table();
    t.run("dmg Bo Ana 4d6+0 dice 6 6 6 6"); // 24: life-threatening
    t.run("edge Ana burn");
    assert_eq!(
        t.refuse("edit Ana edge 0").to_string(),
        "Ana's Edge rating cannot be 0: 1 of it is burned for good, so 1 is the lowest allowed"
    );
    t.run("edit Ana edge 1");
    let s = sheet(&t, "Ana");
    assert_eq!(s.edge(1, t.c("Ana").edge_left).max, 0);
    assert_eq!(t.c("Ana").edge_left, 0);
    t.run("edit Ana edge 3");
    let left = t.c("Ana").edge_left;
    assert!(left <= sheet(&t, "Ana").edge(3, left).max, "{left}");
    assert_eq!(sheet(&t, "Ana").edge(3, left).max, 2);
}

// A life-threatening Stun injury kills no one (our ruling): there is no death for Edge Burn to
// keep off, and the refusal says so rather than that no such injury is left.
#[test]
fn edge_burn_for_a_life_threatening_stun_injury_says_stun_kills_no_one() {
    let mut t = table();
    t.run("dmg - Ana 4d6+6 stun dice 6 6 6 6"); // 30 Stun: life-threatening
    assert_eq!(
        sheet(&t, "Ana").injuries[0].track,
        srtrack::encounter::Track::Stun
    );
    let err = sr2097_error(t.refuse("edge Ana burn"));
    assert!(matches!(err, Sr2097Error::StunKillsNoOne { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "Edge Burn only keeps a character from dying, and Ana's life-threatening injury 1 is Stun, \
         which kills no one: there is nothing to burn Edge for"
    );
    assert_eq!(t.c("Ana").edge_left, 3, "no Edge spent");
    // And a physical one beside it is burned for as ever
    t.run("dmg - Ana 4d6+6 dice 6 6 6 6");
    t.run("edge Ana burn");
    assert_eq!(sheet(&t, "Ana").injuries[1].fate, Fate::Survived);
}

// Fire modes (their rounds, their recoil) are SR5's: at a 2097 table a burst is dice of its
// damage roll (the text's guard: "+1d6 from burst"), so a mode named is refused.
#[test]
fn a_2097_table_fires_with_no_fire_mode() {
    let mut t = fight();
    assert_eq!(
        t.refuse("act Ana Fire Gun mode BF").to_string(),
        "fire modes are SR5's: at a Shadowrun 2097 table a burst is extra dice of the damage roll (`dmg NAME TARGET 3d6+4`); leave out `mode BF`"
    );
    t.run("act Ana Fire Gun");
}

// Edge Burn lowers current Edge and the maximum by one; our ruling: the point it sacrifices is
// the maximum's, so one whose Edge is spent can still burn to live (current stays 0), and one
// whose maximum is 0 has nothing left to burn.
#[test]
fn edge_burn_with_no_edge_left_lowers_the_maximum_and_saves_a_life() {
    let mut t = table();
    t.run("sc Bo tn 15 bonus 5 edge dice 4 5 6"); // Bo's only point of Edge spent
    assert_eq!(t.c("Bo").edge_left, 0);
    t.run("dmg Ana Bo 4d6+0 dice 6 6 6 6"); // 24: life-threatening
    t.run("edge Bo burn");
    assert_eq!(
        t.last_lines(),
        [
            "Bo burns Edge to survive the life-threatening injury 1 (Edge 0/0, the maximum lowered for good): alive, needs medical attention"
        ]
    );
    let s = sheet(&t, "Bo");
    assert_eq!(s.injuries[0].fate, Fate::Survived);
    assert_eq!(
        s.edge(1, t.c("Bo").edge_left),
        EdgePool { current: 0, max: 0 }
    );
    t.run("dmg Ana Bo 4d6+0 dice 6 6 6 6"); // a second one
    assert_eq!(
        t.refuse("edge Bo burn").to_string(),
        "Bo's maximum Edge is 0: there is no Edge left to burn"
    );
}

// Edge Burn saves the latest injury the character is dying of, as Lessen Injury and the Edge
// menu go to the latest, and says which; `burn N` picks another. Once no Edge is left to burn
// or spend, first aid's refusal says the character dies of it, not to burn.
#[test]
fn edge_burn_saves_the_latest_deadly_injury_by_number_and_up_never_points_to_an_impossible_burn() {
    // Given Bo (Edge 1) with two life-threatening injuries not survived
    let mut t = table();
    t.run("dmg - Bo 6d6+10 dice 6 6 6 6 6 6");
    t.run("dmg - Bo 6d6+10 dice 6 6 6 6 6 6");
    // When he burns Edge, the latest is survived, and the log names it
    t.run("edge Bo burn");
    assert_eq!(
        t.last_lines(),
        [
            "Bo burns Edge to survive the life-threatening injury 2 (Edge 0/0, the maximum lowered for good): alive, needs medical attention"
        ]
    );
    let fates: Vec<Fate> = sheet(&t, "Bo").injuries.iter().map(|i| i.fate).collect();
    assert_eq!(fates, [Fate::Open, Fate::Survived]);
    // Then with no Edge to burn or spend, first aid's refusal points to neither
    assert_eq!(
        t.refuse("up Bo").to_string(),
        "Bo's injury 1 is life-threatening and kills, and Bo has no Edge left to burn or to lessen it: Bo dies of it; first aid (`up`) cannot bring Bo back"
    );
    // Given Ana (Edge 3) with the same two: the GM picks the first
    t.run("dmg - Ana 6d6+10 dice 6 6 6 6 6 6");
    t.run("dmg - Ana 6d6+10 dice 6 6 6 6 6 6");
    t.run("edge Ana burn 1");
    assert_eq!(
        t.enc.applied().last().map(|e| e.text.as_str()),
        Some("edge Ana burn 1")
    );
    let fates: Vec<Fate> = sheet(&t, "Ana").injuries.iter().map(|i| i.fate).collect();
    assert_eq!(fates, [Fate::Survived, Fate::Open]);
    // and a number that is not one she is dying of is refused, naming why
    assert_eq!(
        t.refuse("edge Ana burn 1").to_string(),
        "Edge Burn only keeps a character from dying, and Ana is not dying of injury 1: it was survived by Edge Burn"
    );
    assert_eq!(
        t.refuse("edge Ana burn 3").to_string(),
        "Ana has no injury 3: injuries 1 to 2"
    );
    // With Edge 2 of max 2 left, `up` still points to both ways out, for the one still open
    assert_eq!(
        t.refuse("up Ana").to_string(),
        "Ana's injury 2 is life-threatening and kills without Edge Burn (`edge Ana burn`) or Lessen Injury (`edge Ana lessen 2`): first aid (`up`) cannot bring Ana back"
    );
}

// Lessen Injury with no number goes to the injury the character is dying of, as Edge Burn does,
// not to a later graze: the way out `up`'s refusal names is the one the GM types.
#[test]
fn lessen_with_no_number_lessens_the_injury_that_kills_not_a_later_graze() {
    // Given Bo dying of a life-threatening injury, then grazed
    let mut t = table();
    t.run("dmg - Bo 6d6+10 dice 6 6 6 6 6 6");
    t.run("dmg - Bo 1d6 dice 2");
    let severities = |t: &Table| -> Vec<&'static str> {
        sheet(t, "Bo")
            .injuries
            .iter()
            .map(|i| i.severity.word())
            .collect()
    };
    assert_eq!(severities(&t), ["life-threatening", "graze"]);
    // When first aid is refused, the refusal names the command that lessens the one that kills
    assert!(
        t.refuse("up Bo")
            .to_string()
            .contains("Lessen Injury (`edge Bo lessen 1`)")
    );
    // Then `edge Bo lessen` lessens injury 1, the graze untouched
    t.run("edge Bo lessen");
    assert_eq!(severities(&t), ["critical", "graze"]);
    // and with no one dying, it goes to the latest again
    t.run("dmg - Cy 1d6+10 dice 6");
    t.run("dmg - Cy 1d6+10 dice 6");
    t.run("edge Cy lessen");
    let cy: Vec<_> = sheet(&t, "Cy")
        .injuries
        .iter()
        .map(|i| i.severity)
        .collect();
    assert_eq!(cy.len(), 2);
    assert!(cy[1] < cy[0], "only the latest lessened: {cy:?}");
}

// A character dying of an injury (only Edge saves it) is told apart from one merely Downed
// (first aid brings it back): `show` and the recap's cast name the injury.
#[test]
fn a_dying_character_is_shown_dying_of_its_injury_not_merely_downed() {
    // Given Bo dying of a life-threatening injury, and Cy Downed by a critical one
    let mut t = fight();
    t.run("dmg - Bo 6d6+10 dice 6 6 6 6 6 6");
    t.run("dmg - Cy 3d6+0 dice 6 6 6"); // 18: critical
    // When the GM reads where the fight stands, Bo is dying of injury 1, Cy merely Downed
    let shown = report::show(&t.enc, 0);
    assert!(shown.contains(", DOWNED (dying of injury 1)"), "{shown}");
    assert!(shown.contains(", DOWNED (injury)"), "{shown}");
    let cast = report::recap::heading(&t.enc, "t", "now");
    assert!(
        cast.contains("**Bo** (NPC, Downed, dying of injury 1)"),
        "{cast}"
    );
    assert!(cast.contains("**Cy** (NPC, Downed)"), "{cast}");
    // and once Edge Burn saves him, he is Downed, no longer dying
    t.run("edge Bo burn");
    assert!(report::show(&t.enc, 0).contains("Bo"));
    assert!(!report::show(&t.enc, 0).contains("dying"));
}

// A MoS the GM gives a damage roll is one a check can make: 0 up to the best (2d10 of 20 + the
// highest bonus 99 - the lowest TN 1 + a double's 5 = 123); above it, one sentence, nothing rolled.
#[test]
fn a_damage_rolls_mos_above_the_best_a_check_can_make_is_refused_with_the_range() {
    // Given Ana and Bo in a fight
    let mut t = fight();
    t.run("armor Bo pt 15 dr 30");
    // When the GM gives a MoS no check can make, with an attacker or none, it is refused with
    // the range and nothing is recorded
    let before = t.enc.applied().len();
    for by in ["Ana", "-"] {
        let refused = |t: &mut Table, mos: &str| {
            t.refuse(&format!("dmg {by} Bo 2d6+4 mos {mos} dice 1 1 1 1"))
                .to_string()
        };
        let allowed = "is out of range: allowed 0 to 123";
        assert_eq!(refused(&mut t, "1000"), format!("MoS 1000 {allowed}"));
        let huge = refused(&mut t, "99999999999");
        assert_eq!(huge, format!("MoS of 2147483647 or more {allowed}"));
    }
    assert_eq!(t.enc.applied().len(), before);
    // and the best itself is taken
    t.run("dmg Ana Bo 2d6+4 mos 123 dice 1 1 1 1");
}

// A damage roll's typed dice are counted against the parts that roll: the refusal names only
// those, as the result line does (no "0d6 for Edge" where no Edge is spent, or can be).
#[test]
fn the_dice_count_refusal_of_a_damage_roll_names_only_the_parts_that_roll() {
    let mut t = fight();
    t.run("weapon Ana add Pistol 2d6+4");
    let said = |t: &mut Table, line: &str| t.refuse(line).to_string();
    let (mos, plain, edge) = ("(2d6 + 1d6 for the MoS)", "(2d6)", "(2d6 + 2d6 for Edge)");
    let got = said(&mut t, "dmg - Bo 2d6+4 mos 5 dice 6 6");
    assert_eq!(
        got,
        format!("this damage roll {mos} rolls 3 dice: type 3 faces, not 2")
    );
    let got = said(&mut t, "dmg Ana Bo with Pistol dice 6");
    assert_eq!(
        got,
        format!("this damage roll {plain} rolls 2 dice: type 2 faces, not 1")
    );
    let got = said(&mut t, "dmg Ana Bo 2d6+4 edge dice 6");
    assert_eq!(
        got,
        format!("this damage roll {edge} rolls 4 dice: type 4 faces, not 1")
    );
}

// Edge Burn, the last resort against a character's death, spares it outright death but leaves it
// needing a medic at once: first aid does not undo either.
#[test]
fn first_aid_brings_back_neither_the_dying_nor_one_who_burned_edge_to_live() {
    // Given Bo, Edge 1, with a life-threatening injury (24) not survived
    let mut t = table();
    t.run("dmg Ana Bo 4d6+0 dice 6 6 6 6");
    // When the GM brings him up, it is refused: he dies unless Edge saves him
    assert_eq!(
        t.refuse("up Bo").to_string(),
        "Bo's injury 1 is life-threatening and kills without Edge Burn (`edge Bo burn`) or Lessen Injury (`edge Bo lessen 1`): first aid (`up`) cannot bring Bo back"
    );
    // and once he burns Edge to live, he is out until the ER, and Edge cannot lessen it
    t.run("edge Bo burn");
    assert_eq!(
        t.refuse("up Bo").to_string(),
        "Bo survived injury 1 by Edge Burn and needs medical attention: out of the fight, first aid (`up`) cannot bring Bo back"
    );
    assert!(matches!(
        sr2097_error(t.refuse("edge Bo lessen")),
        Sr2097Error::SurvivedStands { number: 1, .. }
    ));
    assert!(t.c("Bo").is_downed());
    // A life-threatening Stun injury (a beating) kills no one: first aid brings Cy back.
    t.run("weapon Ana add Fists 4d6 melee stun");
    t.run("strength Ana 4");
    t.run("dmg Ana Cy with Fists dice 6 6 6 6");
    t.run("up Cy");
    assert!(!t.c("Cy").is_downed());
}

// Edge Burn takes 1 off the maximum Edge for good: the initiative's tie-break on
// Edge and every Edge shown count the maximum left.
#[test]
fn a_burned_point_of_edge_no_longer_wins_an_initiative_tie() {
    let mut t = Table::under(System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3");
    t.run("add Bo int 4 rea 5 edge 2");
    t.run("dmg Bo Ana 4d6+0 dice 6 6 6 6"); // 24: life-threatening
    t.run("edge Ana burn"); // Ana lives, Downed until the ER; her order still counts
    assert_eq!(t.state().edge_max(t.c("Ana")), 2);
    t.run("roll Ana dice 3 3");
    t.run("roll Bo dice 3 3");
    t.roll("start", &[2, 5]); // the roll-off: Bo first
    let why = t.state().explain_order(t.c("Bo").id, t.c("Ana").id);
    assert!(!why.contains("higher Edge"), "{why}");
    assert!(why.contains("and Edge 2"), "a roll-off of equals: {why}");
}

#[test]
fn why_words_the_initiative_tie_steps_in_dice_not_sr5s_pool() {
    // Given Ana and Bo tie on score and dice; Ana has more Edge. Cy ties them on score with
    // fewer dice (its sheet's `mod -1`).
    let mut t = Table::under(System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3");
    t.run("add Bo int 4 rea 5 edge 1");
    t.run("add Cy int 6 rea 6 edge 1 mod -1");
    t.run("roll Ana dice 3 3");
    t.run("roll Bo dice 3 3");
    t.run("roll Cy dice 3");
    t.run("start");
    // When the GM asks why: Then the tie steps count dice, as 2097's initiative is a sum of d6s.
    let why = t.state().explain_order(t.c("Ana").id, t.c("Bo").id);
    assert!(
        why.ends_with("same score 15 and 2 dice; Ana has the higher Edge, 3 to 1"),
        "{why}"
    );
    let why = t.state().explain_order(t.c("Ana").id, t.c("Cy").id);
    assert!(
        why.ends_with("same score 15; Ana has more dice, 2 to 1"),
        "{why}"
    );
}

#[test]
fn edge_comes_back_by_award_rest_and_between_scenarios_never_above_the_maximum() {
    let mut t = table();
    assert_eq!(
        t.refuse("edge Ana award 1").to_string(),
        "Ana's Edge is full (3 of 3): there is nothing to regain"
    );
    t.run("sc Ana tn 20 bonus 10 edge dice 1 2 3");
    t.run("sc Ana tn 20 bonus 10 edge dice 1 2 3");
    assert_eq!(t.c("Ana").edge_left, 1);
    assert_eq!(
        t.refuse("edge Ana award 3").to_string(),
        "Ana has 1 of 3 Edge: 3 more would be above the maximum"
    );
    t.run("edge Ana rest");
    assert_eq!(t.c("Ana").edge_left, 2);
    t.run("edge Ana award 1");
    assert_eq!(t.c("Ana").edge_left, 3);
    t.run("sc Ana tn 20 bonus 10 edge dice 1 2 3");
    t.run("edge Ana scenario");
    assert_eq!(t.c("Ana").edge_left, 3);
}

// ----- initiative -----------------------------------------------------------------------------

#[test]
fn initiative_is_two_d6_plus_intuition_and_reaction() {
    let mut t = table();
    t.roll("roll all", &[6, 5, 1, 2, 3, 3]);
    let score = |t: &Table, n: &str| t.c(n).initiative.as_ref().unwrap().score();
    assert_eq!(
        (score(&t, "Ana"), score(&t, "Bo"), score(&t, "Cy")),
        (20, 9, 10)
    );
    t.run("start");
    assert_eq!(t.order(), vec!["Ana", "Cy", "Bo"]);
    assert!(t.refuse("roll Ana hits 3").to_string().contains("not hits"));
}

#[test]
fn typed_hits_are_refused_naming_the_initiative_die_the_house_rules_give() {
    let mut t = table();
    let said = t.refuse("roll Ana hits 3").to_string();
    assert!(said.contains("d6s plus a bonus, not hits"), "{said}");
    let mut rules = srtrack::rules::HouseRules::embedded();
    rules.sr2097.initiative.die = 10;
    let mut t = Table {
        enc: srtrack::encounter::Encounter::for_system(
            System::Sr2097,
            std::sync::Arc::new(rules),
            std::sync::Arc::new(common::test_catalogue()),
        ),
    };
    t.run("add Ana pc int 4 rea 5 edge 3");
    let said = t.refuse("roll Ana hits 3").to_string();
    assert!(said.contains("d10s plus a bonus, not hits"), "{said}");
}

#[test]
fn the_sheets_dice_modifier_adds_initiative_dice() {
    let mut t = Table::under(System::Sr2097);
    t.run("add Wired pc int 4 rea 5 mod 1");
    t.roll("roll Wired", &[1, 2, 3]);
    assert_eq!(t.c("Wired").initiative.as_ref().unwrap().score(), 15);
    assert_eq!(t.c("Wired").initiative.as_ref().unwrap().pool, 3);
}

#[test]
fn tied_sums_go_to_more_dice_then_edge_then_a_roll_off_never_a_glitch() {
    let mut t = Table::under(System::Sr2097);
    t.run("add Ana int 5 rea 4 edge 1 mod 1"); // 3 dice
    t.run("add Bo int 5 rea 4 edge 3"); // 2 dice
    t.run("add Cy int 5 rea 4 edge 1");
    t.run("roll Ana dice 1 1 1"); // 3 + 9
    t.run("roll Bo dice 1 2"); // 3 + 9
    t.run("roll Cy dice 2 1");
    let score = |t: &Table, n: &str| t.c(n).initiative.as_ref().unwrap().score();
    assert_eq!(
        (score(&t, "Ana"), score(&t, "Bo"), score(&t, "Cy")),
        (12, 12, 12)
    );
    t.run("start");
    // Ana rolled more dice; Bo has the higher Edge.
    assert_eq!(t.order(), vec!["Ana", "Bo", "Cy"]);
}

#[test]
fn boost_initiative_puts_the_character_ahead_for_one_turn() {
    let mut t = fight(); // Ana 21, Bo 14, Cy 6
    assert_eq!(t.turn(), "Ana");
    // Cy boosts: 6 + 12 = 18 beats Bo's 14 in this pass.
    t.run("edge Cy boost dice 6 6");
    t.run("next");
    assert_eq!(t.turn(), "Cy");
    t.run("next");
    assert_eq!(t.turn(), "Bo");
    // The next pass is back to the order.
    t.run("next");
    assert_eq!((t.round_pass(), t.turn()), ((1, 2), "Ana".to_string()));
    t.run("next");
    assert_eq!(t.turn(), "Bo");
}

#[test]
fn a_boost_bought_after_the_turn_counts_in_the_next_pass() {
    let mut t = fight();
    t.run("next"); // Bo
    t.run("next"); // Cy
    // Ana has acted in pass 1: her boost is for pass 2, where she leads anyway; Cy's for pass 2.
    let events = t.run("edge Cy boost dice 5 5");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Sr2097(Sr2097Event::InitiativeBoosted {
            round: 1,
            pass: 2,
            ..
        })
    )));
    t.run("next");
    assert_eq!((t.round_pass(), t.turn()), ((1, 2), "Ana".to_string()));
    t.run("next");
    assert_eq!(t.turn(), "Cy", "16 beats Bo's 14");
}

#[test]
fn a_boost_that_does_not_outscore_changes_nothing_and_one_turn_takes_one_boost() {
    let mut t = fight();
    t.run("edge Cy boost dice 1 2"); // 9: still below Bo
    assert_eq!(
        t.refuse("edge Cy boost dice 6 6").to_string(),
        "Cy's initiative is already boosted for round 1, pass 1"
    );
    t.run("next");
    assert_eq!(t.turn(), "Bo");
}

// The Edge boost to initiative (1 Edge: +2d6 for a turn) holds for the first turn of the fight too.
#[test]
fn a_boost_before_the_start_counts_for_the_first_turn_of_the_fight() {
    // Given Ana 21, Bo 14, Cy 6, before the fight starts
    let mut t = table();
    assert!(matches!(
        t.refuse("edge Bo boost dice 6 6"),
        RuleError::MissingInitiative { .. }
    ));
    t.run("roll Ana dice 6 6");
    t.run("roll Bo dice 4 4");
    t.run("roll Cy dice 1 1");
    // When Bo boosts to 14 + 12 = 26 > Ana's 21
    let events = t.run("edge Bo boost dice 6 6");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Sr2097(Sr2097Event::InitiativeBoosted {
            round: 1,
            pass: 1,
            ..
        })
    )));
    assert_eq!(t.c("Bo").edge_left, 0);
    // then Bo takes the first turn of the fight, and the order holds
    t.run("start");
    assert_eq!(rest_of_pass(&mut t), ["Bo", "Ana", "Cy"]);
    assert_eq!(t.order(), vec!["Ana", "Bo", "Cy"], "the order holds");
}

#[test]
fn why_and_show_before_the_start_count_a_boost_bought_for_the_first_turn() {
    // Given Ana 21, Bo 14 and Cy 6, Bo boosted by 6 6 to 26 before the fight starts
    let mut t = table();
    t.run("roll Ana dice 6 6");
    t.run("roll Bo dice 4 4");
    t.run("roll Cy dice 1 1");
    t.run("edge Bo boost dice 6 6");
    let (ana, bo) = (t.c("Ana").id, t.c("Bo").id);
    let boost = "in round 1, pass 1 Ana 21, Bo boosted to 26 (+12): Bo goes first if both are \
                 still to act";
    // When the GM asks why before `start`, then the answer counts the boost
    assert_eq!(
        t.state().explain_order(bo, ana),
        format!(
            "Ana stands before Bo in the order the rolls give at `start`: Ana scored 21, Bo \
             scored 14; {boost}"
        )
    );
    // and `show` tells it
    let shown = report::show(&t.enc, 0);
    assert!(
        shown.contains("initiative boosted +12 in round 1, pass 1"),
        "{shown}"
    );
    // as `why` does after `start`, where Bo takes the first turn
    t.run("start");
    assert_eq!(
        t.state().explain_order(bo, ana),
        format!("Ana stands before Bo: Ana scored 21, Bo scored 14; {boost}")
    );
    assert_eq!(t.turn(), "Bo");
}

#[test]
fn why_names_a_boost_and_the_tie_break_that_puts_a_turn_ahead() {
    // Given Bo 14 and Cy 6 boosted by 4 4 to 14: a tie Cy wins on Edge, 2 to 1
    let mut t = fight();
    t.run("edge Cy boost dice 4 4");
    // When the GM asks why, then the answer names the boost, the scores and the tie-break
    let why = t.state().explain_order(t.c("Cy").id, t.c("Bo").id);
    assert_eq!(
        why,
        "Bo stands before Cy: Bo scored 14, Cy scored 6; in round 1, pass 1 Bo 14, Cy boosted to 14 (+8): Cy goes first if both are still to act, same score, higher Edge 2 to 1"
    );
    t.run("next");
    assert_eq!(t.turn(), "Cy");
}

/// The log lines that tell a tie of initiative broken for a boosted turn.
fn tie_lines(t: &Table) -> Vec<String> {
    report::log_lines(&t.enc)
        .into_iter()
        .map(|(_, line)| line)
        .filter(|line| line.contains("a tie goes by"))
        .collect()
}

#[test]
fn the_log_says_once_when_a_boosted_turn_wins_a_tie_by_more_dice_or_higher_edge() {
    // Given Bo 14 (2 dice, Edge 1) and Cy 6 (2 dice, Edge 2) boosted by 4 4 to 14: a tie.
    let mut t = fight();
    t.run("edge Cy boost dice 4 4");
    // When Ana's turn ends, Cy goes first: the dice are the same, Cy's Edge is higher.
    t.run("next");
    assert_eq!(t.turn(), "Cy");
    let said = "Cy, boosted to 14, ties Bo's 14 and goes first: a tie goes by more dice (2 each), \
                then higher Edge, 2 to 1";
    assert_eq!(
        t.last_lines(),
        vec![said.to_string(), "Cy's turn: +1 IP, 5 IP".to_string()]
    );
    // And the log says it once: not again as the pass goes on.
    rest_of_pass(&mut t);
    assert_eq!(tie_lines(&t), vec![said]);

    // Given Dee (3 dice) boosted to Bo's 14: a tie Dee wins on more dice.
    let mut t = fight();
    t.run("add Dee int 1 rea 1 edge 1 mod 1");
    t.run("roll Dee dice 1 1 1"); // 3 + 2 = 5
    t.run("edge Dee boost dice 4 5");
    t.run("next");
    assert_eq!(t.turn(), "Dee");
    assert_eq!(
        tie_lines(&t),
        vec!["Dee, boosted to 14, ties Bo's 14 and goes first: a tie goes by more dice, 3 to 2"]
    );

    // Given Cy 6 and Dee 5 (later in the order) both boosted to 16, past Bo's 14: Dee's 3 dice
    // put Dee before Cy, whom the tie is told against; Cy then beats Bo with no tie.
    let mut t = fight();
    t.run("add Dee int 1 rea 1 edge 1 mod 1");
    t.run("roll Dee dice 1 1 1");
    t.run("edge Cy boost dice 5 5");
    t.run("edge Dee boost dice 5 6");
    assert_eq!(rest_of_pass(&mut t), ["Ana", "Dee", "Cy", "Bo"]);
    assert_eq!(
        tie_lines(&t),
        vec!["Dee, boosted to 16, ties Cy's 16 and goes first: a tie goes by more dice, 3 to 2"]
    );
}

#[test]
fn the_log_says_nothing_of_a_tie_when_a_boost_beats_the_score_or_loses_the_tie() {
    // Given Cy boosted to 18, past Bo's 14: no tie, Cy goes first.
    let mut t = fight();
    t.run("edge Cy boost dice 6 6");
    t.run("next");
    assert_eq!(t.turn(), "Cy");
    // Given, before the start, Bo boosted to 21, Ana's score: the tie goes to Ana's Edge.
    let mut lost = table();
    lost.run("roll Ana dice 6 6");
    lost.run("roll Bo dice 4 4");
    lost.run("roll Cy dice 1 1");
    lost.run("edge Bo boost dice 3 4");
    lost.run("start");
    assert_eq!(lost.turn(), "Ana", "the order stands");
    // Then neither log tells a tie.
    rest_of_pass(&mut t);
    rest_of_pass(&mut lost);
    assert_eq!(tie_lines(&t), Vec::<String>::new());
    assert_eq!(tie_lines(&lost), Vec::<String>::new());
}

/// The turns of the rest of pass 1, from the turn in progress on.
fn rest_of_pass(t: &mut Table) -> Vec<String> {
    let mut turns = vec![t.turn()];
    while {
        t.run("next");
        t.round_pass() == (1, 1)
    } {
        turns.push(t.turn());
    }
    turns
}

#[test]
fn a_skipped_turn_comes_at_the_start_or_end_of_the_chosen_characters_boosted_turn() {
    for (relative, expected) in [
        ("before", ["Ana", "Cy", "Bo"]),
        ("after", ["Cy", "Ana", "Bo"]),
    ] {
        // Given Ana 21, Bo 14, Cy 6, and Cy boosted to 18: Cy goes before Bo in this pass.
        let mut t = fight();
        t.run("edge Cy boost dice 6 6");
        // When Ana changes initiative to just before (after) Cy,
        t.run(&format!("move Ana {relative} Cy"));
        // then her skipped turn is taken when Cy's turn starts (ends), and Bo does not slip in.
        assert_eq!(rest_of_pass(&mut t), expected, "move Ana {relative} Cy");
    }
}

#[test]
fn a_defense_interrupt_waits_for_no_defense_test_in_2097_and_may_be_taken_again() {
    // Given a 2097 fight, where a damage roll follows the attacker's check and no defense test
    // comes (Ana 21 acts, Bo 14 has 4 IP)
    let mut t = fight();
    // When Bo dodges (2 IP) in Ana's turn
    t.run("act Bo Dodge");
    // then nothing waits for an SR5 defense test, and Bo may dodge again when the IP allow
    assert!(
        t.state()
            .sr5
            .kit(t.c("Bo").id)
            .is_none_or(|k| k.defense_adds.is_empty()),
        "no Dodge waits for a defense test"
    );
    t.run("act Bo Dodge");
    assert_eq!(t.ip("Bo"), 0);
}

// ----- the sheet and the gate ----------------------------------------------------------------

#[test]
fn a_weapon_may_be_named_like_a_word_of_dmg_and_no_weapon_name_holds_an_invisible_character() {
    // Given weapons called as the words of `dmg` are (`edge`, `stun`, `mos`, `dice`)
    let mut t = fight();
    for name in ["edge", "stun", "mos", "dice"] {
        t.run(&format!("weapon Ana add {name} 1d6+0"));
    }
    // When Ana attacks with one, then the MoS and the table's dice after it still read as such
    for name in ["edge", "stun", "mos", "dice"] {
        let events = t.run(&format!("dmg Ana Cy with {name} mos 5 dice 1 1"));
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::Sr2097(Sr2097Event::DamageRolled { weapon: Some(w), roll, .. })
                    if w == name && roll.mos_dice == 1
            )),
            "with {name}: {events:?}"
        );
    }
    // and a name holding a zero-width space, which would look like another, is refused
    assert_eq!(
        t.refuse("weapon Ana add Gun\u{200b}X 2d6+4").to_string(),
        "the weapon name holds an invisible character (U+200B), so it would look the same without it: type it again with visible characters and spaces only"
    );
}

#[test]
fn with_takes_a_carried_weapons_whole_name_keywords_in_it_too() {
    // Given Ana carrying weapons whose names hold words `dmg` takes
    let mut t = fight();
    t.run("weapon Ana add Big Dice 2d6+4");
    t.run("weapon Ana add Gun edge 2d6+4");
    // When she deals damage with each, its name unquoted
    for (line, name) in [
        ("dmg Ana Cy with Big Dice dice 6 6", "Big Dice"),
        ("dmg Ana Cy with gun edge dice 6 6", "gun edge"),
    ] {
        let events = t.run(line);
        // Then the weapon is the one named, and the words after it read as ever
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::Sr2097(Sr2097Event::DamageRolled { weapon: Some(w), .. })
                    if w.eq_ignore_ascii_case(name)
            )),
            "{line}: {events:?}"
        );
    }
}

#[test]
fn a_weapon_name_ends_at_advantage_or_disadvantage_in_any_spelling_sc_takes() {
    // Given Ana in a fight, carrying a weapon of two words
    let mut t = fight();
    t.run("weapon Ana add Heavy Pistol 3d6+4");
    for word in ["adv", "advantage", "Advantage", "dis", "disadvantage"] {
        // When the GM puts Advantage or Disadvantage (which a damage roll does not take) after it
        let line = format!("dmg Ana Cy with Heavy Pistol {word}");
        // Then the line is refused at that word, not read as part of the weapon's name
        assert_eq!(
            parse_error(&t, &line),
            format!("word 7 \"{word}\": expected the end of the line"),
            "{line}"
        );
    }
}

#[test]
fn armor_strength_and_weapons_are_on_the_sheet() {
    let mut t = table();
    t.run("armor Bo pt 25 dr 40");
    t.run("strength Bo 5");
    t.run("weapon Bo add Fists 1d6 melee stun");
    t.run("weapon Bo add SMG 2d6+4");
    let s = sheet(&t, "Bo");
    assert_eq!(s.armor.map(|a| (a.pt, a.dr)), Some((25, 40)));
    assert_eq!((s.strength, s.weapons.len()), (Some(5), 2));
    assert_eq!(
        t.refuse("armor Bo pt 25 dr 140").to_string(),
        "DR 140 is out of range: allowed 0 to 100"
    );
    assert_eq!(
        t.refuse("weapon Bo add SMG 2d6+5").to_string(),
        "Bo already carries a weapon called \"SMG\": remove it first"
    );
    t.run("weapon Bo remove smg");
    assert_eq!(sheet(&t, "Bo").weapons.len(), 1);
    // A weapon's name is drawn on screen like a combatant's: no control characters.
    assert_eq!(
        t.refuse("weapon Bo add \"Gun\u{1b}[2J\" 2d6+4").to_string(),
        "the weapon name holds a control character (a line break, tab, escape, or a mark that turns the text's direction): type it again with visible characters and spaces only"
    );
}

#[test]
fn sr5_refuses_2097s_commands_naming_the_system() {
    let mut t = Table::new();
    t.run("add Ana pc int 4 rea 5 edge 3");
    t.run("add Bo int 3 rea 3 edge 1");
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 10").to_string(),
        "`sc` is a command of Shadowrun 2097; this encounter runs SR5"
    );
    for line in [
        "dmg Ana Bo 2d6+4",
        "armor Bo pt 15 dr 30",
        "edge Ana boost",
        "edge Ana award 1",
        "roll Ana dice 3 4",
        "weapon Ana add Pistol 2d6+4",
    ] {
        assert!(
            matches!(t.refuse(line), RuleError::OtherSystem { .. }),
            "{line}"
        );
    }
    // SR5's `edge NAME` and `damage NAME N` are untouched.
    t.run("roll Ana hits 2");
    t.run("roll Bo hits 1");
    t.run("start");
    t.run("edge Ana");
}

#[test]
fn a_wrong_count_of_dice_names_what_set_the_count_edge_and_a_failures_disadvantage() {
    let mut t = table();
    // Edge alone gains Advantage: three dice.
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 5 edge dice 4 5").to_string(),
        "this check (Advantage, by Edge) rolls 3 dice: type 3 faces, not 2"
    );
    // A complete failure (3 3 double: 11 - 20 - 5 = -14) leaves Disadvantage on the next check;
    // Edge then removes it instead of gaining Advantage, so two dice, and the refusal says why.
    t.run("sc Ana tn 20 bonus 5 dice 3 3");
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 5 edge dice 3 3 4").to_string(),
        "this check (Edge removes its Disadvantage; that Disadvantage is Ana's status \"Disadvantage: next check\") rolls 2 dice: type 2 faces, not 3"
    );
    // Without Edge it is a Disadvantage check of three dice.
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 5 dice 3 3").to_string(),
        "this check (Disadvantage; that Disadvantage is Ana's status \"Disadvantage: next check\") rolls 3 dice: type 3 faces, not 2"
    );
}

#[test]
fn a_damage_roll_follows_the_attackers_latest_check_this_turn_until_it_is_rolled_for() {
    let mut t = fight();
    let mos = |t: &Table, who: &str| sheet(t, who).to_follow;
    assert_eq!(mos(&t, "Ana"), None, "no check yet");
    // Ana's check (MoS 11), then Bo's (a failure): each follows its own.
    t.run("sc Ana tn 20 bonus 12 dice 7 7");
    t.run("sc Bo tn 20 bonus 2 dice 3 5");
    assert_eq!(mos(&t, "Ana"), Some(11));
    assert_eq!(mos(&t, "Bo"), Some(-10));
    // Rolled for: no longer there to follow.
    t.run("dmg Ana Bo 2d6+4 mos 11 dice 6 6 1 1");
    assert_eq!(mos(&t, "Ana"), None);
    // A new check lasts until Ana's next turn begins.
    t.run("sc Ana tn 20 bonus 12 dice 4 5");
    t.run("next");
    assert_eq!(mos(&t, "Ana"), Some(1), "out of her turn, it still stands");
    let ana = t.c("Ana").id;
    for _ in 0..20 {
        if t.state().acting() == Some(ana) {
            break;
        }
        t.run("next");
    }
    assert_eq!(t.state().acting(), Some(ana));
    assert_eq!(mos(&t, "Ana"), None, "a new turn, a new attack");
}

#[test]
fn why_before_start_explains_the_order_the_rolls_give_and_how_to_roll_the_missing() {
    // Given a 2097 table, Ana rolled, Bo not, the fight not started
    let mut t = Table::under(System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3");
    t.run("add Bo int 4 rea 5 edge 2");
    t.run("add Cy int 4 rea 5 edge 2");
    t.run("roll Ana dice 3 3");
    t.run("roll Cy dice 6 6");
    let (ana, bo, cy) = (t.c("Ana").id, t.c("Bo").id, t.c("Cy").id);
    // When the GM asks why of the two rolled
    // Then the order the screen lists is explained as the one `start` gives
    assert_eq!(
        t.state().explain_order(ana, cy),
        "Cy stands before Ana in the order the rolls give at `start`: Cy scored 21, Ana scored 15"
    );
    assert_eq!(t.state().roster()[..2], [cy, ana], "the screen's order");
    // And of the one not rolled: how to give it, in 2097's words
    assert_eq!(
        t.state().explain_order(ana, bo),
        "Bo has no initiative yet: `roll Bo` rolls it, or `roll Bo dice A B …` types in the table's dice"
    );
}

#[test]
fn advantage_and_disadvantage_cancel_is_said_wherever_the_check_is_described() {
    // Given Ana's check with both Advantage and Disadvantage
    let mut t = table();
    // When the GM types three faces where the cancelled check rolls two
    // Then the refusal says they cancel, not that the check has no Advantage
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 5 adv dis dice 5 6 4")
            .to_string(),
        "this check (Advantage and Disadvantage cancel) rolls 2 dice: type 2 faces, not 3"
    );
    // And Edge removing a Disadvantage is said as that alone
    assert_eq!(
        t.refuse("sc Ana tn 20 bonus 5 dis edge dice 5 6 4")
            .to_string(),
        "this check (Edge removes its Disadvantage) rolls 2 dice: type 2 faces, not 3"
    );
    // And the odds of such a check say so too
    let rules = srtrack::rules::HouseRules::embedded().sr2097;
    let q = |advantage, disadvantage| srtrack::lang::OddsQuery {
        tn: srtrack::encounter::system::sr2097::Tn::Number(20),
        bonus: 5,
        advantage,
        disadvantage,
        edge: false,
    };
    let both = report::sr2097::odds_answer(&q(true, true), &rules).unwrap();
    assert!(
        both.starts_with("TN 20, bonus +5, Advantage and Disadvantage cancel: "),
        "{both}"
    );
    let neither = report::sr2097::odds_answer(&q(false, false), &rules).unwrap();
    assert!(neither.starts_with("TN 20, bonus +5: "), "{neither}");
    assert_eq!(
        both.split_once(": "),
        Some((
            "TN 20, bonus +5, Advantage and Disadvantage cancel",
            neither.split_once(": ").unwrap().1
        ))
    );
}

#[test]
fn a_wrong_count_of_typed_dice_is_told_in_the_count_s_own_words() {
    let mut t = table();
    // Given a character whose dice modifier leaves one initiative die
    t.run("add Di pc int 3 rea 3 mod -3");
    // Then two faces typed for it are refused in the singular
    assert_eq!(
        t.refuse("roll Di dice 6 6").to_string(),
        "this initiative rolls 1 die: type 1 face, not 2"
    );
}

// ----- what keeps a character Downed: monitors beside injuries --------------------------------

/// Ana of [`fight`] with condition monitors (Body 4: 10 boxes; Willpower 4).
fn fight_with_monitors() -> Table {
    let mut t = fight();
    t.run("edit Ana body 4 will 4");
    t
}

// A GM who keeps the condition monitors beside the injury track: healing a box frees the
// monitor, not the injury. A dying character, or one out until the ER, stays down.
#[test]
fn healing_a_full_monitor_does_not_bring_back_one_a_2097_injury_holds_down() {
    for burn in [false, true] {
        // Given Ana with a full Physical monitor, then a life-threatening injury (24)
        let mut t = fight_with_monitors();
        t.run("damage Ana 10");
        t.run("dmg - Ana 6d6 dice 4 4 4 4 4 4");
        if burn {
            t.run("edge Ana burn");
        }
        // When a box is healed
        t.run("heal Ana 1");
        // Then she stays Downed, now by the injury, and first aid says why
        assert_eq!(t.c("Ana").downed, Some(DownCause::Injury), "burn {burn}");
        let err = sr2097_error(t.refuse("up Ana"));
        if burn {
            assert!(matches!(
                err,
                Sr2097Error::NeedsMedicalAttention { number: 1, .. }
            ));
        } else {
            assert!(matches!(err, Sr2097Error::Dying { number: 1, .. }));
        }
    }
}

#[test]
fn a_body_edit_that_frees_the_monitor_leaves_the_dying_down() {
    // Given Ana Downed by a full monitor, then dying of a life-threatening injury
    let mut t = fight_with_monitors();
    t.run("damage Ana 10");
    t.run("dmg - Ana 6d6 dice 4 4 4 4 4 4");
    // When her Body grows so the monitor is no longer full
    t.run("edit Ana body 6");
    // Then the injury still holds her
    assert_eq!(t.c("Ana").downed, Some(DownCause::Injury));
}

#[test]
fn a_monitor_filled_after_an_injury_downed_takes_over_and_first_aid_or_lessen_cannot_lift_it() {
    // Given Ana Downed by a critical injury (16), then her Physical monitor filled
    let mut t = fight_with_monitors();
    t.run("dmg - Ana 4d6 dice 4 4 4 4");
    assert_eq!(t.c("Ana").downed, Some(DownCause::Injury));
    t.run("damage Ana 10");
    // Then the monitor holds her: neither first aid nor lessening the injury brings her up
    assert_eq!(t.c("Ana").downed, Some(DownCause::PhysicalFull));
    assert_eq!(
        t.refuse("up Ana").to_string(),
        "Ana is Downed because the Physical monitor is full: heal Physical damage to bring them back"
    );
    t.run("edge Ana lessen");
    assert_eq!(t.c("Ana").downed, Some(DownCause::PhysicalFull));
    // and healing the box, with the injury now serious, does
    t.run("heal Ana 1");
    assert!(!t.c("Ana").is_downed());
}

#[test]
fn healing_a_monitor_leaves_down_one_with_a_critical_injury_first_aid_has_not_tended() {
    // Given Ana Downed by a full monitor, then hit for a critical injury while down
    let mut t = fight_with_monitors();
    t.run("damage Ana 10");
    t.run("dmg - Ana 4d6 dice 4 4 4 4");
    // When the monitor is healed
    t.run("heal Ana 1");
    // Then the untended injury holds her, and first aid brings her back
    assert_eq!(t.c("Ana").downed, Some(DownCause::Injury));
    t.run("up Ana");
    assert!(!t.c("Ana").is_downed());
    assert_eq!(sheet(&t, "Ana").injuries[0].fate, Fate::Tended);
    // And the Status pane and `show` tell it is tended
    assert!(
        report::show(&t.enc, 0).contains("injuries: 1 critical (16, tended)"),
        "{}",
        report::show(&t.enc, 0)
    );
}

#[test]
fn lessening_the_injury_that_downed_brings_back_one_first_aid_already_brought_back_once() {
    // Given Ana brought back by first aid from a critical injury, then downed by another
    let mut t = fight();
    t.run("dmg - Ana 4d6 dice 4 4 4 4");
    t.run("up Ana");
    t.run("dmg - Ana 4d6 dice 4 4 4 4");
    assert_eq!(t.c("Ana").downed, Some(DownCause::Injury));
    // When Edge lessens the new one below the band that downs
    t.run("edge Ana lessen");
    // Then she is back up: the first, tended, no longer holds her
    assert!(!t.c("Ana").is_downed(), "{:?}", sheet(&t, "Ana").injuries);
    // while two untended critical injuries, one lessened, still hold one down
    let mut t = fight();
    t.run("dmg - Ana 4d6 dice 4 4 4 4");
    t.run("dmg - Ana 4d6 dice 4 4 4 4");
    t.run("edge Ana lessen");
    assert_eq!(t.c("Ana").downed, Some(DownCause::Injury));
}

#[test]
fn first_aid_refused_names_the_injury_that_kills_before_one_survived() {
    // Given Ana survived injury 1 by Edge Burn, then took a second life-threatening one
    let mut t = fight();
    t.run("dmg - Ana 6d6 dice 4 4 4 4 4 4");
    t.run("edge Ana burn");
    t.run("dmg - Ana 4d6+5 dice 6 6 6 6");
    // When first aid is tried, the refusal names injury 2: she is dying of it
    assert!(matches!(
        sr2097_error(t.refuse("up Ana")),
        Sr2097Error::Dying { number: 2, .. }
    ));
}

/// A weapon line neither form reads is told the 2097 form at a 2097 table: dice with no count
/// (`d6`) were read as part of the name and answered with SR5's `dv N`.
#[test]
fn a_weapon_with_dice_and_no_count_is_told_the_2097_form() {
    // Given a 2097 table
    let t = table();
    // When the GM types a weapon's dice without their count, or no dice at all
    for line in [
        "weapon Ana add Claw d6",
        "weapon Ana add Claw d6+3",
        "weapon Ana add Claw",
    ] {
        // Then the sentence asks for 2097's damage dice, not SR5's damage value
        let said = parse_error(&t, line);
        assert!(said.contains("NdM+ST (e.g. 2d6+4)"), "{line}: {said}");
        assert!(!said.contains("dv N"), "{line}: {said}");
    }
    // And SR5's whole form still reads as SR5's (for the table to say it is another system's)
    assert_eq!(parse_error(&t, "weapon Ana add Gun dv 8 ap 0 acc 5"), "");
}
