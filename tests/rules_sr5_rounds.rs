//! Given/when/then for the rounds SR5's firing actions take from the firearm in hand, under the
//! built-in catalogue (sr5-actions-catalogue.txt: Full-Auto 6 as a Simple Action, 10 as a
//! Complex one; Fire Gun, the Long or Semi-Auto Burst and Quick Draw's shot by the modes in
//! `attack_actions` of `rules.ron`).

mod common;
use std::sync::Arc;

use common::Table;
use srtrack::catalogue::Catalogue;
use srtrack::encounter::system::sr5::Sr5Event;
use srtrack::encounter::{Encounter, Event};
use srtrack::rules::HouseRules;
use srtrack::save::{SaveFile, file};

/// Jinx on her turn, with the sheet lines `gear` give her, and Bo (`bo`: his side) after her.
fn jinx_and_bo(bo: &str, gear: &[&str]) -> Table {
    let catalogue =
        Catalogue::embedded(&HouseRules::embedded()).expect("the built-in catalogue loads");
    jinx_and_bo_under(catalogue, bo, gear)
}

/// The same under `catalogue`.
fn jinx_and_bo_under(catalogue: Catalogue, bo: &str, gear: &[&str]) -> Table {
    let rules = HouseRules::embedded();
    let mut t = Table {
        enc: Encounter::new(Arc::new(rules), Arc::new(catalogue)),
    };
    t.run("add Jinx pc int 5 rea 5 edge 2 body 4 will 4");
    t.run(&format!("add Bo {bo} int 3 rea 3 body 4 will 3"));
    for line in gear {
        t.run(line);
    }
    t.run("roll Jinx hits 4");
    t.run("roll Bo hits 1");
    t.run("start");
    t
}

/// Jinx with a 12-round Ares in hand on her turn, Bo after her.
fn gunfight() -> Table {
    jinx_and_bo("npc", &[ARES])
}

/// The rounds left in Jinx's Ares.
fn left(t: &Table) -> Option<u8> {
    t.state()
        .sr5
        .kit(t.c("Jinx").id)
        .and_then(|k| k.weapon("Ares"))
        .and_then(|(_, w)| w.ammo)
        .map(|a| a.left)
}

#[test]
fn each_firing_action_takes_its_rounds_and_undo_gives_them_back() {
    for (action, rounds) in [
        ("Fire Gun", 1),
        ("Fire Full-Auto Weapon (6 Bullets)", 6),
        ("Fire Full-Auto Weapon (10 Bullets)", 10),
        ("Fire Long Burst or Semi-Auto Burst", 6),
        ("Fire Long Burst or Semi-Auto Burst mode BF", 6),
        ("Fire Long Burst or Semi-Auto Burst mode SA", 3),
    ] {
        let mut t = gunfight();
        t.run(&format!("act Jinx {action}"));
        assert_eq!(left(&t), Some(12 - rounds), "{action}");
        t.run("undo");
        assert_eq!(left(&t), Some(12), "{action}");
        t.run("redo");
        assert_eq!(left(&t), Some(12 - rounds), "{action}");
    }
}

#[test]
fn a_firing_action_with_too_few_rounds_left_is_refused_and_changes_nothing() {
    // Given Jinx fired 10 of her 12 rounds, and her next turn comes (1 IP left + 1)
    let mut t = gunfight();
    t.run("act Jinx Fire Full-Auto Weapon (10 Bullets)");
    t.run("next");
    t.run("next");
    assert_eq!(t.turn(), "Jinx");
    // When she fires Full-Auto for 6, then it is refused (the Table checks nothing changed)
    assert_eq!(
        t.refuse("act Jinx Fire Full-Auto Weapon (6 Bullets)")
            .to_string(),
        "Jinx's Ares has 2 rounds left, Fire Full-Auto Weapon (6 Bullets) takes 6: reload first (`reload Jinx`)"
    );
    // and a single shot still goes.
    t.run("act Jinx Fire Gun");
    assert_eq!(left(&t), Some(1));
}

// ----- Fire Gun's fire modes (the catalogue's Fire Gun: a Simple Action in Single-Shot,
// Semi-Automatic, Burst-Fire or Fully-Auto mode; 3 bullets to a burst, 6 to full-auto) -----

#[test]
fn fire_gun_takes_the_rounds_of_its_mode_and_undo_redo_follow() {
    for (mode, rounds) in [("SS", 1), ("SA", 1), ("BF", 3), ("FA", 6), ("bf", 3)] {
        // Given Jinx with 12 rounds in her Ares
        let mut t = gunfight();
        // When she fires Fire Gun in that mode
        t.run(&format!("act Jinx Fire Gun mode {mode}"));
        // Then the mode's rounds are gone; undo gives them back, redo takes them again
        assert_eq!(left(&t), Some(12 - rounds), "{mode}");
        t.run("undo");
        assert_eq!(left(&t), Some(12), "{mode}");
        t.run("redo");
        assert_eq!(left(&t), Some(12 - rounds), "{mode}");
    }
}

#[test]
fn fire_gun_without_a_mode_fires_its_first_mode_a_single_shot() {
    let mut t = gunfight();
    t.run("act Jinx Fire Gun");
    assert_eq!(left(&t), Some(11));
}

#[test]
fn the_log_names_the_mode_fired() {
    let mut t = gunfight();
    t.run("act Jinx Fire Gun mode BF");
    let lines = t.last_lines().join("\n");
    assert!(lines.contains("Fire Gun BF (Simple, 2 IP)"), "{lines}");
    assert!(lines.contains("fires 3 rounds: 9 left"), "{lines}");
}

#[test]
fn a_burst_with_too_few_rounds_left_is_refused_in_one_sentence() {
    // Given Jinx has 2 rounds left
    let mut t = gunfight();
    t.run("act Jinx Fire Full-Auto Weapon (10 Bullets)");
    t.run("next");
    t.run("next");
    // When she fires a burst, then it is refused and nothing changes
    assert_eq!(
        t.refuse("act Jinx Fire Gun mode BF").to_string(),
        "Jinx's Ares has 2 rounds left, Fire Gun BF takes 3: reload first (`reload Jinx`)"
    );
}

#[test]
fn a_mode_fire_gun_does_not_have_or_an_action_without_modes_is_refused() {
    let mut t = gunfight();
    assert_eq!(
        t.refuse("act Jinx Fire Gun mode XX").to_string(),
        "Fire Gun has no fire mode XX: SS, SA, BF or FA"
    );
    assert_eq!(
        t.refuse("act Jinx Take Aim mode BF").to_string(),
        "Take Aim has no fire modes: leave out `mode BF`"
    );
}

#[test]
fn a_ready_fire_gun_fires_its_mode_when_the_trigger_comes() {
    // Given Jinx readies a burst
    let mut t = gunfight();
    t.run("ready Jinx 2 when a guard shows do Fire Gun mode BF");
    assert_eq!(left(&t), Some(12));
    t.run("next");
    // When it fires, then the burst's 3 rounds go
    t.run("fire Jinx");
    assert_eq!(left(&t), Some(9));
}

#[test]
fn quick_draw_takes_the_rounds_of_the_shot_it_fires() {
    // The catalogue's Quick Draw: drawing and firing make one Simple Action together.
    for (line, rounds) in [
        ("act Jinx Quick Draw", 1),
        ("act Jinx Quick Draw mode BF", 3),
    ] {
        let mut t = gunfight();
        t.run(line);
        assert_eq!(left(&t), Some(12 - rounds), "{line}");
        t.run("undo");
        assert_eq!(left(&t), Some(12), "{line}");
    }
}

// ----- a firing action spent with no firearm in hand: its attack takes the rounds (ruling: the
// attack its attacker rolls next in the same character turn, from the weapon it is rolled with) -----

/// Jinx on her turn with nothing on her sheet; Bo, a player's character, rolls his own defense.
fn empty_handed() -> Table {
    jinx_and_bo("pc", &[])
}

/// The same, once Jinx has fired a burst (Fire Gun BF, 3 rounds) with no firearm in hand.
fn burst_empty_handed() -> Table {
    let mut t = empty_handed();
    assert_eq!(fired(&t.run("act Jinx Fire Gun mode BF")), []);
    t
}

/// Jinx is given the Ares and an attack is rolled for her with it: no rounds go.
fn armed_attack_refused(t: &mut Table) {
    t.run(ARES);
    assert_eq!(t.refuse(ATTACK).to_string(), NO_ACTION);
    assert_eq!(left(t), Some(12));
}

const NO_ACTION: &str = "Jinx has no attack action waiting for its attack in this character turn: take one first (`act Jinx Fire Gun`, `act Jinx Melee Attack`, a ready fired, an Intercept)";

/// The rounds each `RoundsFired` of these events took.
fn fired(events: &[Event]) -> Vec<u8> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Sr5(Sr5Event::RoundsFired { rounds, .. }) => Some(*rounds),
            _ => None,
        })
        .collect()
}

const ARES: &str = "weapon Jinx add Ares dv 8 ap -1 acc 5 ammo 12";
const ATTACK: &str = "attack Jinx Bo pool 8 hits 3";

#[test]
fn a_firing_action_spent_empty_handed_takes_its_rounds_when_its_attack_is_rolled_with_a_gun() {
    for (action, rounds) in [
        ("Fire Gun", 1),
        ("Fire Gun mode BF", 3),
        ("Fire Full-Auto Weapon (6 Bullets)", 6),
        ("Fire Long Burst or Semi-Auto Burst", 6),
        ("Fire Long Burst or Semi-Auto Burst mode SA", 3),
        ("Quick Draw mode FA", 6),
    ] {
        // Given Jinx fired with no firearm in hand: no rounds could be counted
        let mut t = empty_handed();
        assert_eq!(fired(&t.run(&format!("act Jinx {action}"))), [], "{action}");
        // and the GM then puts a 12-round Ares on her sheet
        t.run(ARES);
        // When her attack is rolled with it
        let attack = t.run(ATTACK);
        // Then the action's rounds go from the Ares with the roll, and the log says so
        assert_eq!(fired(&attack), [rounds], "{action}");
        assert_eq!(left(&t), Some(12 - rounds), "{action}");
        let word = if rounds == 1 { "round" } else { "rounds" };
        let lines = t.last_lines().join("\n");
        assert!(
            lines.contains(&format!(
                "Jinx's Ares fires {rounds} {word}: {} left",
                12 - rounds
            )),
            "{lines}"
        );
    }
}

#[test]
fn an_attack_whose_action_fired_with_the_gun_in_hand_takes_no_rounds_again() {
    // Given Jinx, Ares in hand, fires a burst: 3 rounds go as the action is spent
    let mut t = empty_handed();
    t.run(ARES);
    assert_eq!(fired(&t.run("act Jinx Fire Gun mode BF")), [3]);
    // When its attack is rolled, then no more go
    assert_eq!(fired(&t.run(ATTACK)), []);
    assert_eq!(left(&t), Some(9));
}

#[test]
fn an_attack_with_too_few_rounds_for_its_action_is_refused_and_changes_nothing() {
    // Given Jinx fired a burst empty-handed, and was then given a gun holding 2 rounds
    let mut t = burst_empty_handed();
    t.run("weapon Jinx add Ares dv 8 ap -1 acc 5 ammo 2");
    // When her attack is rolled, then it is refused in the words a firing action's refusal uses
    // (the Table checks that nothing changed)
    assert_eq!(
        t.refuse(ATTACK).to_string(),
        "Jinx's Ares has 2 rounds left, Fire Gun BF takes 3: reload first (`reload Jinx`)"
    );
    assert_eq!(left(&t), Some(2));
}

#[test]
fn a_refusal_for_too_few_rounds_in_a_gun_not_in_hand_names_the_gun_to_reload() {
    // Given Jinx fired a burst empty-handed, then was given a Colt holding 2 rounds and the
    // Ares, the Ares last and so in hand
    let mut t = burst_empty_handed();
    t.run("weapon Jinx add Colt dv 6 ap 0 acc 4 ammo 2");
    t.run(ARES);
    // When her attack is rolled with the Colt, then the refusal names the Colt to reload: a
    // bare `reload Jinx` would fill the gun in hand
    let held = t
        .state()
        .sr5
        .kit(t.c("Jinx").id)
        .and_then(|k| k.firearm_in_hand())
        .map(|w| w.name.clone());
    assert_eq!(held.as_deref(), Some("Ares"));
    assert_eq!(
        t.refuse("attack Jinx Bo with Colt pool 8 hits 3")
            .to_string(),
        "Jinx's Colt has 2 rounds left, Fire Gun BF takes 3: reload first (`reload Jinx Colt`)"
    );
}

#[test]
fn undo_of_the_attack_gives_its_rounds_back_and_redo_takes_them_again() {
    let mut t = empty_handed();
    t.run("act Jinx Fire Gun mode FA");
    t.run(ARES);
    t.run(ATTACK);
    assert_eq!(left(&t), Some(6));
    t.run("undo");
    assert_eq!(left(&t), Some(12));
    // The action still waits for its attack: rolled again, it takes its rounds once.
    t.run("redo");
    assert_eq!(left(&t), Some(6));
    t.run("undo");
    assert_eq!(fired(&t.run(ATTACK)), [6]);
    assert_eq!(left(&t), Some(6));
}

#[test]
fn a_firing_action_refuses_a_knife_and_its_rounds_wait_for_a_gun() {
    // Given Jinx fired empty-handed, a knife on her sheet
    let mut t = burst_empty_handed();
    t.run("weapon Jinx add Knife dv 3 ap -1 acc 5");
    // When her attack is rolled with the knife, then it is refused: Fire Gun fires a firearm
    assert_eq!(
        t.refuse("attack Jinx Bo with Knife pool 8 hits 3")
            .to_string(),
        "Jinx's Fire Gun BF is made with a firearm, and Knife is not one: Jinx has none (add one with `weapon`)"
    );
    // and the burst's rounds wait for the gun she is given.
    t.run(ARES);
    assert_eq!(fired(&t.run(ATTACK)), [3]);
}

#[test]
fn an_attack_with_no_attack_action_behind_it_is_refused() {
    // Given Jinx armed, who spent no action, when the GM rolls an attack for her, then it is
    // refused and no rounds go
    let mut t = empty_handed();
    armed_attack_refused(&mut t);
    // nor in a later turn for an action spent empty-handed in an earlier one.
    let mut t = burst_empty_handed();
    t.run("next");
    assert_eq!(t.turn(), "Bo");
    armed_attack_refused(&mut t);
}

#[test]
fn a_save_reopened_while_the_action_waits_for_its_attack_replays_the_same() {
    // Given Jinx fired empty-handed and has her gun, the attack not rolled yet, and the fight saved
    let mut t = burst_empty_handed();
    t.run(ARES);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("waiting.ron");
    let cat =
        Arc::new(Catalogue::embedded(&HouseRules::embedded()).expect("the built-in catalogue"));
    let write = |enc: &Encounter| {
        let text = SaveFile::of(enc, "waiting", "2026-01-01T00:00:00Z").to_ron();
        std::fs::write(&path, text).expect("the save is written");
    };
    write(&t.enc);
    // When it is opened, then its snapshot is what its history gives, and the state is the same
    file::verify_snapshot(&path, Arc::clone(&cat)).unwrap_or_else(|e| panic!("{e}"));
    let (_, opened) = file::open(&path, || Arc::clone(&cat)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opened.state(), t.state());
    // and the attack rolled there takes the rounds, as it does here; saved again, it loads back.
    let mut back = Table { enc: opened };
    assert_eq!(fired(&back.run(ATTACK)), [3]);
    assert_eq!(fired(&t.run(ATTACK)), [3]);
    assert_eq!(back.state(), t.state());
    write(&t.enc);
    file::verify_snapshot(&path, Arc::clone(&cat)).unwrap_or_else(|e| panic!("{e}"));
    let (_, loaded) = file::load(&path, cat).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.state(), t.state());
    assert_eq!(loaded.history(), t.enc.history());
}

// ----- several firing actions spent empty-handed in one turn (Multiple Attacks): each is owed,
// and the attacks rolled after them pay them one each, oldest first -----

/// Jinx, empty-handed, took Multiple Attacks, a burst (Fire Gun BF, 3 rounds) and Full-Auto
/// (6 rounds), and was then given the gun `weapon` adds.
fn two_bursts_then(weapon: &str) -> Table {
    let mut t = empty_handed();
    t.run("act Jinx Multiple Attacks");
    assert_eq!(fired(&t.run("act Jinx Fire Gun mode BF")), []);
    assert_eq!(
        fired(&t.run("act Jinx Fire Full-Auto Weapon (6 Bullets)")),
        []
    );
    t.run(weapon);
    t
}

#[test]
fn each_firing_action_spent_empty_handed_is_paid_by_an_attack_of_its_own_oldest_first() {
    // Given two firing actions spent empty-handed in one turn
    let mut t = two_bursts_then(ARES);
    // When the first attack is rolled, then it takes the first action's rounds
    assert_eq!(fired(&t.run(ATTACK)), [3]);
    assert_eq!(left(&t), Some(9));
    // and the second attack the second action's
    assert_eq!(fired(&t.run(ATTACK)), [6]);
    assert_eq!(left(&t), Some(3));
    // and a third attack is refused: each action had its attack.
    assert_eq!(t.refuse(ATTACK).to_string(), NO_ACTION);
    assert_eq!(left(&t), Some(3));
}

#[test]
fn the_second_owed_action_with_too_few_rounds_left_is_refused_and_changes_nothing() {
    // Given two firing actions spent empty-handed, then a gun holding 5 rounds
    let mut t = two_bursts_then("weapon Jinx add Ares dv 8 ap -1 acc 5 ammo 5");
    // When the first attack takes the burst's 3, then the second, owing Full-Auto's 6, is refused
    assert_eq!(fired(&t.run(ATTACK)), [3]);
    assert_eq!(
        t.refuse(ATTACK).to_string(),
        "Jinx's Ares has 2 rounds left, Fire Full-Auto Weapon (6 Bullets) takes 6: reload first (`reload Jinx`)"
    );
    assert_eq!(left(&t), Some(2));
}

#[test]
fn undo_and_redo_of_the_attacks_follow_the_actions_they_paid() {
    // Given two firing actions spent empty-handed and both attacks rolled
    let mut t = two_bursts_then(ARES);
    t.run(ATTACK);
    t.run(ATTACK);
    assert_eq!(left(&t), Some(3));
    // When the second is undone, then Full-Auto's 6 come back and it waits again
    t.run("undo");
    assert_eq!(left(&t), Some(9));
    assert_eq!(fired(&t.run(ATTACK)), [6]);
    // and undoing both then rolling again pays them in the same order
    t.run("undo");
    t.run("undo");
    assert_eq!(left(&t), Some(12));
    t.run("redo");
    assert_eq!(left(&t), Some(9));
    assert_eq!(fired(&t.run(ATTACK)), [6]);
    assert_eq!(left(&t), Some(3));
}

#[test]
fn a_save_reopened_while_two_actions_wait_pays_them_as_the_live_fight_does() {
    // Given two firing actions spent empty-handed, the gun given, and the fight saved
    let mut t = two_bursts_then(ARES);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("two.ron");
    let cat =
        Arc::new(Catalogue::embedded(&HouseRules::embedded()).expect("the built-in catalogue"));
    let text = SaveFile::of(&t.enc, "two", "2026-01-01T00:00:00Z").to_ron();
    std::fs::write(&path, text).expect("the save is written");
    // When it is opened, then its snapshot is what its history gives
    file::verify_snapshot(&path, Arc::clone(&cat)).unwrap_or_else(|e| panic!("{e}"));
    let (_, opened) = file::open(&path, || Arc::clone(&cat)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opened.state(), t.state());
    // and both attacks rolled there take what they take here.
    let mut back = Table { enc: opened };
    for rounds in [3, 6] {
        assert_eq!(fired(&back.run(ATTACK)), [rounds]);
        assert_eq!(fired(&t.run(ATTACK)), [rounds]);
    }
    assert_eq!(back.state(), t.state());
}

// ----- a GM's own firing action: the catalogue's `ammo` makes it one, listed in the rules'
// `attack_actions` or not -----

/// Jinx with the sheet lines `gear` give her, under the built-in catalogue and an action of the
/// GM's own, Fire Flechette Pair, whose `ammo` is 2 and which `attack_actions` does not list.
fn flechettes(gear: &[&str]) -> Table {
    let rules = HouseRules::embedded();
    let built_in = Catalogue::embedded(&rules).expect("the built-in catalogue loads");
    let mut own = built_in
        .get("Fire Full-Auto Weapon (6 Bullets)")
        .expect("the catalogue's Full-Auto")
        .clone();
    own.name = "Fire Flechette Pair".into();
    own.ammo = Some(2);
    assert!(rules.sr5.attack_action(&own.name).is_none());
    let mut actions = built_in.actions().to_vec();
    actions.push(own);
    jinx_and_bo_under(Catalogue::from_actions(actions), "pc", gear)
}

#[test]
fn a_gms_own_firing_action_with_ammo_is_owed_when_spent_empty_handed_as_a_built_in_one_is() {
    // Given the GM's own firing action: spent with the Ares in hand, its 2 rounds go at once
    let mut t = flechettes(&[ARES]);
    assert_eq!(fired(&t.run("act Jinx Fire Flechette Pair")), [2]);
    assert_eq!(fired(&t.run(ATTACK)), []);
    // When Jinx spends it with no firearm in hand and is then given the Ares
    let mut t = flechettes(&[]);
    assert_eq!(fired(&t.run("act Jinx Fire Flechette Pair")), []);
    t.run(ARES);
    // Then the attack rolled with it takes the action's 2 rounds, and undo and redo follow
    assert_eq!(fired(&t.run(ATTACK)), [2]);
    assert_eq!(left(&t), Some(10));
    t.run("undo");
    assert_eq!(left(&t), Some(12));
    t.run("redo");
    assert_eq!(left(&t), Some(10));
}

// ----- the attack still to roll, as the screen's `A` asks the engine for it -----

#[test]
fn the_attack_still_to_roll_is_the_next_action_owed_one() {
    // Given two firing actions spent empty-handed: the first waits for its attack
    let mut t = two_bursts_then(ARES);
    let jinx = t.c("Jinx").id;
    let next = |t: &Table| t.enc.unrolled_attack();
    assert_eq!(next(&t), Some((jinx, "Fire Gun".to_string())));
    // When one attack is rolled, then the second waits for its own
    t.run(ATTACK);
    assert_eq!(
        next(&t),
        Some((jinx, "Fire Full-Auto Weapon (6 Bullets)".to_string()))
    );
    // and once both had theirs, nothing waits; an action fired from the gun in hand waits too.
    t.run(ATTACK);
    assert_eq!(next(&t), None);
    let mut t = gunfight();
    t.run("act Jinx Fire Gun");
    assert_eq!(next(&t), Some((jinx, "Fire Gun".to_string())));
}

// ----- taking a weapon off an SR5 sheet (`weapon NAME remove WEAPON`, as 2097's) -----

/// Jinx's weapons by name, and the one in hand.
fn kit(t: &Table) -> (Vec<String>, Option<String>) {
    let kit = t.state().sr5.kit(t.c("Jinx").id).expect("Jinx has a kit");
    let names = kit.weapons.iter().map(|w| w.name.clone()).collect();
    (names, kit.firearm_in_hand().map(|w| w.name.clone()))
}

#[test]
fn a_weapon_removed_goes_with_its_rounds_and_undo_brings_it_back_as_it_was() {
    // Given Jinx fired one of her Ares's 12 rounds and carries a knife
    let mut t = gunfight();
    t.run("weapon Jinx add Knife dv 3 ap -1 acc 5");
    t.run("act Jinx Fire Gun");
    assert_eq!(left(&t), Some(11));
    // When the GM takes the Ares off her sheet (any case)
    t.run("weapon Jinx remove ares");
    // Then it is gone with its rounds, nothing is in hand, and the log says so as 2097's does
    assert_eq!(kit(&t), (vec!["Knife".to_string()], None));
    assert_eq!(t.last_lines(), ["Jinx puts away Ares"]);
    let entry = t.enc.history().last().expect("an entry");
    assert_eq!(entry.text, "weapon Jinx remove ares");
    // and undo brings it back in hand with its 11 rounds, redo takes it off again
    t.run("undo");
    assert_eq!(left(&t), Some(11));
    assert_eq!(kit(&t).1.as_deref(), Some("Ares"));
    t.run("redo");
    assert_eq!(kit(&t), (vec!["Knife".to_string()], None));
}

#[test]
fn removing_a_weapon_jinx_does_not_carry_is_refused_and_nothing_changes() {
    let mut t = gunfight();
    assert_eq!(
        t.refuse("weapon Jinx remove Colt").to_string(),
        "Jinx has no weapon called \"Colt\" (has Ares)"
    );
}

#[test]
fn removing_a_weapon_before_the_one_in_hand_keeps_that_one_in_hand() {
    // Given Jinx carries the Ares and then a Colt, the Colt in hand
    let mut t = jinx_and_bo(
        "npc",
        &[ARES, "weapon Jinx add Colt dv 6 ap 0 acc 5 ammo 6"],
    );
    assert_eq!(kit(&t).1.as_deref(), Some("Colt"));
    // When the Ares is taken off
    t.run("weapon Jinx remove Ares");
    // Then the Colt is still in hand, and a shot takes its round
    assert_eq!(
        kit(&t),
        (vec!["Colt".to_string()], Some("Colt".to_string()))
    );
    assert_eq!(fired(&t.run("act Jinx Fire Gun")), [1]);
}

#[test]
fn a_ready_shot_outlives_the_gun_taken_away_and_fires_empty_handed() {
    // Given Jinx readies a burst with her Ares in hand, and the GM then takes the Ares away
    let mut t = jinx_and_bo("pc", &[ARES]);
    t.run("ready Jinx 2 when a guard shows do Fire Gun mode BF");
    t.run("weapon Jinx remove Ares");
    t.run("next");
    // When the ready fires, then it is spent with no firearm in hand: no rounds go
    assert_eq!(fired(&t.run("fire Jinx")), []);
    // and its rounds are owed by the attack rolled with the next gun she is given
    t.run("weapon Jinx add Colt dv 6 ap 0 acc 5 ammo 6");
    assert_eq!(fired(&t.run("attack Jinx Bo pool 8 hits 3")), [3]);
}

#[test]
fn an_attack_rolled_with_a_weapon_taken_away_finishes_with_it() {
    // Given Jinx's attack with the Ares (DV 8, 3 hits) waits for Bo's defense
    let mut t = jinx_and_bo("pc", &[ARES]);
    t.run("act Jinx Multiple Attacks");
    t.run("act Jinx Fire Gun");
    t.run(ATTACK);
    // When the GM takes the Ares away, the shot already fired
    t.run("weapon Jinx remove Ares");
    t.run("act Jinx Fire Gun");
    // Then the defense and the soak are those of the Ares: 3 net hits, DV 11
    t.run("attack Jinx Bo defense 6 hits 0 soak 5 hits 2");
    let lines = t.last_lines().join("\n");
    assert!(lines.contains("DV 11 − 2 hits = 9"), "{lines}");
    // but a new attack has no Ares to take
    assert_eq!(
        t.refuse("attack Jinx Bo with Ares pool 8 hits 3")
            .to_string(),
        "Jinx has no weapon called \"Ares\" (has none: add one with `weapon`)"
    );
}

#[test]
fn a_weapon_removed_is_saved_and_replayed() {
    // Given the Ares was fired once and taken off, and the fight saved
    let mut t = gunfight();
    t.run("act Jinx Fire Gun");
    t.run("weapon Jinx remove Ares");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("removed.ron");
    let cat =
        Arc::new(Catalogue::embedded(&HouseRules::embedded()).expect("the built-in catalogue"));
    let text = SaveFile::of(&t.enc, "removed", "2026-01-01T00:00:00Z").to_ron();
    std::fs::write(&path, text).expect("the save is written");
    // When it is loaded, then it is the same fight, and undo there brings the Ares back
    file::verify_snapshot(&path, Arc::clone(&cat)).unwrap_or_else(|e| panic!("{e}"));
    let (_, loaded) = file::load(&path, cat).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.state(), t.state());
    assert_eq!(loaded.history(), t.enc.history());
    let mut back = Table { enc: loaded };
    back.run("undo");
    assert_eq!(left(&back), Some(11));
}
