//! Given/when/then for SR5 combat from the attack to the condition monitor, and the sheet's
//! weapons, ammunition and armor (issue 10, "From hit to boxes" and "Weapons and ammo").

mod common;
use common::Table;
use srtrack::encounter::query::Attack;
use srtrack::encounter::system::sr5::{Defense, Sr5Error, Sr5Event, Stage};
use srtrack::encounter::{DownCause, Event, RuleError, StatusEnd};

/// Ana (PC, Ares Predator, 10 rounds) and two NPC gangers, Ganger 1 with a club and armor 6.
fn armed() -> Table {
    let mut t = Table::new();
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    t.run("add Ganger x2 int 3 rea 3 edge 1 body 4 will 2");
    t.run("weapon Ana add Ares Predator dv 8P ap -1 acc 5 ammo 10");
    t.run("weapon Ganger 1 add Club dv 5 p ap 0 acc 4");
    t.run("armor Ganger 1 6");
    t
}

/// The same, in a fight: Ana acts first.
fn fighting() -> Table {
    let mut t = armed();
    t.run("roll Ana hits 3");
    t.run("roll Ganger 1 hits 2");
    t.run("roll Ganger 2 hits 1");
    t.run("start");
    t
}

#[test]
fn an_attack_runs_from_the_roll_to_the_boxes_and_a_full_monitor_downs() {
    let mut t = armed();
    t.roll(
        "attack Ana Ganger 1 pool 8",
        &[
            6, 6, 5, 5, 5, 5, 2, 3, // attack: 6 hits, accuracy 5
            5, 2, 2, 3, 4, 1, // defense, Reaction 3 + Intuition 3: 1 hit
            5, 6, 2, 2, 3, 3, 4, 1, 1, // soak, Body 4 + armor 6 − AP 1: 2 hits
        ],
    );
    assert_eq!(
        t.last_lines(),
        [
            "attack Ana on Ganger 1 with Ares Predator (DV 8P, AP -1, accuracy 5): 8 dice [6 6 5 5 5 5 2 3], limit 5, 5 hits (6 rolled)",
            "defense Ganger 1: 6 dice (Reaction 3 + Intuition 3) [5 2 2 3 4 1], 1 hit vs 5 hits: the attack hits, net 4, DV 12P",
            "soak Ganger 1: 9 dice (Body 4 + armor 6 with AP -1: 5) [5 6 2 2 3 3 4 1 1], 2 hits: DV 12 − 2 hits = 10 Physical",
            "Ganger 1 takes 10 Physical damage",
            "Ganger 1 is Downed (Physical monitor full)",
        ]
    );
    assert_eq!(t.c("Ganger 1").downed, Some(DownCause::PhysicalFull));
    assert_eq!(t.state().sr5.pending, []);
}

#[test]
fn a_tie_on_the_defense_goes_to_the_defender() {
    let mut t = armed();
    let ev = t.roll("attack Ana Ganger 2 pool 3", &[6, 5, 1, 6, 5, 2, 2, 3, 3]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Sr5(Sr5Event::Defended {
            result: Defense::Miss,
            ..
        })
    )));
    assert_eq!(
        t.last_lines().last().map(String::as_str),
        Some(
            "defense Ganger 2: 6 dice (Reaction 3 + Intuition 3) [6 5 2 2 3 3], 2 hits vs 2 hits: the attack misses (a tie goes to the defender)"
        )
    );
    assert_eq!(t.c("Ganger 2").damage.physical, 0);
}

#[test]
fn a_soak_asked_on_the_line_of_a_defense_that_wins_is_skipped_and_the_rolls_stand() {
    // Given Ana and the gangers
    let mut t = armed();
    let entries = t.enc.history().len();
    // When Ana's attack, Ganger 2's defense and its soak are asked in one line, and it misses
    t.roll(
        "attack Ana Ganger 2 pool 3 defense soak",
        &[6, 5, 1, 6, 5, 2, 2, 3, 3],
    );
    // Then the attack and the defense are rolled and logged, and no soak is rolled
    let lines = t.last_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("attack Ana on Ganger 2"), "{lines:?}");
    assert!(
        lines[1].ends_with("2 hits vs 2 hits: the attack misses (a tie goes to the defender)"),
        "{lines:?}"
    );
    assert_eq!(t.enc.history().len(), entries + 1);
    assert_eq!(t.c("Ganger 2").damage.physical, 0);
    assert_eq!(t.state().sr5.pending, []);
    // The same with every roll's hits typed, and with the NPC's defense rolled unasked
    t.run("attack Ana Ganger 2 pool 3 hits 1 defense 6 hits 3 soak 5 hits 0");
    assert!(t.last_lines()[1].ends_with("3 hits vs 1 hit: the attack misses"));
    t.roll(
        "attack Ana Ganger 2 pool 3 hits 1 soak",
        &[6, 2, 2, 2, 2, 2],
    );
    assert!(
        t.last_lines()[1]
            .ends_with("1 hit vs 1 hit: the attack misses (a tie goes to the defender)")
    );
    assert_eq!(t.c("Ganger 2").damage.physical, 0);
    // A soak alone after the miss is still refused: no attack waits for it
    assert!(matches!(
        t.refuse("attack Ana Ganger 2 soak"),
        RuleError::Sr5(Sr5Error::NoAttack { .. })
    ));
}

#[test]
fn a_players_typed_defense_that_wins_skips_the_soak_asked_with_it() {
    // Given the Ganger's attack on Ana (a PC), waiting for her defense
    let mut t = armed();
    t.roll("attack Ganger 1 Ana pool 4", &[6, 2, 2, 2]);
    // When her player types the defense and the soak in one line, and the defense wins
    t.run("attack Ganger 1 Ana defense 9 hits 2 soak 9 hits 1");
    // Then the defense is logged, no soak is taken, and the attack is over
    assert_eq!(t.last_lines().len(), 1, "{:?}", t.last_lines());
    assert!(t.last_lines()[0].ends_with("2 hits vs 1 hit: the attack misses"));
    assert_eq!(t.c("Ana").damage.physical, 0);
    assert_eq!(t.state().sr5.pending, []);
}

#[test]
fn physical_damage_becomes_stun_when_the_dv_does_not_exceed_the_armor() {
    let mut t = armed();
    t.run("weapon Ana add Sap dv 3 p ap 0 acc 6");
    // Net 1: DV 4 against armor 6 → Stun; the soak (Body 4 + 6) takes 1 off.
    t.roll(
        "attack Ana Ganger 1 with Sap pool 2",
        &[6, 5, 5, 2, 2, 2, 3, 3, 5, 1, 1, 1, 2, 2, 2, 3, 3, 4],
    );
    let l = t.last_lines();
    assert_eq!(
        l[2],
        "soak Ganger 1: 10 dice (Body 4 + armor 6) [5 1 1 1 2 2 2 3 3 4], 1 hit: DV 4 − 1 hit = 3 Stun (Physical becomes Stun: DV 4 does not exceed armor 6)"
    );
    assert_eq!(t.c("Ganger 1").damage.stun, 3);
    assert_eq!(t.c("Ganger 1").damage.physical, 0);
}

#[test]
fn ap_lowers_the_armor_in_the_soak_and_all_hits_resisted_leave_no_damage() {
    let mut t = armed();
    t.run("weapon Ana add Pistol dv 2 p ap -4 acc 3");
    t.roll(
        "attack Ana Ganger 1 with Pistol pool 1",
        &[6, 2, 2, 2, 2, 2, 2, 6, 6, 5, 2, 2, 2],
    );
    // Armor 6 − 4 = 2: Body 4 + 2 = 6 dice, 3 hits against DV 3.
    assert_eq!(
        t.last_lines().last().map(String::as_str),
        Some(
            "soak Ganger 1: 6 dice (Body 4 + armor 6 with AP -4: 2) [6 6 5 2 2 2], 3 hits: DV 3 − 3 hits = no damage"
        )
    );
    assert_eq!(
        t.c("Ganger 1").damage,
        srtrack::encounter::model::Damage::default()
    );
}

#[test]
fn an_attack_on_a_pc_waits_for_the_players_dice() {
    let mut t = armed();
    t.roll("attack Ganger 1 Ana pool 6", &[6, 6, 5, 2, 2, 3]);
    assert!(matches!(
        t.state().sr5.pending.first().map(|p| p.stage),
        Some(Stage::Defense { hits: 3 })
    ));
    assert_eq!(
        t.refuse("attack Ganger 1 Ana").to_string(),
        "the attack of Ganger 1 on Ana waits for Ana's defense: give it (`defense N`, `dice …` to type the roll), or `defense` alone for srtrack to roll it"
    );
    assert!(matches!(
        t.refuse("attack Ganger 1 Ana soak 4"),
        RuleError::Sr5(Sr5Error::StepOrder { .. })
    ));
    t.run("attack Ganger 1 Ana defense 9 dice 5 2 2 2 3 3 4 4 1");
    assert!(matches!(
        t.state().sr5.pending.first().map(|p| p.stage),
        Some(Stage::Soak { dv: 7 })
    ));
    // Body 4 and no armor: four dice typed at the table.
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
fn a_defender_the_wounds_leave_no_die_is_still_attacked_and_scores_no_hit() {
    let mut t = armed();
    t.run("add Bo npc int 3 rea 3 body 4 will 3");
    t.run("damage Bo 9");
    t.run("damage Bo 9 stun");
    // An area attack on Bo and Ganger 2: Bo's Reaction 3 + Intuition 3 fall to no die.
    t.roll(
        "attack Ana Bo, Ganger 2 pool 6",
        &[
            5, 5, 2, 2, 2, 2, // attack: 2 hits
            5, 5, 6, 6, // soak Bo, Body 4 (wounds do not count): 4 hits
            5, 5, 6, 2, 2, 2, // defense Ganger 2: 3 hits, a miss
        ],
    );
    assert_eq!(
        t.last_lines()[1],
        "defense Bo: 0 dice (Reaction 3 + Intuition 3, wounds -6), 0 hits vs 2 hits: the attack hits, net 2, DV 10P"
    );
    assert_eq!(t.c("Bo").downed, Some(DownCause::PhysicalFull));
    // Ana in the same state attacks with no die and scores no hit: the defender wins the tie.
    t.run("damage Ana 9");
    t.run("damage Ana 9 stun");
    t.roll("attack Ana Ganger 2 pool 6", &[2, 2, 2, 2, 2, 2]);
    assert_eq!(
        t.last_lines(),
        [
            "attack Ana on Ganger 2 with Ares Predator (DV 8P, AP -1, accuracy 5): 0 dice (6, wounds -6), limit 5, 0 hits",
            "defense Ganger 2: 6 dice (Reaction 3 + Intuition 3) [2 2 2 2 2 2], 0 hits vs 0 hits: the attack misses (a tie goes to the defender)",
        ]
    );
    // Attacked, Ana (a PC) types her defense at the table: no die, 0 hits.
    t.roll("attack Ganger 1 Ana pool 4", &[6, 2, 2, 2]);
    t.run("attack Ganger 1 Ana defense 9 hits 0");
    assert!(matches!(
        t.state().sr5.pending.first().map(|p| p.stage),
        Some(Stage::Soak { dv: 6 })
    ));
    t.run("attack Ganger 1 Ana soak dice 5 2 2 2");
    assert_eq!(t.c("Ana").downed, Some(DownCause::PhysicalFull));
}

#[test]
fn push_the_limit_lifts_the_accuracy_and_take_aim_may_raise_it_instead_of_the_pool() {
    let mut t = armed();
    // Ana's Predator has accuracy 5; six hits rolled.
    let six = [6, 6, 5, 5, 5, 5, 2, 2, 2, 2, 2, 2, 6, 6, 6, 6];
    t.roll("attack Ana Ganger 2 pool 6 push", &six);
    assert_eq!(
        t.last_lines()[0],
        "attack Ana on Ganger 2 with Ares Predator (DV 8P, AP -1, accuracy 5): 6 dice [6 6 5 5 5 5], limit 5 pushed (1 Edge), 6 hits"
    );
    assert!(t.last_lines()[1].ends_with("0 hits vs 6 hits: the attack hits, net 6, DV 14P"));
    assert_eq!(t.c("Ana").edge_left, 2);
    // Two Take Aim actions on Accuracy: limit 7 (Willpower 5 allows up to 3).
    // Defense: 6 hits of 6 dice; soak: Body 4 + armor 6 with AP -1, 9 dice, 9 hits.
    let eight = [
        6, 6, 6, 6, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    ];
    t.roll("attack Ana Ganger 1 pool 8 aim 2", &eight);
    assert_eq!(
        t.last_lines()[0],
        "attack Ana on Ganger 1 with Ares Predator (DV 8P, AP -1, accuracy 5): 8 dice [6 6 6 6 5 5 5 5], limit 7 (accuracy 5 + Take Aim 2), 7 hits (8 rolled)"
    );
    assert!(t.last_lines()[1].ends_with("6 hits vs 7 hits: the attack hits, net 1, DV 9P"));
    assert_eq!(
        t.refuse("attack Ana Ganger 1 pool 6 aim 4").to_string(),
        "Ana's Take Aim gives at most +3 (half Willpower, rounded up), not +4: `aim 1` to `aim 3`"
    );
    assert!(matches!(
        t.refuse("attack Ana Ganger 1 pool 6 aim 1 push"),
        RuleError::Sr5(Sr5Error::AimPushed)
    ));
    t.run("attack Ana Ganger 1 pool 1 hits 0 push defense 1 hits 0");
    t.run("attack Ana Ganger 1 pool 1 hits 0 push defense 1 hits 0");
    assert_eq!(
        t.refuse("attack Ana Ganger 1 pool 1 push").to_string(),
        "Ana has no Edge left (needs 1, has 0)"
    );
}

#[test]
fn srtrack_rolls_a_pcs_steps_when_asked() {
    let mut t = armed();
    t.roll(
        "attack Ganger 1 Ana pool 2 defense soak",
        &[6, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
    );
    // Club 5 + net 1 against Reaction 5 + Intuition 4 and Body 4, all rolled here.
    assert_eq!(t.c("Ana").damage.physical, 6);
}

#[test]
fn dodge_waits_for_the_defense_pool_with_the_skill_added() {
    let mut t = fighting();
    t.run("act Ganger 2 Dodge");
    t.run("act Ana Fire Gun");
    t.roll("attack Ana Ganger 2 pool 4", &[6, 5, 2, 2]);
    assert!(matches!(
        t.state().sr5.pending.first().map(|p| p.stage),
        Some(Stage::Defense { .. })
    ));
    assert_eq!(
        t.refuse("attack Ana Ganger 2 defense").to_string(),
        "Ganger 2's defense adds Gymnastics (Dodge), which srtrack does not know: type the whole pool (`defense N`)"
    );
    t.roll(
        "attack Ana Ganger 2 defense 9",
        &[5, 5, 6, 2, 2, 2, 3, 3, 3],
    );
    assert!(
        t.last_lines()[0].starts_with("defense Ganger 2 with Dodge: 9 dice [5 5 6 2 2 2 3 3 3], 3 hits vs 2 hits: the attack misses"),
        "{:?}",
        t.last_lines()
    );
    let kit = t.state().sr5.kit(t.c("Ganger 2").id).expect("a kit");
    assert!(kit.defense_adds.is_empty(), "Dodge is a one-time add");
}

#[test]
fn full_defense_adds_willpower_to_the_defense() {
    let mut t = fighting();
    t.run("act Ganger 2 Full Defense");
    t.run("act Ana Fire Gun");
    t.roll(
        "attack Ana Ganger 2 pool 2",
        &[6, 6, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3],
    );
    assert!(t.last_lines()[1].starts_with(
        "defense Ganger 2: 8 dice (Reaction 3 + Intuition 3 + Willpower (Full Defense) 2)"
    ));
}

#[test]
fn block_counts_against_melee_attacks_only() {
    let mut t = fighting();
    t.run("act Ganger 2 Block");
    // A gun: Block does not apply, srtrack rolls the defense as usual and Block stays.
    t.run("act Ana Fire Gun");
    t.roll("attack Ana Ganger 2 pool 1", &[2, 2, 2, 2, 2, 2, 2]);
    let kit = t.state().sr5.kit(t.c("Ganger 2").id).expect("a kit");
    assert_eq!(kit.defense_adds, ["Block"]);
    // A club (Ganger 1's Intercept): it does, and the defense waits for its pool.
    t.run("act Ganger 1 Intercept");
    t.roll("attack Ganger 1 Ganger 2 pool 1", &[2]);
    assert!(matches!(
        t.state().sr5.pending.first().map(|p| p.stage),
        Some(Stage::Defense { .. })
    ));
}

#[test]
fn block_and_parry_against_a_waiting_gun_attack_and_parry_with_no_melee_weapon_are_refused() {
    // Given Ana's Ares attack waits for Ganger 2's defense (the GM rolls the NPCs at the table)
    let mut t = Table::with_rules(|r| r.sr5.npcs_roll_at_the_table = true);
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    t.run("add Ganger x2 int 3 rea 3 edge 1 body 4 will 2");
    t.run("weapon Ana add Ares Predator dv 8P ap -1 acc 5 ammo 10");
    t.run("weapon Ganger 1 add Club dv 5 p ap 0 acc 4");
    t.run("roll Ana hits 3");
    t.run("roll Ganger 1 hits 2");
    t.run("roll Ganger 2 hits 1");
    t.run("start");
    t.run("act Ana Fire Gun");
    t.roll("attack Ana Ganger 2 pool 6", &[6, 6, 5, 2, 2, 3]);
    let ip = t.ip("Ganger 2");
    // When Ganger 2 buys Block or Parry, then each is refused and no IP goes
    for action in ["Block", "Parry"] {
        assert_eq!(
            t.refuse(&format!("act Ganger 2 {action}")).to_string(),
            format!(
                "{action} counts only against melee attacks, and the attack waiting for Ganger 2's defense is Ana's Ares Predator, not a melee weapon"
            )
        );
    }
    assert_eq!(t.ip("Ganger 2"), ip);
    // While Dodge counts against any attack
    t.run("act Ganger 2 Dodge");
    // And Ana, whose sheet carries only the Ares, cannot Parry Ganger 1's club (an Intercept)
    t.run("act Ganger 1 Intercept");
    t.roll("attack Ganger 1 Ana pool 4", &[6, 6, 2, 2]);
    assert_eq!(
        t.refuse("act Ana Parry").to_string(),
        "Parry needs a melee weapon, and Ana carries none (has Ares Predator): add one (`weapon Ana add NAME dv N ap N acc N`)"
    );
    // But Block, and Parry by Ganger 2 whose sheet holds no weapon at all, are taken
    t.run("act Ana Block");
    t.run("act Ganger 2 Parry");
}

#[test]
fn a_new_attack_drops_one_left_waiting() {
    let mut t = armed();
    t.roll("attack Ganger 1 Ana pool 2", &[6, 2]);
    t.roll("attack Ana Ganger 2 pool 1", &[2, 2, 2, 2, 2, 2, 2]);
    assert!(
        t.last_lines()[0] == "the attack of Ganger 1 on Ana is dropped, unfinished",
        "{:?}",
        t.last_lines()
    );
    assert!(matches!(
        t.refuse("attack Ganger 1 Ana defense 4"),
        RuleError::Sr5(Sr5Error::NoAttack { .. })
    ));
}

#[test]
fn removing_the_attacker_or_a_target_drops_the_steps_it_leaves_unfinishable() {
    // Given Ganger 1's attack waiting for Ana's defense
    let mut t = armed();
    t.roll("attack Ganger 1 Ana pool 2", &[6, 2]);
    // When Ganger 1 leaves the fight
    t.run("remove Ganger 1 because fled");
    // Then its attack is dropped, logged as a new attack's drop is, and nothing waits
    assert_eq!(
        t.last_lines()[0],
        "the attack of Ganger 1 on Ana is dropped, unfinished"
    );
    assert_eq!(t.state().sr5.pending, []);

    // Given a GM who rolls the NPCs' dice, and Ana's attack waiting on both gangers
    let mut t = Table::with_rules(|r| r.sr5.npcs_roll_at_the_table = true);
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    t.run("add Ganger x2 int 3 rea 3 edge 1 body 4 will 2");
    t.run("weapon Ana add Ares Predator dv 8P ap -1 acc 5 ammo 10");
    t.roll("attack Ana Ganger 1, Ganger 2 pool 2", &[6, 2]);
    // When a target leaves the fight
    t.run("remove Ganger 1");
    // Then its step is dropped and the other target's still waits for its defense
    assert_eq!(
        t.last_lines()[0],
        "the attack of Ana on Ganger 1 is dropped, unfinished"
    );
    let waiting: Vec<_> = t.state().sr5.pending.iter().map(|p| p.target).collect();
    assert_eq!(waiting, [t.c("Ganger 2").id]);
    t.roll("attack Ana Ganger 2 defense 6", &[2, 2, 2, 2, 2, 2]);
}

#[test]
fn an_attack_roll_in_a_fight_needs_an_attack_action_waiting_for_it() {
    // Given the fight, in Ana's turn, before she has taken any action
    let mut t = fighting();
    let before = t.state().clone();
    // When the GM rolls an attack for her, then it is refused in one sentence, nothing changed
    assert_eq!(
        t.refuse("attack Ana Ganger 2 pool 1").to_string(),
        "Ana has no attack action waiting for its attack in this character turn: take one first (`act Ana Fire Gun`, `act Ana Melee Attack`, a ready fired, an Intercept)"
    );
    assert_eq!(t.state(), &before);
    // Given she fires, then her attack is rolled, once: a second has no action behind it
    t.run("act Ana Fire Gun");
    t.roll("attack Ana Ganger 2 pool 1", &[2, 2, 2, 2, 2, 2, 2]);
    assert!(matches!(
        t.refuse("attack Ana Ganger 2 pool 1"),
        RuleError::Sr5(Sr5Error::NoAttackAction { .. })
    ));
    // Nor may Ganger 1 attack in her turn, but after an Intercept (an interrupt that attacks)
    assert!(matches!(
        t.refuse("attack Ganger 1 Ana pool 2"),
        RuleError::Sr5(Sr5Error::NoAttackAction { .. })
    ));
    t.run("act Ganger 1 Intercept");
    t.roll("attack Ganger 1 Ana pool 2", &[6, 2]);
}

#[test]
fn a_melee_attack_takes_a_melee_weapon_and_a_firing_action_a_firearm() {
    // Given Ana with a knife beside her gun, and Ganger 1 with a pistol beside his club
    let mut t = fighting();
    t.run("weapon Ana add Knife dv 3P ap -1 acc 5");
    t.run("weapon Ganger 1 add Colt dv 9P ap -2 acc 4 ammo 40");
    // When Ana fires with the knife named, then it is refused: Fire Gun fires a firearm
    t.run("act Ana Fire Gun");
    assert_eq!(
        t.refuse("attack Ana Ganger 1 with Knife pool 1")
            .to_string(),
        "Ana's Fire Gun is made with a firearm, and Knife is not one: name Ares Predator"
    );
    t.roll("attack Ana Ganger 2 pool 1", &[2, 2, 2, 2, 2, 2, 2]);
    // When Ganger 1's Melee Attack names the pistol, then it is refused
    t.run("next");
    t.run("reload Ganger 1 Colt");
    t.run("act Ganger 1 Melee Attack");
    assert_eq!(
        t.refuse("attack Ganger 1 Ana with Colt pool 2").to_string(),
        "Ganger 1's Melee Attack is made with a melee weapon, and Colt is not one: name Club"
    );
    // and with none named it is the club, whatever gun is in hand
    t.roll("attack Ganger 1 Ana pool 2", &[6, 2]);
    assert!(
        t.last_lines()[0].starts_with("attack Ganger 1 on Ana with Club"),
        "{:?}",
        t.last_lines()
    );
    // so Block counts against it.
    t.run("act Ana Block");
}

#[test]
fn a_weapon_that_does_not_exist_and_a_downed_target_are_refused() {
    let mut t = armed();
    assert_eq!(
        t.refuse("attack Ana Ganger 1 with Bazooka pool 6")
            .to_string(),
        "Ana has no weapon called \"Bazooka\" (has Ares Predator)"
    );
    assert_eq!(
        t.refuse("attack Ganger 2 Ana pool 6").to_string(),
        "Ganger 2 has no weapon: add one (`weapon Ganger 2 add NAME dv N ap N acc N`)"
    );
    t.run("down Ganger 2");
    assert_eq!(
        t.refuse("attack Ana Ganger 2 pool 6").to_string(),
        "Ganger 2 is Downed already: attack someone still standing"
    );
    assert!(matches!(
        t.refuse("attack Ana Ganger 1"),
        RuleError::Sr5(Sr5Error::NoAttack { .. })
    ));
}

#[test]
fn a_hit_rolled_while_its_target_stood_is_finished_after_the_target_goes_down() {
    // Given Ganger 1's club attack on Ana waiting for her defense, and Ana Downed by a full
    // Stun monitor before she gives it
    let mut t = armed();
    t.roll("attack Ganger 1 Ana pool 6", &[6, 6, 5, 2, 2, 3]);
    t.run("damage Ana 11 stun");
    assert_eq!(t.c("Ana").downed, Some(DownCause::StunFull));
    // When the player types her defense (her wounds take 3 dice off), then her soak
    t.run("attack Ganger 1 Ana defense 9 dice 5 2 2 2 3 3");
    t.run("attack Ganger 1 Ana soak dice 6 5 1 2");
    // Then the hit lands on her Physical monitor as any damage on a Downed character does
    assert_eq!(
        t.last_lines()[..2],
        [
            "soak Ana: 4 dice (Body 4 + armor 0) [6 5 1 2], 2 hits: DV 7 − 2 hits = 5 Physical",
            "Ana takes 5 Physical damage",
        ]
    );
    assert_eq!(t.c("Ana").damage.physical, 5);
    assert_eq!(t.state().sr5.pending, []);
    // And a new attack roll on her is still refused
    assert_eq!(
        t.refuse("attack Ganger 1 Ana pool 6").to_string(),
        "Ana is Downed already: attack someone still standing"
    );
}

#[test]
fn a_step_srtrack_rolls_goes_on_for_a_target_the_gm_downed_after_the_roll() {
    // Given Ana's attack on Ganger 2 waiting at the table (NPCs rolled there), Ganger 2 then
    // downed by the GM
    let mut t = Table::with_rules(|r| r.sr5.npcs_roll_at_the_table = true);
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    t.run("add Ganger x2 int 3 rea 3 edge 1 body 4 will 2");
    t.run("weapon Ana add Ares Predator dv 8P ap -1 acc 5 ammo 10");
    t.roll("attack Ana Ganger 2 pool 6", &[6, 6, 5, 2, 2, 3]);
    t.run("down Ganger 2");
    // When its defense is left to srtrack
    t.roll("attack Ana Ganger 2 defense", &[1, 2, 2, 3, 3, 4]);
    // Then it is rolled from the sheet and the chain goes on to the soak
    assert_eq!(
        t.state().sr5.pending.first().map(|p| p.stage),
        Some(Stage::Soak { dv: 11 })
    );
}

#[test]
fn the_attackers_check_asked_before_any_target_refuses_as_the_attack_command_does() {
    // Given Ganger 1 with a club and Ganger 2 with no weapon
    let mut t = armed();
    let (g1, g2) = (t.c("Ganger 1").id, t.c("Ganger 2").id);
    // When the attack form asks whether each may attack, before a target is named
    // Then Ganger 1 may, and Ganger 2 is refused with the error `attack` gives him
    assert_eq!(t.enc.may_attack(g1, Attack::Armed(None)), Ok(()));
    let typed = t.refuse("attack Ganger 2 Ana pool 6");
    assert_eq!(t.enc.may_attack(g2, Attack::Armed(None)), Err(typed));
    // and once Ganger 1 is Downed, he is refused as `attack` refuses him
    t.run("down Ganger 1");
    let typed = t.refuse("attack Ganger 1 Ana pool 6");
    assert_eq!(typed.to_string(), "Ganger 1 is Downed and cannot act");
    assert_eq!(t.enc.may_attack(g1, Attack::Armed(None)), Err(typed));
}

#[test]
fn a_typed_attack_asks_the_attacker_before_its_targets_as_the_form_does() {
    // Given a fight where Ana is Downed, Ganger 2 (no weapon) standing, Ganger 1 Downed too
    let mut t = fighting();
    let (ana, g2) = (t.c("Ana").id, t.c("Ganger 2").id);
    t.run("down Ana");
    t.run("down Ganger 1");
    let downed = t.enc.may_attack(ana, Attack::Armed(None));
    let unarmed = t.enc.may_attack(g2, Attack::Armed(None));
    assert_eq!(
        downed.clone().map_err(|e| e.to_string()),
        Err("Ana is Downed and cannot act".to_string())
    );
    // When they attack at targets the engine would refuse too (themself, a Downed one, one
    // named twice, one of several), alone and in an area attack
    for (line, form) in [
        ("attack Ana Ana pool 8", &downed),
        ("attack Ana Ganger 1 pool 8", &downed),
        ("attack Ana Ganger 2, Ganger 2 pool 8", &downed),
        ("attack Ana Ganger 2, Ganger 1 pool 8", &downed),
        ("attack Ganger 2 Ganger 2 pool 6", &unarmed),
        ("attack Ganger 2 Ana, Ganger 1 pool 6", &unarmed),
    ] {
        // Then the attacker's refusal comes first, the form's sentence, and nothing changed
        assert_eq!(Err(t.refuse(line)), *form, "{line}");
    }
}

#[test]
fn a_downed_attacker_at_a_misspelled_target_is_refused_for_being_downed_as_it_is_read() {
    // Given a fight where Ana is Downed
    let mut t = fighting();
    t.run("down Ana");
    // When she attacks a target that is no one, alone or among several
    // Then the line is refused with her own sentence, as the command line and `exec` refuse it
    for line in [
        "attack Ana Gangr 1 pool 6",
        "attack Ana Ganger 1, Gangr 2 pool 6",
    ] {
        assert_eq!(t.unread(line), "Ana is Downed and cannot act", "{line}");
    }
    // And a chain under way (no `pool`) with a wrong name still gets the name's error
    let err = t.unread("attack Ana Gangr 1 defense 3");
    assert!(
        err.starts_with("word 3 \"Gangr\": expected a combatant name"),
        "{err}"
    );
}

#[test]
fn firing_actions_take_the_catalogues_rounds_and_too_few_are_refused() {
    let mut t = fighting();
    let ev = t.run("act Ana Fire Full-Auto Weapon (6 Bullets)");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Sr5(Sr5Event::RoundsFired { rounds: 6, .. })))
    );
    assert_eq!(
        t.last_lines()[1],
        "Ana's Ares Predator fires 6 rounds: 4 left"
    );
    // Ana's next Action Phase (one attack action in each).
    t.run("next");
    t.run("next");
    t.run("next");
    assert_eq!(
        t.refuse("act Ana Fire Full-Auto Weapon (6 Bullets)")
            .to_string(),
        "Ana's Ares Predator has 4 rounds left, Fire Full-Auto Weapon (6 Bullets) takes 6: reload first (`reload Ana`)"
    );
    // Fire Gun: the catalogue gives no ammo; rules.ron's one shot.
    t.run("act Ana Fire Gun");
    let kit = t.state().sr5.kit(t.c("Ana").id).expect("a kit");
    assert_eq!(kit.weapons[0].ammo.map(|a| a.left), Some(3));
    t.run("reload Ana");
    assert_eq!(t.last_lines(), ["Ana reloads Ares Predator: 10 rounds"]);
}

#[test]
fn reload_actions_refill_the_firearm_in_hand() {
    let mut t = fighting();
    t.run("act Ana Fire Full-Auto Weapon (6 Bullets)");
    t.run("next");
    t.run("next");
    t.run("next");
    let ev = t.run("act Ana Reload Firearm");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Sr5(Sr5Event::Reloaded { rounds: 10, .. })))
    );
}

#[test]
fn weapons_and_armor_are_checked_as_they_go_on_the_sheet() {
    let mut t = armed();
    assert_eq!(
        t.refuse("weapon Ana add Ares Predator dv 8 ap -1 acc 5")
            .to_string(),
        "Ana already has a weapon called \"Ares Predator\": weapon names are unique per character"
    );
    assert_eq!(
        t.refuse("weapon Ana add Cannon dv 99 ap 0 acc 5")
            .to_string(),
        "DV 99 is out of range: allowed 0 to 30"
    );
    // A gun that holds no round could never be reloaded nor fired: a weapon that takes none
    // (melee, thrown, a bow) leaves `ammo` out.
    assert_eq!(
        t.refuse("weapon Ana add Empty dv 8 ap 0 acc 5 ammo 0")
            .to_string(),
        "ammo 0 is out of range: allowed 1 to 250"
    );
    assert_eq!(
        t.refuse("armor Ana -2").to_string(),
        "armor -2 is out of range: allowed 0 to 50"
    );
    assert_eq!(
        t.refuse("reload Ganger 1 Club").to_string(),
        "Ganger 1's Club takes no ammunition: nothing to reload"
    );
    assert_eq!(
        t.refuse("reload Ganger 2").to_string(),
        "Ganger 2 has no firearm in hand to reload: name one (`reload Ganger 2 WEAPON`)"
    );
}

#[test]
fn undo_and_redo_of_an_attack_never_roll_again() {
    let mut t = armed();
    let first = t.roll(
        "attack Ana Ganger 2 pool 2",
        &[6, 6, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2],
    );
    t.run("undo");
    assert_eq!(t.c("Ganger 2").damage.physical, 0);
    t.run("redo");
    assert_eq!(
        t.enc.applied().last().map(|e| e.events.clone()),
        Some(first)
    );
    assert_eq!(t.c("Ganger 2").damage.physical, 10);
}

#[test]
fn full_defense_or_dodge_still_in_effect_is_not_bought_again() {
    let mut t = fighting();
    t.run("act Ganger 2 Full Defense");
    t.run("next");
    t.run("next");
    let ip = t.ip("Ganger 2");
    assert_eq!(
        t.refuse("act Ganger 2 Full Defense").to_string(),
        "Ganger 2 already has Full Defense: taking Full Defense again would add nothing while it lasts"
    );
    assert_eq!(t.ip("Ganger 2"), ip, "no IP spent");
    // Any lasting effect an action starts: Prone from Drop Prone.
    t.run("act Ganger 2 Drop Prone");
    assert!(matches!(
        t.refuse("act Ganger 2 Drop Prone"),
        RuleError::AlreadyInEffect { .. }
    ));
    // Dodge waits for one defense test; once used, it may be taken again.
    t.run("act Ganger 1 Dodge");
    assert_eq!(
        t.refuse("act Ganger 1 Dodge").to_string(),
        "Ganger 1's Dodge already waits for the next defense test: a second one would add nothing to it"
    );
    t.run("act Ganger 1 Block");
    assert!(matches!(
        t.refuse("act Ganger 1 Block"),
        RuleError::Sr5(Sr5Error::DefenseAddWaiting { .. })
    ));
}

#[test]
fn a_dodge_no_defense_test_used_lapses_when_the_round_ends() {
    // Given Ganger 1's Dodge, bought in round 1 and used by no defense test
    let mut t = fighting();
    t.run("act Ganger 1 Dodge");
    let dodges = |t: &Table| {
        let id = t.c("Ganger 1").id;
        t.state()
            .sr5
            .kit(id)
            .map(|k| k.defense_adds.clone())
            .unwrap_or_default()
    };
    assert_eq!(dodges(&t), vec!["Dodge".to_string()]);
    // When the round ends
    while t.state().fight().is_some_and(|f| f.round == 1) {
        t.run("next");
    }
    // Then it waits no more, and a Dodge may be bought again
    assert!(dodges(&t).is_empty());
    t.run("act Ganger 1 Dodge");
    assert_eq!(dodges(&t), vec!["Dodge".to_string()]);
}

#[test]
fn a_dodge_that_lapses_unused_with_the_round_is_told_in_the_log() {
    // Given Ganger 1's Dodge, bought in round 1 and used by no defense test, and Ana's attack
    // on Ganger 2 waiting for the Block he bought against it
    let mut t = Table::with_rules(|r| r.sr5.npcs_roll_at_the_table = true);
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    t.run("add Ganger x2 int 3 rea 3 edge 1 body 4 will 2");
    t.run("weapon Ana add Club dv 5P ap 0 acc 4");
    t.run("roll Ana hits 3");
    t.run("roll Ganger 1 hits 2");
    t.run("roll Ganger 2 hits 1");
    t.run("start");
    t.run("act Ganger 1 Dodge");
    t.run("act Ana Melee Attack");
    t.roll("attack Ana Ganger 2 pool 4", &[6, 6, 2, 2]);
    t.run("act Ganger 2 Block");
    // When the round ends
    let mut lines = Vec::new();
    while t.state().fight().is_some_and(|f| f.round == 1) {
        t.run("next");
        lines = t.last_lines();
    }
    // Then the log says the Dodge lapsed, and nothing of the Block still waiting
    assert!(
        lines.contains(&"Ganger 1's Dodge lapses unused with the round".to_string()),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("Block")), "{lines:?}");
}

#[test]
fn clearing_a_waiting_dodge_says_it_is_no_status_and_changes_nothing() {
    // Given Ganger 1's Dodge, shown beside the statuses as waiting for the next defense
    let mut t = fighting();
    t.run("act Ganger 1 Dodge");
    let before = t.state().clone();
    // When the GM clears it as a status
    let refused = t.refuse("clear Ganger 1 dodge");
    // Then one sentence says what it is and how to take it back, and nothing changed
    assert_eq!(
        refused.to_string(),
        "Ganger 1's Dodge is no status to clear: it adds to Ganger 1's next defense test and lapses at the round's end (`undo` takes it back, IP and all)"
    );
    assert_eq!(t.state(), &before);
    // A status of another name is still refused as none
    assert!(matches!(
        t.refuse("clear Ganger 1 Block"),
        RuleError::NoSuchStatus { .. }
    ));
}

#[test]
fn evasive_driving_adds_intuition_to_the_defense_until_the_round_ends() {
    // Given Ganger 2 at the wheel, driving evasively (4 IP, the vehicle's Full Defense)
    let mut t = fighting();
    t.run("act Ganger 2 Evasive Driving");
    let status = t
        .c("Ganger 2")
        .status("Evasive Driving")
        .expect("the status");
    assert_eq!(status.end, StatusEnd::EndOfRound);
    // When Ana shoots at it, its defense adds the driver's Intuition
    t.run("act Ana Fire Gun");
    t.roll(
        "attack Ana Ganger 2 pool 2",
        &[2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
    );
    assert!(
        t.last_lines()[1].starts_with(
            "defense Ganger 2: 9 dice (Reaction 3 + Intuition 3 + Intuition (Evasive Driving) 3)"
        ),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn evasive_driving_under_rules_from_before_it_costs_its_ip_and_adds_nothing() {
    // Given a fight whose rules (an older save's) know no Evasive Driving status
    let mut t = Table::with_rules(|r| {
        r.statuses.retain(|s| s.name != "Evasive Driving");
        r.sr5
            .defense_statuses
            .retain(|d| d.status != "Evasive Driving");
    });
    for line in [
        "add Ana pc int 4 rea 5 body 4 will 5",
        "add Ganger int 3 rea 3 body 4 will 2",
        "weapon Ana add Pistol dv 8 p ap -1 acc 5 ammo 10",
        "roll Ana hits 3",
        "roll Ganger hits 2",
        "start",
    ] {
        t.run(line);
    }
    // When the Ganger drives evasively: 4 IP, as before, and no status
    t.run("act Ganger Evasive Driving");
    assert_eq!(t.ip("Ganger"), 0);
    assert!(t.c("Ganger").statuses.is_empty());
    // Then the defense is the usual one
    t.run("act Ana Fire Gun");
    t.roll("attack Ana Ganger pool 2", &[2, 2, 2, 2, 2, 2, 2, 2]);
    assert!(
        t.last_lines()[1].starts_with("defense Ganger: 6 dice (Reaction 3 + Intuition 3)"),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn one_round_left_is_said_in_the_singular() {
    // Given Ana's Ares Predator with one round left (10 less six, then three)
    let mut t = fighting();
    t.run("act Ana Fire Full-Auto Weapon (6 Bullets)");
    t.run("next");
    t.run("next");
    t.run("next");
    t.run("act Ana Fire Gun mode BF");
    t.run("next");
    t.run("next");
    t.run("next");
    // When a burst is fired
    // Then the refusal says "1 round left"
    assert_eq!(
        t.refuse("act Ana Fire Gun mode BF").to_string(),
        "Ana's Ares Predator has 1 round left, Fire Gun BF takes 3: reload first (`reload Ana`)"
    );
}
