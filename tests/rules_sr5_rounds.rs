//! Given/when/then for the rounds SR5's firing actions take from the firearm in hand, under the
//! built-in catalogue (sr5-actions-catalogue.txt: Full-Auto 6 as a Simple Action, 10 as a
//! Complex one; Fire Gun, the Long or Semi-Auto Burst and Quick Draw's shot by the modes in
//! `attack_actions` of `rules.ron`).

mod common;
use std::sync::Arc;

use common::Table;
use srtrack::catalogue::Catalogue;
use srtrack::encounter::Encounter;
use srtrack::rules::HouseRules;

/// Jinx with a 12-round Ares in hand on her turn, Bo after her.
fn gunfight() -> Table {
    let rules = HouseRules::embedded();
    let catalogue = Catalogue::embedded(&rules).expect("the built-in catalogue loads");
    let mut t = Table {
        enc: Encounter::new(Arc::new(rules), Arc::new(catalogue)),
    };
    t.run("add Jinx pc int 5 rea 5 edge 2 body 4 will 4");
    t.run("add Bo int 3 rea 3 body 4 will 3");
    t.run("weapon Jinx add Ares dv 8 ap -1 acc 5 ammo 12");
    t.run("roll Jinx hits 4");
    t.run("roll Bo hits 1");
    t.run("start");
    t
}

fn left(t: &Table) -> Option<u8> {
    t.state()
        .sr5
        .kit(t.c("Jinx").id)
        .and_then(|k| k.weapons[0].ammo)
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

// ----- Fire Gun's fire modes (the catalogue's Fire Gun: "Semi-Automatic, Single-Shot, Burst-Fire, or
// Fully-Auto mode via a Simple Action … Burst Fire fires 3 bullets, while Full-Auto fires 6") -----

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
    // The catalogue's Quick Draw: "draws the weapon and fires as a single Simple Action".
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
