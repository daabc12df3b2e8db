//! Given/when/then for SR5's clips, under the built-in catalogue (Insert Clip only once the old
//! clip is out; Remove Clip takes it out), the action names
//! being `remove_clip_actions` and `insert_clip_actions` of `rules.ron`.

mod common;
use std::sync::Arc;

use common::Table;
use srtrack::catalogue::Catalogue;
use srtrack::encounter::system::sr5::Sr5Event;
use srtrack::encounter::{Encounter, Event};
use srtrack::rules::HouseRules;

/// Jinx on her turn with a 12-round Ares in hand and IP enough for a few Simple Actions, Bo
/// after her, under the built-in rules changed by `change`.
fn gunfight_under(change: impl FnOnce(&mut HouseRules)) -> Table {
    let mut rules = HouseRules::embedded();
    rules.starting_ip = 10;
    rules.starting_ip_cap = 10;
    rules.turn_spend_cap = 10;
    change(&mut rules);
    let catalogue = Catalogue::embedded(&rules).expect("the built-in catalogue loads");
    let mut t = Table {
        enc: Encounter::new(Arc::new(rules), Arc::new(catalogue)),
    };
    t.run("add Jinx pc int 5 rea 5 edge 2 body 4 will 4");
    t.run("add Bo npc int 3 rea 3 body 4 will 3");
    t.run("weapon Jinx add Ares dv 8 ap -1 acc 5 ammo 12");
    t.run("roll Jinx hits 4");
    t.run("roll Bo hits 1");
    t.run("start");
    t
}

fn gunfight() -> Table {
    gunfight_under(|_| {})
}

/// Jinx's Ares: the rounds left in it, and whether its clip is out.
fn ares(t: &Table) -> (u8, bool) {
    let ammo = t
        .state()
        .sr5
        .kit(t.c("Jinx").id)
        .and_then(|k| k.weapon("Ares"))
        .and_then(|(_, w)| w.ammo)
        .expect("the Ares holds rounds");
    (ammo.left, ammo.clip_out)
}

#[test]
fn remove_clip_empties_the_firearm_and_the_log_says_the_rounds_that_went_with_it() {
    // Given Jinx fired one of her 12 rounds
    let mut t = gunfight();
    t.run("act Jinx Fire Gun");
    // When she removes the clip
    let events = t.run("act Jinx Remove Clip");
    // Then the Ares is empty, its clip out, the clip's 11 rounds gone with it
    assert!(events.contains(&Event::Sr5(Sr5Event::ClipRemoved {
        who: t.c("Jinx").id,
        weapon: "Ares".into(),
        rounds: 11,
    })));
    assert_eq!(ares(&t), (0, true));
    let lines = t.last_lines().join("\n");
    assert!(
        lines.contains("Jinx removes the clip of Ares, 11 rounds in it: 0 left"),
        "{lines}"
    );
    // and undo puts the clip back with its rounds, redo takes it out again
    t.run("undo");
    assert_eq!(ares(&t), (11, false));
    t.run("redo");
    assert_eq!(ares(&t), (0, true));
}

#[test]
fn eject_smartgun_clip_takes_the_clip_out_as_remove_clip_does_and_insert_clip_then_fills() {
    // Given Jinx fired one of her 12 rounds from her linked smartgun
    let mut t = gunfight();
    t.run("act Jinx Fire Gun");
    // When she ejects the clip by thought (a Free Action)
    t.run("act Jinx Eject Smartgun Clip");
    // Then the Ares is empty and its clip out, so firing waits for Insert Clip
    assert_eq!(ares(&t), (0, true));
    t.refuse("act Jinx Fire Gun");
    // and Insert Clip fills it
    t.run("act Jinx Insert Clip");
    assert_eq!(ares(&t), (12, false));
}

#[test]
fn insert_clip_with_the_clip_in_is_refused_naming_remove_clip_and_changes_nothing() {
    // Given Jinx's Ares with its clip in, one round fired
    let mut t = gunfight();
    t.run("act Jinx Fire Gun");
    // When she inserts a clip, then it is refused (the Table checks nothing changed)
    assert_eq!(
        t.refuse("act Jinx Insert Clip").to_string(),
        "Jinx's Ares still has its clip in: take Remove Clip first (`act Jinx Remove Clip`)"
    );
    assert_eq!(ares(&t), (11, false));
}

#[test]
fn insert_clip_after_remove_clip_fills_the_firearm_and_undo_takes_the_clip_out_again() {
    // Given Jinx removed her Ares's clip
    let mut t = gunfight();
    t.run("act Jinx Fire Gun");
    t.run("act Jinx Remove Clip");
    // When she inserts a fresh one
    let events = t.run("act Jinx Insert Clip");
    // Then the Ares is full, its clip in
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Sr5(Sr5Event::Reloaded { rounds: 12, .. })))
    );
    assert_eq!(ares(&t), (12, false));
    // and undo takes the clip out again, redo puts it back
    t.run("undo");
    assert_eq!(ares(&t), (0, true));
    t.run("redo");
    assert_eq!(ares(&t), (12, false));
}

#[test]
fn remove_clip_with_the_clip_out_is_refused_naming_insert_clip() {
    // Given Jinx removed her Ares's clip
    let mut t = gunfight();
    t.run("act Jinx Remove Clip");
    // When she removes it again, then it is refused and nothing changes
    assert_eq!(
        t.refuse("act Jinx Remove Clip").to_string(),
        "Jinx's Ares has its clip out already: take Insert Clip (`act Jinx Insert Clip`)"
    );
}

#[test]
fn what_the_clip_cannot_do_is_said_before_the_ip_it_would_cost() {
    // Given Jinx removed her clip and has 1 IP left
    let mut t = gunfight_under(|r| {
        r.starting_ip = 2;
        r.starting_ip_cap = 2;
    });
    t.run("act Jinx Remove Clip");
    assert_eq!(t.c("Jinx").ip, 1);
    // When she removes it again, or fires, then the clip's refusal is said, not the IP's
    assert_eq!(
        t.refuse("act Jinx Remove Clip").to_string(),
        "Jinx's Ares has its clip out already: take Insert Clip (`act Jinx Insert Clip`)"
    );
    assert!(
        t.refuse("act Jinx Fire Gun")
            .to_string()
            .contains("Insert Clip"),
    );
}

#[test]
fn a_firing_action_with_the_clip_out_is_refused_for_its_0_rounds_naming_insert_clip() {
    // Given Jinx removed her Ares's clip
    let mut t = gunfight();
    t.run("act Jinx Remove Clip");
    // When she fires, then it is refused and nothing changes
    assert_eq!(
        t.refuse("act Jinx Fire Gun").to_string(),
        "Jinx's Ares has 0 rounds left, Fire Gun takes 1: its clip is out, take Insert Clip first (`act Jinx Insert Clip`)"
    );
    // and once a clip is in, she fires.
    t.run("act Jinx Insert Clip");
    t.run("act Jinx Fire Gun");
    assert_eq!(ares(&t), (11, false));
}

#[test]
fn the_gms_reload_puts_the_clip_back_in_and_undo_takes_it_out_again() {
    // Given Jinx removed her Ares's clip
    let mut t = gunfight();
    t.run("act Jinx Remove Clip");
    // When the GM reloads it
    t.run("reload Jinx");
    // Then it is full with its clip in: Remove Clip goes again, Insert Clip does not
    assert_eq!(t.last_lines(), ["Jinx reloads Ares: 12 rounds"]);
    assert_eq!(ares(&t), (12, false));
    // and undo takes the clip out again, redo puts it back
    t.run("undo");
    assert_eq!(ares(&t), (0, true));
    t.run("redo");
    assert_eq!(ares(&t), (12, false));
    t.refuse("act Jinx Insert Clip");
}

#[test]
fn the_clip_actions_are_the_rules_own() {
    // Given house rules where Insert Clip is a reload and no action takes a clip out
    let mut t = gunfight_under(|r| {
        r.sr5.reload_actions = vec!["Reload Firearm".into(), "Insert Clip".into()];
        r.sr5.remove_clip_actions = Vec::new();
        r.sr5.insert_clip_actions = Vec::new();
    });
    t.run("act Jinx Fire Gun");
    // When Jinx takes Insert Clip with her clip in, then it refills the Ares
    t.run("act Jinx Insert Clip");
    assert_eq!(ares(&t), (12, false));
    // and Remove Clip is an action like any other, the clip staying in
    t.run("act Jinx Remove Clip");
    assert_eq!(ares(&t), (12, false));
}

#[test]
fn a_ready_whose_fire_mode_takes_more_rounds_than_are_left_is_refused_as_it_is_declared() {
    // Given Jinx's Ares with 2 rounds left, on her turn
    let mut t = gunfight();
    t.run("act Jinx Fire Full-Auto Weapon (10 Bullets)");
    assert_eq!(ares(&t), (2, false));
    // When she readies a full-auto burst, then it is refused as `act` refuses it, nothing held
    let entries = t.enc.history().len();
    assert_eq!(
        t.refuse("ready Jinx when Bo moves do Fire Gun mode FA")
            .to_string(),
        "Jinx's Ares has 2 rounds left, Fire Gun FA takes 6: reload first (`reload Jinx`)"
    );
    assert_eq!(t.enc.history().len(), entries);
    // While a single shot, which the rounds allow, is declared
    t.run("ready Jinx when Bo moves do Fire Gun mode SS");
    assert!(t.c("Jinx").reserve.is_some());
}
