//! Given/when/then for the players' view (`srtrack watch`, issue 13): what the GM hides with
//! `hide`/`reveal`, and what the view keeps from the players (NPC IP, monitors, wounds, Edge).

mod common;

use common::Table;
use srtrack::encounter::players::{self, PlayersView, Stage, Stands};
use srtrack::encounter::system::sr2097::Fate;
use srtrack::encounter::{Event, RuleError, System, Track, Visibility};
use srtrack::rules::sr2097::Severity;

fn view(t: &Table) -> PlayersView {
    players::view(t.state(), t.enc.system(), t.enc.rules())
}

fn names(v: &PlayersView) -> Vec<&str> {
    v.rows.iter().map(|r| r.name.as_str()).collect()
}

// ---- hide and reveal ----

#[test]
fn hiding_two_characters_is_one_entry_and_one_undo_step() {
    let mut t = Table::three();
    t.run("add Sniper int 4 rea 4");
    let entries = t.enc.cursor();
    let events = t.run("hide Sniper, Cy");
    assert_eq!(
        events,
        vec![
            Event::VisibilityChanged {
                who: t.c("Sniper").id,
                visibility: Visibility::Hidden
            },
            Event::VisibilityChanged {
                who: t.c("Cy").id,
                visibility: Visibility::Hidden
            },
        ]
    );
    assert_eq!(t.enc.cursor(), entries + 1);
    assert_eq!(
        t.enc.applied().last().map(|e| e.text.as_str()),
        Some("hide Sniper, Cy")
    );
    assert!(t.c("Sniper").is_hidden() && t.c("Cy").is_hidden());
    t.run("undo");
    assert!(!t.c("Sniper").is_hidden() && !t.c("Cy").is_hidden());
}

/// Given a GM setting up an ambush, when a character or a group is added `hidden`, then it
/// comes in hidden in the same entry (no players' view shows it in between), one undo takes it
/// all back, and the save's check takes the entry.
#[test]
fn an_ambush_is_added_hidden_in_one_entry() {
    let mut t = Table::three();
    let entries = t.enc.cursor();
    let events = t.run("add Sniper int 4 rea 4 hidden");
    assert_eq!(
        events.last(),
        Some(&Event::VisibilityChanged {
            who: t.c("Sniper").id,
            visibility: Visibility::Hidden
        })
    );
    assert!(t.c("Sniper").is_hidden());
    assert!(!names(&view(&t)).contains(&"Sniper"));
    t.run("add Ganger x2 int 3 rea 3 shared hidden");
    assert!(t.c("Ganger 1").is_hidden() && t.c("Ganger 2").is_hidden());
    assert_eq!(t.enc.cursor(), entries + 2);
    assert_eq!(
        t.enc.applied().last().map(|e| e.text.as_str()),
        Some("add Ganger x2 npc int 3 rea 3 shared hidden")
    );
    let (rules, catalogue) = t.enc.shared();
    srtrack::save::validate::check_history(t.enc.history(), t.enc.system(), rules, catalogue)
        .expect("the save's check takes `add … hidden`");
    t.run("undo");
    assert!(
        t.state()
            .combatants
            .iter()
            .all(|c| !c.name.starts_with("Ganger"))
    );
    t.run("reveal Sniper");
    assert!(names(&view(&t)).contains(&"Sniper"));
}

#[test]
fn a_hidden_character_acts_as_any_other() {
    let mut t = Table::three();
    t.run("hide Ana");
    assert_eq!(t.turn(), "Ana");
    t.run("act Ana complex");
    t.run("next");
    assert_eq!(t.turn(), "Bob");
    assert_eq!(t.order(), ["Ana", "Bob", "Cy"]);
}

#[test]
fn reveal_shows_again_and_each_refusal_says_what_to_do() {
    let mut t = Table::three();
    t.run("hide Cy");
    let err = t.refuse("hide Bob, Cy");
    assert_eq!(
        err.to_string(),
        "Cy is hidden from the players already: `reveal Cy` shows them again"
    );
    assert!(!t.c("Bob").is_hidden(), "refused as a whole");
    assert!(matches!(
        t.refuse("reveal Ana"),
        RuleError::NotHidden { .. }
    ));
    assert!(matches!(
        t.refuse("hide Ana, Ana"),
        RuleError::TargetTwice { .. }
    ));
    t.run("reveal Cy");
    assert!(!t.c("Cy").is_hidden());
}

#[test]
fn every_rule_system_can_hide() {
    for system in [System::Sr5, System::Sr2097, System::Anarchy] {
        let mut t = Table::under(system);
        t.run(&common::sheet_line(system, "add Ana pc int 4 rea 4"));
        t.run("hide Ana");
        assert!(t.c("Ana").is_hidden(), "{system}");
    }
}

#[test]
fn show_and_the_log_say_who_is_hidden() {
    let mut t = Table::three();
    t.run("hide Cy");
    let shown = srtrack::report::show(&t.enc, 3);
    assert!(shown.contains("Cy: hidden from the players"), "{shown}");
    assert!(shown.contains("Cy is hidden from the players"), "{shown}");
}

// ---- what the players see ----

#[test]
fn hidden_characters_are_left_out_of_the_view_altogether() {
    let mut t = Table::three();
    t.run("add Sniper int 4 rea 4");
    t.run("hide Sniper");
    let v = view(&t);
    assert_eq!(names(&v), ["Ana", "Bob", "Cy"]);
    t.run("reveal Sniper");
    assert_eq!(names(&view(&t)), ["Ana", "Bob", "Cy", "Sniper"]);
}

#[test]
fn places_count_only_the_characters_seen() {
    let mut t = Table::three();
    t.run("hide Bob");
    let v = view(&t);
    let places: Vec<(&str, Option<usize>)> =
        v.rows.iter().map(|r| (r.name.as_str(), r.place)).collect();
    assert_eq!(
        places,
        [("Ana", Some(0)), ("Cy", Some(1))],
        "no gap where Bob is"
    );
}

#[test]
fn a_hidden_actor_is_not_named_as_acting() {
    let mut t = Table::three();
    t.run("hide Ana");
    let v = view(&t);
    assert_eq!(v.acting, None);
    assert!(v.rows.iter().all(|r| r.stands != Stands::Acting));
    t.run("next");
    assert_eq!(view(&t).acting.as_deref(), Some("Bob"));
}

#[test]
fn an_npc_keeps_its_ip_monitors_wounds_and_edge_from_the_players() {
    let mut t = Table::three();
    t.run("damage Cy 3");
    let v = view(&t);
    let cy = v.rows.iter().find(|r| r.name == "Cy").expect("Cy is seen");
    assert_eq!(cy.pc, None);
    assert_eq!(cy.place, Some(2));
}

#[test]
fn a_pc_shows_its_ip_edge_and_monitors() {
    let mut t = Table::three();
    t.run("act Ana simple");
    t.run("damage Ana 3");
    t.run("status Ana Prone");
    let v = view(&t);
    assert_eq!(
        v.stage,
        Stage::Fight {
            round: 1,
            pass: 1,
            passes: t.enc.rules().passes_per_round
        }
    );
    assert_eq!(v.acting.as_deref(), Some("Ana"));
    let ana = &v.rows[0];
    assert_eq!(ana.stands, Stands::Acting);
    assert_eq!(ana.statuses, vec![("Prone".to_string(), 1)]);
    let pc = ana.pc.as_ref().expect("a PC shows its facts");
    let ip = pc.ip.expect("SR5 plays in passes");
    assert_eq!((ip.left, ip.spent), (t.ip("Ana"), 2));
    assert_eq!((pc.edge_left, pc.edge), (3, 3));
    assert_eq!(pc.physical.map(|p| p.0), Some(3));
    assert_eq!(pc.wounds, t.enc.rules().wound_modifier(3, 0));
}

#[test]
fn a_downed_character_shows_as_downed() {
    let mut t = Table::three();
    t.run("down Bob");
    let v = view(&t);
    assert!(
        v.rows
            .iter()
            .find(|r| r.name == "Bob")
            .is_some_and(|r| r.downed)
    );
}

#[test]
fn an_anarchy_table_shows_its_turn_narrator_seats_and_plot_points() {
    let mut t = Table::under(System::Anarchy);
    t.run("add Ana pc");
    t.run("add Bo pc");
    t.run("add Ganger");
    t.run("hide Ganger");
    t.run("narrate");
    let v = view(&t);
    assert_eq!(v.stage, Stage::Narration { turn: 1 });
    assert_eq!(names(&v), ["Ana", "Bo"]);
    let narrator = v.acting.clone().expect("someone narrates");
    let row = v.rows.iter().find(|r| r.name == narrator).expect("seen");
    assert_eq!(row.stands, Stands::Acting);
    assert!(v.rows.iter().all(|r| r.place.is_some()), "seated");
    assert!(v.rows.iter().all(|r| {
        r.pc.as_ref()
            .is_some_and(|p| p.plot_points.is_some() && p.ip.is_none())
    }));
}

#[test]
fn a_pc_shows_the_wound_modifier_its_system_plays_with_as_the_gm_screen_does() {
    for system in [System::Sr5, System::Sr2097, System::Anarchy] {
        let mut t = Table::under(system);
        t.run(if system == System::Anarchy {
            "add Ana pc body 4 will 4"
        } else {
            "add Ana pc int 4 rea 4 body 4 will 4"
        });
        t.run("damage Ana 3");
        let v = view(&t);
        let pc = v.rows[0].pc.as_ref().expect("a PC shows its facts");
        let ana = t.c("Ana");
        assert_eq!(
            pc.wounds,
            t.state().wounds_shown(ana, t.enc.rules()),
            "{system:?}"
        );
    }
    let mut t = Table::under(System::Anarchy);
    t.run("add Ana pc body 4 will 4");
    t.run("damage Ana 3");
    assert_eq!(view(&t).rows[0].pc.as_ref().map(|p| p.wounds), Some(0));
}

#[test]
fn a_save_with_hide_and_reveal_loads_and_checks() {
    let mut t = Table::three();
    t.run("hide Cy, Bob");
    t.run("reveal Bob");
    let text = srtrack::save::file::SaveFile::of(&t.enc, "hidden", "2026-11-23T20:00:00Z").to_ron();
    let save = srtrack::save::file::parse(text.as_bytes(), "hidden.ron").expect("parses");
    let enc = save
        .into_encounter("hidden.ron", std::sync::Arc::new(common::test_catalogue()))
        .expect("the check knows hide and reveal");
    assert!(
        enc.state()
            .find("Cy")
            .is_some_and(srtrack::encounter::Combatant::is_hidden)
    );
    assert!(enc.state().find("Bob").is_some_and(|c| !c.is_hidden()));
}

// README, the order's marks: `▶` acting, `»` takes a deferred turn later, `–` lost or skipped.
// The players' view marks alike, whatever kind of turn is being taken.
#[test]
fn a_deferred_turn_shows_as_to_come_and_then_as_acting() {
    // Given Ana changes initiative to after Cy
    let mut t = Table::three();
    t.run("move Ana after Cy");
    let stands = |t: &Table, name: &str| {
        view(t)
            .rows
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.stands)
    };
    // Then she shows a turn still to come, not one lost
    assert_eq!(stands(&t, "Ana"), Some(Stands::Deferred));
    // When Cy's turn ends and Ana takes the skipped turn
    while t.turn() != "Ana" {
        t.run("next");
    }
    // Then she shows as acting, as in her own turn
    assert_eq!(stands(&t, "Ana"), Some(Stands::Acting));
    // Given Bob holds 2 IP until after Cy, in another fight
    let mut t = Table::three();
    t.run("next");
    t.run("delay Bob 2 after Cy");
    // When Cy's turn ends and Bob's delay comes: then he shows as acting
    while t
        .state()
        .turn()
        .is_some_and(|x| t.state().name(x.who) != "Bob")
    {
        t.run("next");
    }
    assert_eq!(stands(&t, "Bob"), Some(Stands::Acting));
}

/// Given Ana's turn, when Guard joins with a roll that places it before her (a place this pass
/// has gone by), then the players' view marks it as the GM's order does: joined, no turn lost.
#[test]
fn a_joiner_whose_place_went_by_shows_joined_not_a_lost_turn() {
    let mut t = Table::three();
    t.run("add Guard int 4 rea 5");
    t.run("roll Guard hits 4");
    let guard = view(&t).rows.into_iter().find(|r| r.name == "Guard");
    assert_eq!(guard.map(|r| r.stands), Some(Stands::Joined));
}

// ---- each system's condition of a player character ----

#[test]
fn a_2097_pc_shows_its_injuries_as_the_gm_screen_lists_them() {
    // Given Bo, a PC, takes 17 that gets through (a critical injury, which downs him)
    let mut t = Table::under(System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3");
    t.run("add Bo pc int 3 rea 3 edge 2");
    t.run("add Cy int 2 rea 2 edge 2");
    t.run("dmg - Bo 2d6+5 dice 6 6");
    // And Cy, an NPC, takes a serious stun injury
    t.run("dmg - Cy 2d6+1 stun dice 6 6");
    // When the players look
    let v = view(&t);
    // Then Bo shows Downed with his critical injury of 17
    let bo = v.rows.iter().find(|r| r.name == "Bo").expect("Bo is seen");
    assert!(bo.downed);
    let pc = bo.pc.as_ref().expect("a PC shows its facts");
    let injuries: Vec<(u16, Severity, Track, Fate)> = pc
        .injuries
        .iter()
        .map(|i| (i.damage, i.severity, i.track, i.fate))
        .collect();
    assert_eq!(
        injuries,
        [(17, Severity::Critical, Track::Physical, Fate::Open)]
    );
    assert_eq!((pc.armor, pc.matrix), (None, None), "no Anarchy tracks");
    // And Ana, unhurt, shows none
    let ana = v.rows.iter().find(|r| r.name == "Ana").expect("seen");
    assert!(ana.pc.as_ref().is_some_and(|p| p.injuries.is_empty()));
    // And Cy, an NPC, keeps his injury from the players
    let cy = v.rows.iter().find(|r| r.name == "Cy").expect("Cy is seen");
    assert_eq!(cy.pc, None);
}

#[test]
fn an_anarchy_pc_shows_its_armor_and_matrix_tracks_where_it_has_them() {
    // Given Nix with Armor 6 and Matrix 3, hurt on both, and Brick with neither
    let mut t = Table::under(System::Anarchy);
    t.run("add Nix pc edge 3 body 3 will 4");
    t.run("add Brick pc edge 2 body 6 will 3");
    t.run("add Ganger npc body 4 will 3");
    t.run("sheet Nix armor 6 matrix 3");
    t.run("damage Nix 2 armor");
    t.run("damage Nix 1 matrix");
    // And the Ganger, an NPC, with armor hit too
    t.run("sheet Ganger armor 3");
    t.run("damage Ganger 1 armor");
    // When the players look
    let v = view(&t);
    let pc = |name: &str| {
        v.rows
            .iter()
            .find(|r| r.name == name)
            .and_then(|r| r.pc.clone())
    };
    // Then Nix shows both tracks, marked and sized
    let nix = pc("Nix").expect("a PC shows its facts");
    assert_eq!((nix.armor, nix.matrix), (Some((2, 6)), Some((1, 3))));
    assert!(nix.injuries.is_empty(), "no 2097 injuries");
    // And Brick shows no track he does not have
    let brick = pc("Brick").expect("a PC shows its facts");
    assert_eq!((brick.armor, brick.matrix), (None, None));
    // And the Ganger keeps his armor from the players
    assert!(v.rows.iter().any(|r| r.name == "Ganger" && r.pc.is_none()));
}

#[test]
fn an_sr5_pc_has_no_tracks_or_injuries_of_other_systems() {
    // Given Ana hurt in an SR5 fight
    let mut t = Table::three();
    t.run("damage Ana 3");
    // Then she shows her monitors only
    let v = view(&t);
    let pc = v.rows[0].pc.as_ref().expect("a PC shows its facts");
    assert_eq!(pc.physical.map(|p| p.0), Some(3));
    assert_eq!((pc.armor, pc.matrix), (None, None));
    assert!(pc.injuries.is_empty());
}
