//! Given/when/then for SR5 actions whose catalogue entry carries a rule the engine keeps
//! (sr5-actions-catalogue.txt): a wounded character's Stand Up test, and the rounds the firing
//! actions take from the firearm in hand.

mod common;
use common::Table;
use srtrack::encounter::system::sr5::{Sr5Error, Sr5Event};
use srtrack::encounter::{Event, RuleError};
use srtrack::rules::sr5::test::Goal;

/// Ana (Body 4, Willpower 5: 9 dice for Body + Willpower) on her turn, Prone.
fn prone_ana() -> Table {
    let mut t = Table::three();
    t.run("act Ana Drop Prone");
    t
}

/// The Stand Up test's pool and threshold, if the last command rolled one.
fn stand_test(events: &[Event]) -> Option<(u8, Goal)> {
    events.iter().find_map(|e| match e {
        Event::Sr5(Sr5Event::Tested { pool, goal, .. }) => Some((pool.dice(), *goal)),
        _ => None,
    })
}

#[test]
fn a_wounded_character_who_fails_the_stand_up_test_stays_prone_and_the_action_is_spent() {
    // Given Ana Prone with 3 boxes of Physical damage (wound modifier −1)
    let mut t = prone_ana();
    t.run("damage Ana 3 physical");
    let ip = t.ip("Ana");
    // When she takes Stand Up and the table's 8 dice show 1 hit (threshold 2)
    let ev = t.run("act Ana Stand Up dice 6 1 2 3 4 2 3 4");
    // Then Body + Willpower − 1 = 8 dice were rolled against 2, she is still Prone, and the
    // Simple Action is paid.
    assert_eq!(stand_test(&ev), Some((8, Goal::Threshold(2))));
    assert!(t.c("Ana").status("Prone").is_some());
    assert_eq!(t.ip("Ana"), ip - 2);
    assert!(
        t.last_lines().iter().any(|l| l.contains("failure")),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn a_wounded_character_who_passes_the_stand_up_test_stands() {
    let mut t = prone_ana();
    t.run("damage Ana 3 physical");
    let ev = t.run("act Ana Stand Up dice 6 5 1 2 3 4 2 3");
    assert_eq!(stand_test(&ev), Some((8, Goal::Threshold(2))));
    assert!(t.c("Ana").status("Prone").is_none());
}

#[test]
fn srtrack_rolls_the_stand_up_test_when_no_dice_are_typed_and_undo_redo_never_roll_again() {
    let mut t = prone_ana();
    t.run("damage Ana 1 stun");
    // Stun is a wound too; 1 box gives no wound modifier: 9 dice.
    let ev = t.roll("act Ana Stand Up", &[5, 1, 1, 2, 3, 4, 2, 3, 4]);
    assert_eq!(stand_test(&ev), Some((9, Goal::Threshold(2))));
    assert!(t.c("Ana").status("Prone").is_some());
    t.run("undo");
    assert!(t.c("Ana").status("Prone").is_some());
    t.run("redo");
    assert!(t.c("Ana").status("Prone").is_some());
    // A second try, in the same turn, with 2 hits.
    t.roll("act Ana Stand Up", &[5, 6, 1, 2, 3, 4, 2, 3, 4]);
    assert!(t.c("Ana").status("Prone").is_none());
}

#[test]
fn an_unwounded_character_stands_with_no_test_and_typed_dice_are_refused() {
    let mut t = prone_ana();
    assert_eq!(
        t.refuse("act Ana Stand Up dice 6 6").to_string(),
        "Ana's Stand Up takes no test now (only a wounded character's does): leave out the dice"
    );
    let ev = t.run("act Ana Stand Up");
    assert_eq!(stand_test(&ev), None);
    assert!(t.c("Ana").status("Prone").is_none());
}

#[test]
fn the_stand_up_test_counts_the_wound_modifier_in_the_dice_typed() {
    let mut t = prone_ana();
    t.run("damage Ana 6 physical");
    // −2: 7 dice, not 9.
    assert!(matches!(
        t.refuse("act Ana Stand Up dice 6 5 1 2 3 4 2 3 4"),
        RuleError::Sr5(Sr5Error::WoundedCount {
            pool: 7,
            base: 9,
            wound: -2,
            typed: 9
        })
    ));
    t.run("act Ana Stand Up hits 2");
    assert!(t.c("Ana").status("Prone").is_none());
}

#[test]
fn a_wounded_character_without_the_attributes_cannot_take_the_stand_up_test() {
    let mut t = Table::new();
    t.run("add Dee int 3 rea 3 body 4");
    t.run("roll Dee hits 1");
    t.run("start");
    t.run("act Dee Drop Prone");
    t.run("damage Dee 1 physical");
    assert_eq!(
        t.refuse("act Dee Stand Up").to_string(),
        "Dee has no Willpower on their sheet to roll the Stand Up test with: `edit` the sheet"
    );
}
