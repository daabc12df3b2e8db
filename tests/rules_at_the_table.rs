//! Given/when/then for what the GM does at the table (issue 13): several targets in one
//! command, rolls the table typed in kept, a ready's reserve from its actions, names in short,
//! what the IP grid and the log say of Edge, reserves and Take Aim.

mod common;
use std::sync::Arc;

use common::Table;
use srtrack::catalogue::Catalogue;
use srtrack::encounter::query::PassCell;
use srtrack::encounter::{Encounter, Event, RuleError, StatusEnd};
use srtrack::lang::{self, Line};
use srtrack::report;
use srtrack::rules::HouseRules;

fn damaged(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::Damaged { .. }))
        .count()
}

// ---- many targets at once ----

#[test]
fn a_grenade_damages_three_gangers_in_one_command_and_one_undo_step() {
    let mut t = Table::three();
    t.run("add Ganger x3 int 3 rea 3 body 4 will 3 shared");
    t.run("roll Ganger hits 0");
    let entries = t.enc.cursor();
    let events = t.run("damage Ganger 1, Ganger 2, Ganger 3 6 stun");
    assert_eq!(damaged(&events), 3);
    assert_eq!(t.enc.cursor(), entries + 1, "one entry");
    for n in 1..=3 {
        assert_eq!(t.c(&format!("Ganger {n}")).damage.stun, 6);
    }
    assert_eq!(
        t.enc.applied().last().map(|e| e.text.as_str()),
        Some("damage \"Ganger 1\", \"Ganger 2\", \"Ganger 3\" 6 stun")
    );
    t.run("undo");
    for n in 1..=3 {
        assert_eq!(t.c(&format!("Ganger {n}")).damage.stun, 0, "one undo step");
    }
}

#[test]
fn a_group_named_in_a_list_aims_at_each_member_present() {
    let mut t = Table::three();
    t.run("add Ganger x3 int 3 rea 3 body 4 will 3");
    t.run("remove Ganger 2");
    let events = t.run("damage Ganger, Cy 2");
    assert_eq!(damaged(&events), 3, "Ganger 1, Ganger 3 and Cy");
    assert_eq!(t.c("Cy").damage.physical, 2);
}

#[test]
fn a_spell_buffs_the_team_and_the_status_ends_for_each() {
    let mut t = Table::three();
    t.run("status Ana, Bob Shielded until round");
    for who in ["Ana", "Bob"] {
        assert_eq!(
            t.c(who).status("Shielded").map(|s| s.end),
            Some(StatusEnd::EndOfRound)
        );
    }
    t.run("clear Ana, Bob Shielded");
    assert!(t.c("Ana").status("Shielded").is_none() && t.c("Bob").status("Shielded").is_none());
    t.run("damage Ana, Bob 2");
    let events = t.run("heal Ana, Bob 1");
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::Healed { boxes: 1, .. }))
            .count(),
        2
    );
}

#[test]
fn one_refusal_refuses_the_whole_list_and_changes_nothing() {
    let mut t = Table::three();
    t.run("add Drone int 3 rea 3");
    // Drone has no Body: no Physical monitor. Ana, named first, is not hurt either.
    assert!(matches!(
        t.refuse("damage Ana, Drone 3"),
        RuleError::NoMonitor { .. }
    ));
    assert_eq!(t.c("Ana").damage.physical, 0);
    assert!(matches!(
        t.refuse("damage Ana, Bob, Ana 1"),
        RuleError::TargetTwice { .. }
    ));
    assert_eq!(
        t.refuse("damage Ana, Bob, Ana 1").to_string(),
        "Ana is named twice: name each character once"
    );
}

// ---- initiative set-up ----

#[test]
fn rolling_for_all_never_replaces_a_roll_the_table_typed_in() {
    let mut t = Table::new();
    t.run("add Ana pc int 4 rea 5");
    t.run("add Ganger x2 int 3 rea 3");
    t.run("roll Ana hits 3");
    let events = t.roll("roll all", &[5, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1]);
    assert_eq!(events.len(), 2, "the gangers only");
    let ana = t.c("Ana").initiative.clone().expect("typed");
    assert_eq!((ana.hits, ana.dice), (3, None), "the table's roll stands");
    assert_eq!(
        t.refuse("roll all").to_string(),
        "nobody to roll for: everyone has a roll already: `roll NAME` rolls one again before the fight starts"
    );
    // Named outright, a roll may be rolled again before the fight.
    t.roll("roll Ganger 1", &[5, 5, 1, 1, 1, 1]);
    assert_eq!(t.c("Ganger 1").initiative.as_ref().map(|r| r.hits), Some(2));
}

// ---- a ready with its IP left empty ----

#[test]
fn a_ready_with_no_ip_given_reserves_what_its_actions_cost() {
    let mut t = Table::three();
    let events = t.run("ready Ana when the door opens do Fire Gun");
    assert!(matches!(events[..], [Event::ReadyDeclared { ip: 2, .. }]));
    assert_eq!(t.ip("Ana"), 3);
    // More than the reserve cap of 3, with no IP given: refused with the cap.
    t.run("undo");
    assert_eq!(
        t.refuse("ready Ana when the door opens do complex"),
        RuleError::ReadyReserve { ip: 4, cap: 3 }
    );
}

// ---- names in short ----

fn real() -> Encounter {
    let rules = Arc::new(HouseRules::embedded());
    let cat = Catalogue::embedded(&rules).expect("built-in catalogue");
    let mut enc = Encounter::new(rules, Arc::new(cat));
    for line in [
        "add Ana pc int 4 rea 5",
        "add Jinx pc int 5 rea 6",
        "add Ganger x3 int 3 rea 3",
        "roll Ana hits 4",
        "roll Jinx hits 3",
        "roll Ganger 1 hits 2",
        "roll Ganger 2 hits 1",
        "roll Ganger 3 hits 0",
        "start",
    ] {
        let Ok(Line::Command(c)) = lang::parse(line, enc.state(), enc.catalogue()) else {
            panic!("{line}");
        };
        lang::execute(&mut enc, c, &mut srtrack::rules::RandomDice::seeded(1)).expect(line);
    }
    enc
}

#[test]
fn a_short_name_finds_the_one_character_and_action_it_fits() {
    let enc = real();
    let parsed = lang::parse("act A Speak", enc.state(), enc.catalogue()).expect("parses");
    let Line::Command(c) = parsed else {
        panic!("a command")
    };
    assert_eq!(
        lang::format(&c, enc.state()),
        "act Ana Speak/Text/Transmit Phrase"
    );
    // Word by word: "fi gun" is Fire Gun; "G 3" is Ganger 3 (a number is a whole word).
    let parsed = lang::parse("act G 3 fi gun", enc.state(), enc.catalogue()).expect("parses");
    let Line::Command(c) = parsed else {
        panic!("a command")
    };
    assert_eq!(lang::format(&c, enc.state()), "act \"Ganger 3\" Fire Gun");
}

#[test]
fn a_short_name_that_fits_several_is_refused_with_the_candidates() {
    let enc = real();
    let err = lang::parse("act Jinx fire", enc.state(), enc.catalogue())
        .expect_err("ambiguous")
        .to_string();
    assert!(
        err.starts_with("word 3 \"fire\": expected one action"),
        "{err}"
    );
    assert!(
        err.contains("Fire Gun") && err.contains("Fire Bow"),
        "{err}"
    );
    let err = lang::parse("act G complex", enc.state(), enc.catalogue())
        .expect_err("ambiguous")
        .to_string();
    assert!(
        err.contains("fits 3 of them (Ganger 1, Ganger 2, Ganger 3)"),
        "{err}"
    );
}

// ---- the IP grid's cells ----

#[test]
fn a_cell_shows_edge_ip_and_ip_held_back_so_spent_may_pass_start() {
    let mut t = Table::three();
    t.run("act Ana complex");
    t.run("edge Ana");
    t.run("act Ana free");
    let rules = t.enc.rules().clone();
    assert_eq!(
        t.state().pass_cells(t.c("Ana").id, &rules)[0],
        PassCell::Seen {
            start: Some(5),
            spent: 5,
            edge: 4,
            reserved: 0
        }
    );
    t.run("next");
    t.run("delay Bob 2 after Cy");
    assert_eq!(
        t.state().pass_cells(t.c("Bob").id, &rules)[0],
        PassCell::Seen {
            start: Some(5),
            spent: 0,
            edge: 0,
            reserved: 2
        }
    );
}

#[test]
fn a_cell_counts_what_was_spent_or_bought_before_the_turn_in_its_start() {
    // Given Bob (4 IP) dodges in Ana's turn, and Cy buys IP with Edge in it, before their turns
    let mut t = Table::three();
    t.run("act Bob Dodge");
    t.run("edge Cy");
    t.run("next");
    t.run("next");
    let rules = t.enc.rules().clone();
    // Then Bob's pass reads 5 IP (4 and the pass's 1) with 2 spent: the 3 he has
    assert_eq!(t.ip("Bob"), 3);
    assert_eq!(
        t.state().pass_cells(t.c("Bob").id, &rules)[0],
        PassCell::Seen {
            start: Some(5),
            spent: 2,
            edge: 0,
            reserved: 0
        }
    );
    // And Cy's 5 and Edge's 4 apart, not 9 and 4 again
    assert_eq!(t.ip("Cy"), 9);
    assert_eq!(
        t.state().pass_cells(t.c("Cy").id, &rules)[0],
        PassCell::Seen {
            start: Some(5),
            spent: 0,
            edge: 4,
            reserved: 0
        }
    );
}

#[test]
fn a_ready_carried_into_a_new_round_projects_none_of_its_lost_ip() {
    // Given Bob readies 3 IP in the last pass of round 1, and round 2 begins with it pending
    let mut t = Table::three();
    while t.round_pass() != (1, 5) || t.turn() != "Bob" {
        t.run("next");
    }
    t.run("ready Bob 3 when the door opens do fire gun");
    while t.round_pass() == (1, 5) {
        t.run("next");
    }
    assert!(t.c("Bob").reserve.is_some(), "the ready outlives the round");
    // Then Bob's passes to come grow from his pool alone: the ready's IP went with round 1
    let rules = t.enc.rules().clone();
    let ip = t.ip("Bob");
    let ahead: Vec<u8> = t
        .state()
        .pass_cells(t.c("Bob").id, &rules)
        .into_iter()
        .filter_map(|c| match c {
            PassCell::Ahead { projected } => Some(projected),
            _ => None,
        })
        .collect();
    assert!(!ahead.is_empty());
    for (k, projected) in ahead.iter().enumerate() {
        let gains = u8::try_from(k + 1).unwrap() * rules.ip_per_turn;
        assert_eq!(*projected, ip + gains, "{ahead:?}");
    }
}

#[test]
fn a_downed_character_has_no_passes_to_come() {
    let mut t = Table::three();
    t.run("down Cy");
    let rules = t.enc.rules().clone();
    let cells = t.state().pass_cells(t.c("Cy").id, &rules);
    assert!(cells.iter().all(|c| *c == PassCell::Downed), "{cells:?}");
}

#[test]
fn a_newcomer_not_yet_rolled_has_no_turns_to_project_but_a_roll_to_make() {
    // Given a fight under way, and a newcomer whose roll the GM left for later
    let mut t = Table::three();
    t.run("add Dee int 3 rea 3");
    let rules = t.enc.rules().clone();
    // Then its passes to come ask for the roll once, with no IP projected
    let cells = t.state().pass_cells(t.c("Dee").id, &rules);
    assert_eq!(cells[0], PassCell::Unrolled { first: true });
    assert!(
        cells[1..]
            .iter()
            .all(|c| *c == PassCell::Unrolled { first: false }),
        "{cells:?}"
    );
    // When it is rolled, its turns to come are projected like anyone's
    t.run("roll Dee hits 1");
    let cells = t.state().pass_cells(t.c("Dee").id, &rules);
    assert!(
        cells.iter().all(|c| matches!(c, PassCell::Ahead { .. })),
        "{cells:?}"
    );
}

// ---- Take Aim when the shot comes, and what the status line says ----

#[test]
fn the_shot_takes_the_aim_and_any_other_action_loses_it() {
    let mut t = Table::three();
    t.run("act Ana Take Aim");
    t.run("act Ana Take Aim");
    for _ in 0..3 {
        t.run("next");
    }
    let before = t.state().clone();
    t.run("act Ana Fire Gun");
    let entry = t.enc.applied().last().expect("entry").clone();
    let (lines, _) = report::entry_lines(before.clone(), &entry, t.enc.rules(), t.enc.catalogue());
    assert_eq!(lines, ["Ana: Fire Gun with Take Aim +2 (Simple, 2 IP)"]);
    assert_eq!(
        report::news(before, &entry, t.enc.rules(), t.enc.catalogue()),
        "Ana: Fire Gun with Take Aim +2: 2 IP, 0 left"
    );
    // Aiming, then a Dodge out of turn: the aim is lost.
    let mut t = Table::three();
    t.run("act Ana Take Aim");
    t.run("next");
    let before = t.state().clone();
    t.run("act Ana Dodge");
    let entry = t.enc.applied().last().expect("entry").clone();
    assert_eq!(
        report::news(before, &entry, t.enc.rules(), t.enc.catalogue()),
        "Ana interrupts with Dodge: 2 IP, 1 left; Take Aim lost"
    );
}

#[test]
fn show_says_how_much_edge_is_left() {
    let mut t = Table::three();
    t.run("edge Ana");
    let page = report::show(&t.enc, 0);
    assert!(page.contains("Edge 2/3"), "{page}");
}

#[test]
fn a_group_count_too_big_for_a_number_is_refused_with_the_range_not_taken_as_a_name() {
    let mut t = Table::three();
    let err = t.refuse("add Ganger x99999999999 int 3 rea 3");
    assert!(
        err.to_string().contains("allowed 1 to"),
        "the range is told: {err}"
    );
    assert_eq!(t.state().present().count(), 3, "nobody joined");
}
