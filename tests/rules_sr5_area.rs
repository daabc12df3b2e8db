//! Given/when/then for an SR5 area attack (issue 13, "Many targets at once"): one roll of the
//! attacker, then each target defends, resists and takes its boxes on its own.

mod common;
use common::Table;
use proptest::prelude::*;
use srtrack::encounter::system::sr5::{Sr5Error, Sr5Event, Stage};
use srtrack::encounter::{DownCause, Event, RuleError};
use srtrack::lang::{self, Line};
use srtrack::rules::RandomDice;

/// Ana (PC, Ares Predator 8P AP -1) and three NPC gangers: Ganger 1 in armor 6, Ganger 3 in 2.
fn gang() -> Table {
    set_up(Table::new())
}

/// The same, for a GM who rolls the NPCs' dice at the table (`npcs_roll_at_the_table`).
fn gang_at_the_table() -> Table {
    set_up(Table::with_rules(|r| r.sr5.npcs_roll_at_the_table = true))
}

fn set_up(mut t: Table) -> Table {
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    t.run("add Ganger x3 int 3 rea 3 edge 1 body 4 will 2");
    t.run("weapon Ana add Ares Predator dv 8P ap -1 acc 5 ammo 10");
    t.run("weapon Ganger 1 add Club dv 5 p ap 0 acc 4");
    t.run("armor Ganger 1 6");
    t.run("armor Ganger 3 2");
    t
}

#[test]
fn three_npcs_each_defend_and_soak_on_their_own_after_one_attack_roll() {
    let mut t = gang();
    t.roll(
        "attack Ana Ganger 1, Ganger 2, Ganger 3 pool 8",
        &[
            6, 6, 5, 5, 2, 2, 2, 3, // the attack: 4 hits, once for all three
            5, 2, 2, 2, 3, 3, // Ganger 1's defense: 1 hit
            5, 5, 2, 2, 2, 2, 3, 3, 3, // its soak: Body 4 + armor 6 − 1
            6, 6, 5, 5, 2, 2, // Ganger 2's defense: 4 hits, a tie
            2, 2, 2, 2, 2, 2, // Ganger 3's defense: none
            6, 2, 2, 2, 2, // its soak: Body 4 + armor 2 − 1
        ],
    );
    assert_eq!(
        t.last_lines(),
        [
            "attack Ana on Ganger 1, Ganger 2, Ganger 3 with Ares Predator (DV 8P, AP -1, accuracy 5): 8 dice [6 6 5 5 2 2 2 3], limit 5, 4 hits",
            "defense Ganger 1: 6 dice (Reaction 3 + Intuition 3) [5 2 2 2 3 3], 1 hit vs 4 hits: the attack hits, net 3, DV 11P",
            "soak Ganger 1: 9 dice (Body 4 + armor 6 with AP -1: 5) [5 5 2 2 2 2 3 3 3], 2 hits: DV 11 − 2 hits = 9 Physical",
            "Ganger 1 takes 9 Physical damage",
            "defense Ganger 2: 6 dice (Reaction 3 + Intuition 3) [6 6 5 5 2 2], 4 hits vs 4 hits: the attack misses (a tie goes to the defender)",
            "defense Ganger 3: 6 dice (Reaction 3 + Intuition 3) [2 2 2 2 2 2], 0 hits vs 4 hits: the attack hits, net 4, DV 12P",
            "soak Ganger 3: 5 dice (Body 4 + armor 2 with AP -1: 1) [6 2 2 2 2], 1 hit: DV 12 − 1 hit = 11 Physical",
            "Ganger 3 takes 10 Physical damage",
            "Ganger 3 is Downed (Physical monitor full)",
        ]
    );
    assert_eq!(t.c("Ganger 1").damage.physical, 9);
    assert_eq!(t.c("Ganger 1").downed, None);
    assert_eq!(t.c("Ganger 2").damage.physical, 0);
    assert_eq!(t.c("Ganger 3").downed, Some(DownCause::PhysicalFull));
    assert_eq!(t.state().sr5.pending, []);
}

#[test]
fn with_the_npcs_rolled_at_the_table_each_npc_target_waits_for_the_gms_dice() {
    let mut t = gang_at_the_table();
    // Only the attack is rolled: an NPC's die more would run the scripted dice out.
    t.roll(
        "attack Ana Ganger 1, Ganger 2 pool 8",
        &[6, 6, 5, 5, 2, 2, 2, 3],
    );
    let waiting = |t: &Table| -> Vec<(String, Stage)> {
        t.state()
            .sr5
            .pending
            .iter()
            .map(|p| (t.state().name(p.target).to_string(), p.stage))
            .collect()
    };
    assert_eq!(
        waiting(&t),
        [
            ("Ganger 1".to_string(), Stage::Defense { hits: 4 }),
            ("Ganger 2".to_string(), Stage::Defense { hits: 4 }),
        ]
    );
    // The GM's dice, on the sheet's pools: the same results as rolled in the first test.
    t.run("attack Ana Ganger 1 defense dice 5 2 2 2 3 3");
    t.run("attack Ana Ganger 1 soak dice 5 5 2 2 2 2 3 3 3");
    assert_eq!(t.c("Ganger 1").damage.physical, 9);
    t.run("attack Ana Ganger 2 defense dice 6 6 5 5 2 2");
    assert_eq!(t.c("Ganger 2").damage.physical, 0);
    assert_eq!(waiting(&t), []);
    // A single attack on an NPC waits the same way.
    t.roll("attack Ana Ganger 3 pool 2", &[6, 5]);
    assert_eq!(
        waiting(&t),
        [("Ganger 3".to_string(), Stage::Defense { hits: 2 })]
    );
}

#[test]
fn a_pc_among_the_targets_waits_for_the_table_while_the_npcs_are_rolled() {
    let mut t = gang();
    t.roll(
        "attack Ganger 1 Ana, Ganger 2 pool 6",
        &[
            6, 6, 5, 2, 2, 3, // the club: 3 hits
            2, 2, 2, 2, 2, 3, // Ganger 2's defense: none, DV 8
            5, 2, 2, 2, // its soak, Body 4 and no armor: 1 hit
        ],
    );
    assert_eq!(t.c("Ganger 2").damage.physical, 7);
    let waiting: Vec<_> = t
        .state()
        .sr5
        .pending
        .iter()
        .map(|p| (t.state().name(p.target).to_string(), p.stage))
        .collect();
    assert_eq!(waiting, [("Ana".to_string(), Stage::Defense { hits: 3 })]);
    assert_eq!(
        srtrack::report::sr5::pending_text(t.state()),
        ["Ganger 1's attack on Ana (Club) waits for Ana's defense"]
    );
    t.run("attack Ganger 1 Ana defense 9 dice 5 2 2 2 3 3 4 4 1");
    t.run("attack Ganger 1 Ana soak dice 6 5 1 2");
    assert_eq!(
        t.last_lines()[..2],
        [
            "soak Ana: 4 dice (Body 4 + armor 0) [6 5 1 2], 2 hits: DV 7 − 2 hits = 5 Physical",
            "Ana takes 5 Physical damage",
        ]
    );
    assert_eq!(t.state().sr5.pending, []);
}

#[test]
fn two_pcs_wait_one_by_one_and_a_new_attack_drops_every_one_still_waiting() {
    let mut t = gang();
    t.run("add Jinx pc int 3 rea 4 edge 2 body 3 will 4");
    t.roll("attack Ganger 1 Ana, Jinx pool 2", &[6, 5]);
    assert_eq!(t.state().sr5.pending.len(), 2);
    t.run("attack Ganger 1 Ana defense 9 hits 3");
    assert_eq!(
        t.state()
            .sr5
            .pending
            .iter()
            .map(|p| p.stage)
            .collect::<Vec<_>>(),
        [Stage::Defense { hits: 2 }],
        "Ana's defense held; Jinx still waits"
    );
    t.roll("attack Ana Ganger 2 pool 1", &[2, 2, 2, 2, 2, 2, 2]);
    assert_eq!(
        t.last_lines()[0],
        "the attack of Ganger 1 on Jinx is dropped, unfinished"
    );
    assert!(matches!(
        t.refuse("attack Ganger 1 Jinx defense 4"),
        RuleError::Sr5(Sr5Error::NoAttack { .. })
    ));
}

#[test]
fn each_target_defends_with_its_own_interrupts_and_wounds() {
    let mut t = gang();
    for line in [
        "roll Ana hits 3",
        "roll Ganger 1 hits 2",
        "roll Ganger 2 hits 1",
        "roll Ganger 3 hits 0",
        "start",
        "damage Ganger 3 3",
        "act Ganger 1 Full Defense",
        "act Ganger 2 Dodge",
        "act Ana Fire Gun",
    ] {
        t.run(line);
    }
    t.roll(
        "attack Ana Ganger 1, Ganger 2, Ganger 3 pool 2",
        &[
            6, 6, // the attack: 2 hits
            2, 2, 2, 2, 2, 2, 2, 2, // Ganger 1's defense, Willpower added: none
            2, 2, 2, 2, 2, 2, 2, 2, 2, // its soak: 10 boxes, Downed
            6, 6, 6, 2, 2, // Ganger 3's defense, one die off for its wounds
        ],
    );
    let l = t.last_lines();
    assert!(
        l[1].starts_with(
            "defense Ganger 1: 8 dice (Reaction 3 + Intuition 3 + Willpower (Full Defense) 2)"
        ),
        "{l:?}"
    );
    assert_eq!(t.c("Ganger 1").downed, Some(DownCause::PhysicalFull));
    assert!(
        l.iter().any(|x| x.starts_with("defense Ganger 3: 5 dice")),
        "{l:?}"
    );
    // Ganger 2's Dodge adds a skill srtrack does not keep: its defense waits to be typed.
    let waiting: Vec<_> = t.state().sr5.pending.iter().map(|p| p.target).collect();
    assert_eq!(waiting, [t.c("Ganger 2").id]);
    t.roll(
        "attack Ana Ganger 2 defense 9",
        &[5, 5, 6, 2, 2, 2, 3, 3, 3],
    );
    assert!(t.last_lines()[0].starts_with("defense Ganger 2 with Dodge: 9 dice"));
    assert_eq!(t.state().sr5.pending, []);
}

#[test]
fn armor_and_ap_count_per_target() {
    let mut t = gang();
    t.run("weapon Ana add Pistol dv 2 p ap -4 acc 3");
    t.roll(
        "attack Ana Ganger 1, Ganger 2 with Pistol pool 1",
        &[
            6, // 1 hit: DV 3 wherever it lands
            2, 2, 2, 2, 2, 2, // Ganger 1's defense
            6, 6, 5, 2, 2, 2, // Ganger 1's soak: armor 6 − 4 = 2, six dice
            2, 2, 2, 2, 2, 2, // Ganger 2's defense
            6, 2, 2, 2, // Ganger 2's soak: no armor, four dice
        ],
    );
    let soaks: Vec<(u8, u8)> = t
        .enc
        .history()
        .last()
        .map(|e| {
            e.events
                .iter()
                .filter_map(|e| match e {
                    Event::Sr5(Sr5Event::Soaked { armor, boxes, .. }) => Some((*armor, *boxes)),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(soaks, [(2, 0), (0, 2)]);
    assert_eq!(t.c("Ganger 2").damage.physical, 2);
}

#[test]
fn undo_takes_back_the_whole_area_attack_as_one_step() {
    let mut t = gang();
    let before = t.state().clone();
    let entries = t.enc.history().len();
    t.roll(
        "attack Ana Ganger 2, Ganger 3 pool 4",
        &[
            6, 6, 6, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
        ],
    );
    assert_eq!(t.enc.history().len(), entries + 1, "one entry");
    assert!(t.c("Ganger 2").damage.physical > 0);
    t.run("undo");
    assert_eq!(t.state(), &before);
}

#[test]
fn a_bad_target_list_is_refused_and_changes_nothing() {
    let mut t = gang();
    t.run("down Ganger 3");
    assert_eq!(
        t.refuse("attack Ana Ganger 1, Ganger 3 pool 6").to_string(),
        "Ganger 3 is Downed already: attack someone still standing"
    );
    assert_eq!(
        t.refuse("attack Ana Ganger 1, Ganger 1 pool 6").to_string(),
        "Ganger 1 is named twice: name each character once"
    );
    assert!(matches!(
        t.refuse("attack Ana Ganger 1, Ana pool 6"),
        RuleError::Sr5(Sr5Error::SelfAttack { .. })
    ));
    assert!(matches!(
        t.refuse("attack Ana Ganger 1, Ganger 2 pool 6 defense 6 dice 6 5 1 2 2 2"),
        RuleError::Sr5(Sr5Error::SharedDice { word: "defense" })
    ));
    assert!(matches!(
        t.refuse("attack Ana Ganger 1, Ganger 2 defense 6"),
        RuleError::Sr5(Sr5Error::NoAttack { .. })
    ));
}

#[test]
fn a_groups_name_stands_for_its_members_still_standing() {
    // Given a gang one of whom is Downed
    let mut t = gang();
    t.run("down Ganger 2");
    // When the GM aims the grenade at the gang by its name
    t.roll(
        "attack Ana Ganger pool 8",
        &[
            6, 6, 5, 5, 2, 2, 2, 3, // the attack: 4 hits
            6, 6, 5, 5, 2, 2, // Ganger 1's defense: 4 hits, a tie
            6, 6, 5, 5, 2, 2, // Ganger 3's defense: 4 hits, a tie
        ],
    );
    // Then the members still standing defend, and the Downed one is left out
    assert_eq!(
        t.last_lines()[0],
        "attack Ana on Ganger 1, Ganger 3 with Ares Predator (DV 8P, AP -1, accuracy 5): 8 dice [6 6 5 5 2 2 2 3], limit 5, 4 hits"
    );
    // Named by themselves, a Downed member is still refused, and so is a gang all Downed
    assert_eq!(
        t.refuse("attack Ana Ganger 2 pool 6").to_string(),
        "Ganger 2 is Downed already: attack someone still standing"
    );
}

#[test]
fn a_group_all_downed_is_refused_in_one_sentence_about_the_group() {
    // Given a gang all Downed
    let mut t = gang();
    for n in ["Ganger 1", "Ganger 2", "Ganger 3"] {
        t.run(&format!("down {n}"));
    }
    // When the GM aims at the gang by its name, alone or among others
    // Then the line is refused for the gang, not for its first member
    for line in ["attack Ana Ganger pool 6", "attack Ana Ganger, Ana pool 6"] {
        assert_eq!(
            t.unread(line),
            "every member of Ganger is Downed: attack someone still standing"
        );
    }
    // A Downed attacker is still refused first, as for any target
    t.run("down Ana");
    assert!(
        t.unread("attack Ana Ganger pool 6")
            .starts_with("Ana is Downed"),
        "{}",
        t.unread("attack Ana Ganger pool 6")
    );
}

#[test]
fn a_groups_name_goes_on_for_a_member_downed_since_the_attack_roll() {
    // Given an attack rolled at the gang by its name, each member waiting for the GM's dice,
    // and Ganger 2 Downed by the GM after the roll
    let mut t = gang_at_the_table();
    t.roll("attack Ana Ganger pool 8", &[6, 6, 5, 5, 2, 2, 2, 3]);
    t.run("down Ganger 2");
    // When the GM goes on with the defenses by the gang's name
    t.roll(
        "attack Ana Ganger defense 2",
        &[6, 6, 2, 2, 6, 6], // Ganger 1, 2 and 3: 2 hits each, the attack hits
    );
    // Then the hit landed while Ganger 2 stood: he defends with the others, as when named alone
    let lines = t.last_lines();
    let defended: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("defense "))
        .filter_map(|l| l.split(':').next())
        .collect();
    assert_eq!(defended, ["Ganger 1", "Ganger 2", "Ganger 3"]);
    // and a new attack at the gang still leaves him out
    t.roll("attack Ana Ganger pool 1", &[2]);
    assert!(
        t.last_lines()
            .iter()
            .any(|l| l.starts_with("attack Ana on Ganger 1, Ganger 3 ")),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn one_pool_typed_for_the_defense_serves_every_target() {
    let mut t = gang();
    t.roll(
        "attack Ana Ganger 1, Ganger 2 pool 2 hits 0 defense 2",
        &[2, 2, 2, 2],
    );
    let pools: Vec<u8> = t.enc.history().last().map_or_else(Vec::new, |e| {
        e.events
            .iter()
            .filter_map(|e| match e {
                Event::Sr5(Sr5Event::Defended { pool, .. }) => Some(pool.dice()),
                _ => None,
            })
            .collect()
    });
    assert_eq!(pools, [2, 2]);
}

/// Runs a line with dice drawn from one seeded stream shared by every line.
fn run_seeded(t: &mut Table, line: &str, dice: &mut RandomDice) -> Vec<Event> {
    let Ok(Line::Command(c)) = lang::parse(line, t.enc.state(), t.enc.catalogue()) else {
        panic!("`{line}` does not parse as a command");
    };
    lang::execute(&mut t.enc, c, dice)
        .unwrap_or_else(|e| panic!("`{line}` was refused: {e}"))
        .events
        .clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// An area attack on N targets is N single attacks with the same attacker's hits: the same
    /// defenses, net hits, soaks, boxes and Downed, target by target.
    #[test]
    fn an_area_attack_is_single_attacks_with_one_roll(
        hits in 0u8..8,
        bodies in prop::collection::vec((1u8..8, 0u8..10), 1..5),
        seed in any::<u64>(),
    ) {
        let setup = || {
            let mut t = Table::new();
            t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
            t.run("weapon Ana add Ares Predator dv 8P ap -1 acc 5 ammo 10");
            for (i, (body, armor)) in bodies.iter().enumerate() {
                t.run(&format!("add T{i} int 3 rea 3 edge 1 body {body} will 2"));
                t.run(&format!("armor T{i} {armor}"));
            }
            t
        };
        let names: Vec<String> = (0..bodies.len()).map(|i| format!("T{i}")).collect();
        let not_attacked = |e: &Event| !matches!(e, Event::Sr5(Sr5Event::Attacked { .. }));

        let mut area = setup();
        let mut dice = RandomDice::seeded(seed);
        let line = format!("attack Ana {} pool 8 hits {hits}", names.join(", "));
        let area_events: Vec<Event> =
            run_seeded(&mut area, &line, &mut dice).into_iter().filter(not_attacked).collect();

        let mut single = setup();
        let mut dice = RandomDice::seeded(seed);
        let mut single_events = Vec::new();
        for n in &names {
            let line = format!("attack Ana {n} pool 8 hits {hits}");
            single_events.extend(run_seeded(&mut single, &line, &mut dice).into_iter().filter(not_attacked));
        }
        prop_assert_eq!(area_events, single_events);
        for n in &names {
            prop_assert_eq!(&area.c(n).damage, &single.c(n).damage);
            prop_assert_eq!(area.c(n).downed, single.c(n).downed);
        }
    }
}
