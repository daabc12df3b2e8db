//! Key sessions with the roster: the add form offers its sheets and fills one on Tab; `:add
//! party` and `:add NAME xN from template` bring them in as plain `add` entries, all or none.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::App;
use super::demo;
use super::mode::Mode;
use super::tests::{app_for, screen};
use crate::encounter::{Encounter, Side, System};
use crate::roster::{Roster, Template};
use crate::rules::HouseRules;

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn typ(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// A roster with a PC and an NPC template, kept from the demo fight.
fn roster(dir: &std::path::Path) -> Roster {
    let roster = Roster::in_data_dir(dir, std::sync::Arc::new(HouseRules::embedded()));
    let enc = demo::encounter();
    for (name, r#as) in [("Jinx", None), ("Ganger 1", Some("Ganger"))] {
        let c = enc.state().find(name).expect("in the demo");
        roster
            .put(&Template::of(c, &enc, r#as), false)
            .expect("kept");
    }
    roster
}

fn app_with(dir: &std::path::Path) -> App {
    app_for(demo::empty()).with_roster(roster(dir))
}

#[test]
fn the_add_form_offers_the_roster_and_tab_fills_a_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with(dir.path());
    typ(&mut app, "a");
    let shown = screen(&mut app, 80, 24);
    assert!(shown.contains("Roster: Ganger, Jinx"), "{shown}");
    typ(&mut app, "ganger");
    press(&mut app, KeyCode::Tab);
    let shown = screen(&mut app, 80, 24);
    assert!(
        shown.contains("Filled from the roster sheet Ganger"),
        "{shown}"
    );
    insta::assert_snapshot!("add_form_filled_from_the_roster", shown);
    // Count 3, then Enter: three gangers with the template's sheet.
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "3");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    let g = app.state().find("Ganger 3").expect("added");
    let kept = demo::encounter().state().find("Ganger 1").unwrap().sheet;
    assert_eq!(g.sheet, kept);
    assert_eq!(g.side, Side::Npc);
}

#[test]
fn add_party_and_a_template_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with(dir.path());
    typ(&mut app, ":add party");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(app.state().find("Jinx").is_some_and(|c| c.side == Side::Pc));
    typ(&mut app, ":add Ganger x2 from template");
    press(&mut app, KeyCode::Enter);
    assert!(app.state().find("Ganger 2").is_some());
    // The history holds the expanded commands: they replay with no roster.
    let texts: Vec<&str> = app
        .encounter()
        .history()
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert!(texts[0].starts_with("add Jinx pc int 5 rea 6"), "{texts:?}");
    assert!(texts[1].starts_with("add Ganger x2 npc int"), "{texts:?}");
    // The party again: Jinx is taken. Refused whole, nothing changes, the line stays open.
    let before = app.encounter().history().len();
    typ(&mut app, ":add party");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Command(_)));
    assert!(
        app.message()
            .is_some_and(|(m, err)| err && m.contains("Jinx"))
    );
    assert_eq!(app.encounter().history().len(), before);
    press(&mut app, KeyCode::Esc);
    typ(&mut app, ":add Troll from template");
    press(&mut app, KeyCode::Enter);
    assert!(
        app.message()
            .is_some_and(|(m, err)| err && m.contains("it holds Ganger, Jinx")),
        "{:?}",
        app.message()
    );
}

/// A Shadowrun 2097 fight under way, and a roster holding Bo with his armor and pistol.
fn fight_2097_with_bo(dir: &std::path::Path) -> App {
    let rules = std::sync::Arc::new(HouseRules::embedded());
    let roster = Roster::in_data_dir(dir, std::sync::Arc::clone(&rules));
    let mut kept = Encounter::for_system(
        System::Sr2097,
        std::sync::Arc::clone(&rules),
        std::sync::Arc::new(demo::catalogue()),
    );
    let gear = [
        "add Bo npc int 3 rea 3",
        "armor Bo pt 15 dr 30",
        "weapon Bo add Pistol 2d6+4",
    ];
    assert_eq!(demo::script(&mut kept, &gear, 1), Ok(()));
    let bo = kept.state().find("Bo").expect("added");
    roster
        .put(&Template::of(bo, &kept, None), false)
        .expect("kept");
    let mut fight = Encounter::for_system(
        System::Sr2097,
        rules,
        std::sync::Arc::new(demo::catalogue()),
    );
    let lines = ["add Ana pc int 4 rea 5", "roll Ana dice 6 6", "start"];
    assert_eq!(demo::script(&mut fight, &lines, 1), Ok(()));
    app_for(fight).with_roster(roster)
}

/// `a`, a roster sheet's name, and Tab: the add form filled from it.
fn fill_add_form(app: &mut App, name: &str) {
    typ(app, "a");
    typ(app, name);
    press(app, KeyCode::Tab);
}

#[test]
fn a_sheet_filled_in_the_add_form_brings_its_gear_then_asks_for_initiative() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = fight_2097_with_bo(dir.path());
    fill_add_form(&mut app, "bo");
    let shown = screen(&mut app, 100, 30);
    assert!(
        shown.contains("Filled from the roster sheet Bo, with its gear: PT 15/DR 30, Pistol"),
        "{shown}"
    );
    press(&mut app, KeyCode::Enter);
    // Mid-fight: the initiative form for the newcomer follows, as after any add.
    assert!(
        matches!(app.mode(), Mode::Form(_)),
        "{:?}",
        app.mode().kind()
    );
    let texts: Vec<&str> = app
        .encounter()
        .applied()
        .iter()
        .rev()
        .take(3)
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "weapon Bo add Pistol 2d6+4",
            "armor Bo pt 15 dr 30",
            "add Bo npc int 3 rea 3",
        ]
    );
}

#[test]
fn a_form_renamed_away_from_the_sheet_adds_without_its_gear() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = fight_2097_with_bo(dir.path());
    fill_add_form(&mut app, "bo");
    // Back to the Name: a new name is a new character, on Bo's numbers but not his gear.
    press(&mut app, KeyCode::BackTab);
    typ(&mut app, "Cy");
    press(&mut app, KeyCode::Enter);
    let last = app.encounter().applied().last().map(|e| e.text.clone());
    assert_eq!(last.as_deref(), Some("add Cy npc int 3 rea 3"));
}

#[test]
fn a_sheet_of_another_system_comes_without_its_gear_and_says_so() {
    // Given a roster holding Bo, a 2097 sheet with armor and a pistol, and an SR5 fight
    let dir = tempfile::tempdir().unwrap();
    let app = fight_2097_with_bo(dir.path());
    let roster = Roster::in_data_dir(dir.path(), std::sync::Arc::new(HouseRules::embedded()));
    drop(app);
    let mut app = app_for(demo::empty()).with_roster(roster);
    // When the add form is filled from him, it says his gear stays behind
    fill_add_form(&mut app, "bo");
    let shown = screen(&mut app, 160, 30);
    // (the form wraps it after "sheet:")
    assert!(
        shown.contains(
            "Filled from the roster sheet Bo; its Shadowrun 2097 gear stays on the sheet:"
        ) && shown.contains("this fight runs SR5"),
        "{shown}"
    );
    press(&mut app, KeyCode::Esc);
    // And brought in by the command line, the status line says so after he joins
    typ(&mut app, ":add Bo from template");
    press(&mut app, KeyCode::Enter);
    assert!(app.state().find("Bo").is_some());
    let told = app
        .message()
        .map(|(m, _)| m.to_string())
        .unwrap_or_default();
    assert!(
        told.contains("Bo's Shadowrun 2097 gear stays on the roster sheet: this fight runs SR5"),
        "{told}"
    );
    assert!(told.starts_with("Bo joins"), "{told}");
}
