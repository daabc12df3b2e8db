//! Given/when/then for Downed, condition monitors, lasting effects and the one history
//! (DESIGN.md "Downed", "Lasting effects"; issue: undo/redo never roll again).

mod common;
use common::Table;
use srtrack::encounter::{DownCause, RuleError, StatusEnd};

#[test]
fn a_full_physical_monitor_downs_by_itself_and_healing_brings_back() {
    let mut t = Table::three();
    // Body 3: 8 + ceil(3/2) = 10 boxes.
    t.run("damage Bob 6 physical");
    assert!(!t.c("Bob").is_downed());
    assert_eq!(
        srtrack::report::monitors_text(t.c("Bob"), t.enc.rules()),
        "Physical 6/10, Stun 0/10, wounds -2"
    );
    t.run("damage Bob 9");
    assert_eq!(
        t.c("Bob").damage.physical,
        10,
        "damage stops at the monitor's size"
    );
    assert_eq!(t.c("Bob").downed, Some(DownCause::PhysicalFull));
    assert!(matches!(
        t.refuse("up Bob"),
        RuleError::DownedByMonitor { .. }
    ));
    t.run("heal Bob 1 physical");
    assert_eq!(t.c("Bob").downed, None);
}

#[test]
fn a_full_stun_monitor_downs_and_pending_delays_lapse() {
    let mut t = Table::three();
    t.run("delay Ana 2 after Cy");
    // Willpower 5: 8 + 3 = 11 boxes.
    t.run("damage Ana 11 stun");
    assert_eq!(t.c("Ana").downed, Some(DownCause::StunFull));
    assert_eq!(t.c("Ana").reserve, None);
    assert_eq!(t.ip("Ana"), 5);
}

#[test]
fn monitors_need_the_attribute() {
    let mut t = Table::new();
    t.run("add Drone int 3 rea 3");
    assert_eq!(
        t.refuse("damage Drone 2").to_string(),
        "Drone has no Body on their sheet, so no Physical monitor: `edit` to set Body"
    );
    t.run("edit Drone body 6");
    t.run("damage Drone 2");
    assert_eq!(t.c("Drone").damage.physical, 2);
}

#[test]
fn the_gm_toggles_downed() {
    let mut t = Table::three();
    t.run("down Cy");
    assert_eq!(t.c("Cy").downed, Some(DownCause::Gm));
    assert!(matches!(
        t.refuse("down Cy"),
        RuleError::AlreadyDowned { .. }
    ));
    t.run("up Cy");
    assert!(matches!(t.refuse("up Cy"), RuleError::NotDowned { .. }));
}

#[test]
fn prone_bars_sprint_until_stand_up() {
    let mut t = Table::three();
    assert!(matches!(
        t.refuse("act Ana Stand Up"),
        RuleError::NeedsStatus { .. }
    ));
    t.run("act Ana Drop Prone");
    assert!(t.c("Ana").status("Prone").is_some());
    t.run("next");
    t.run("next");
    t.run("next");
    assert_eq!(
        t.refuse("act Ana Sprint").to_string(),
        "Ana cannot take Sprint while Prone"
    );
    t.run("act Ana Stand Up");
    assert!(t.c("Ana").status("Prone").is_none());
    t.run("act Ana free");
}

#[test]
fn surprised_characters_cannot_drop_prone() {
    let mut t = Table::three();
    t.run("status Ana Surprised");
    assert!(matches!(
        t.refuse("act Ana Drop Prone"),
        RuleError::BarredWhile { .. }
    ));
}

#[test]
fn take_aim_stacks_to_half_willpower_and_ends_on_another_action() {
    let mut t = Table::three();
    // Bob has Willpower 3: at most 2 stacks.
    t.run("next");
    t.run("act Bob Take Aim");
    t.run("act Bob Take Aim");
    assert_eq!(t.c("Bob").status("Take Aim").map(|s| s.stacks), Some(2));
    t.run("next");
    t.run("next");
    t.run("next");
    assert_eq!(
        t.refuse("act Bob Take Aim"),
        RuleError::TakeAimCapped {
            who: "Bob".into(),
            cap: 2
        }
    );
    t.run("act Bob free");
    assert!(
        t.c("Bob").status("Take Aim").is_none(),
        "any other action ends it, a Free one too"
    );
}

#[test]
fn free_text_statuses_end_at_this_turn_next_turn_round_or_never() {
    let mut t = Table::three();
    t.run("status Bob blinded until turn"); // ends with Ana's turn, the one in progress
    t.run("status Ana on fire until next");
    t.run("status Cy smoke until round");
    t.run("status Cy \"owes Ana\" until never");
    assert_eq!(
        t.c("Ana").status("on fire").unwrap().end,
        StatusEnd::EndOfNextTurn
    );
    t.run("next");
    assert!(t.c("Bob").status("blinded").is_none());
    assert!(t.c("Ana").status("on fire").is_some());
    t.run("next");
    t.run("next"); // Ana's next turn starts
    assert!(t.c("Ana").status("on fire").is_some());
    t.run("next"); // and ends
    assert!(t.c("Ana").status("on fire").is_none());
    for _ in 0..11 {
        t.run("next");
    }
    assert_eq!(t.round_pass(), (2, 1));
    assert!(t.c("Cy").status("smoke").is_none());
    assert!(t.c("Cy").status("owes Ana").is_some());
    t.run("clear Cy owes Ana");
    assert!(t.c("Cy").status("owes Ana").is_none());
}

#[test]
fn variable_and_special_actions_ask_for_their_type() {
    let mut t = Table::three();
    assert_eq!(
        t.refuse("act Ana Control Device").to_string(),
        "Control Device is a Variable action: say which type it takes this time (free, simple or complex)"
    );
    t.run("act Ana Control Device as simple");
    assert_eq!(t.ip("Ana"), 3);
    t.run("act Ana Matrix Search as free");
    assert_eq!(t.ip("Ana"), 2);
}

#[test]
fn undo_and_redo_step_by_command_and_redo_never_rolls() {
    let mut t = Table::new();
    t.run("add Ana int 3 rea 3");
    t.run("add Bob int 3 rea 3");
    let before_roll = t.state().clone();
    t.roll("roll all", &[5, 5, 1, 2, 3, 4, 6, 1, 1, 2, 3, 4]);
    let after_roll = t.state().clone();
    t.run("undo");
    assert_eq!(t.state(), &before_roll);
    t.run("redo"); // Table scripts no dice: a redo that rolled would panic
    assert_eq!(t.state(), &after_roll);
    t.run("start");
    t.run("act Ana complex");
    t.run("undo 2");
    assert_eq!(t.state(), &after_roll);
    t.run("add Cy int 2 rea 2");
    assert!(!t.enc.can_redo(), "a new command clears redo");
}

// DESIGN.md: "a Downed character's turns are skipped (shown, greyed)".
#[test]
fn a_character_downed_in_its_own_turn_stops_acting_and_the_next_turn_comes() {
    let mut t = Table::three();
    t.run("act Ana simple");
    t.run("damage Ana 10");
    assert!(t.c("Ana").is_downed());
    assert_eq!(t.turn(), "Bob");
    assert_ne!(t.c("Ana").mark, srtrack::encounter::PassMark::Acting);
    t.run("down Bob");
    assert_eq!(t.turn(), "Cy");
}

// DESIGN.md "Downed": "filling one sets Downed by itself": also for one the GM had Downed, so the
// GM's toggle does not bring it up with a full monitor.
#[test]
fn a_monitor_filled_while_downed_by_the_gm_keeps_it_down_until_healed() {
    let mut t = Table::three();
    t.run("down Bob");
    t.run("damage Bob 10");
    assert_eq!(t.c("Bob").downed, Some(DownCause::PhysicalFull));
    assert!(matches!(
        t.refuse("up Bob"),
        RuleError::DownedByMonitor { .. }
    ));
    t.run("heal Bob 1");
    assert_eq!(t.c("Bob").downed, None);
}

// DESIGN.md "Downed": a full monitor downs by itself, whatever fills it: an edit that shrinks the
// monitor to the damage taken fills it; one that grows a full monitor brings the character back.
#[test]
fn an_edit_of_body_or_willpower_fills_or_frees_the_monitor_as_damage_would() {
    // Given Bob (Body 3: 10 boxes) with 9 Physical, still standing.
    let mut t = Table::three();
    t.run("damage Bob 9");
    assert_eq!(t.c("Bob").downed, None);
    // When his Body drops to 1 (9 boxes): then the monitor is full and he is Downed by it.
    t.run("edit Bob body 1");
    assert_eq!(t.c("Bob").downed, Some(DownCause::PhysicalFull));
    assert!(matches!(
        t.refuse("up Bob"),
        RuleError::DownedByMonitor { .. }
    ));
    // When his Body goes back to 3: then the monitor has room and he is up again.
    t.run("edit Bob body 3");
    assert_eq!(t.c("Bob").downed, None);
    // Given Cy Downed by the GM and Willpower 2 (9 boxes) with 9 Stun.
    t.run("down Cy");
    t.run("damage Cy 9 stun");
    assert_eq!(t.c("Cy").downed, Some(DownCause::StunFull));
    // When the Stun monitor grows but Body shrinks to the Physical damage: then Physical keeps
    // Cy down.
    t.run("damage Cy 9 physical");
    t.run("edit Cy will 6 body 1");
    assert_eq!(t.c("Cy").downed, Some(DownCause::PhysicalFull));
}
