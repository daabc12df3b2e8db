//! Key sessions with the roster: the add form offers its sheets and fills one on Tab; `:add
//! party` and `:add NAME xN from template` bring them in as plain `add` entries, all or none.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::App;
use super::demo;
use super::mode::Mode;
use super::tests::{app_for, screen};
use crate::encounter::{Side, System};
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
            .put(&Template::of(c, System::Sr5, r#as), false)
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
