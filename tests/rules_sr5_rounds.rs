//! Given/when/then for the rounds SR5's firing actions take from the firearm in hand, under the
//! built-in catalogue (sr5-actions-catalogue.txt: Full-Auto 6 as a Simple Action, 10 as a
//! Complex one; Fire Gun and the Long or Semi-Auto Burst by `attack_actions` in `rules.ron`).

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
        ("Fire Long Burst or Semi-Auto Burst", 3),
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
