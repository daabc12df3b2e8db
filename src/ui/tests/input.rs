//! Text into the screen's inputs: pastes, Tab completion, names typed back.

use ratatui::crossterm::event::KeyCode;

use super::{app_for, press, typ};
use crate::ui::app::App;
use crate::ui::demo;
use crate::ui::mode::Mode;

fn demo_app() -> App {
    let mut app = app_for(demo::encounter());
    app.resize(120, 40);
    app
}

fn line(app: &App) -> String {
    match app.mode() {
        Mode::Command(c) => c.value().to_string(),
        other => panic!("not on the command line: {:?}", other.kind()),
    }
}

#[test]
fn a_paste_on_the_command_line_is_text_up_to_its_first_line_break() {
    // Given the command line open
    let mut app = demo_app();
    let cursor = app.encounter().cursor();
    typ(&mut app, ":");
    // When two lines are pasted
    app.paste("status Jinx hurt until never\nnext\u{1b}[2J");
    // Then the first is on the line, not run, and the second never reaches the tracker
    assert_eq!(line(&app), "status Jinx hurt until never");
    assert_eq!(app.encounter().cursor(), cursor);
    assert!(
        app.message()
            .is_some_and(|(m, _)| m.contains("first line only"))
    );
    // And Enter, pressed by the GM, runs it
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert_eq!(app.encounter().cursor(), cursor + 1);
}

#[test]
fn a_paste_in_a_form_goes_into_the_focused_field_only() {
    // Given the add form open on its Name field
    let mut app = demo_app();
    let before = app.state().combatants.len();
    typ(&mut app, "a");
    // When "Ab⏎Cd" is pasted
    app.paste("Ab\r\nCd");
    // Then the name is Ab, nothing is added, the form stays open
    let Mode::Form(f) = app.mode() else {
        panic!("form")
    };
    assert_eq!(f.fields[0].get(), "Ab");
    assert_eq!(app.state().combatants.len(), before);
    // And a paste holding a control character is refused whole, saying which
    app.paste("x\u{7}\u{9b}y");
    let Mode::Form(f) = app.mode() else {
        panic!("form")
    };
    assert_eq!(f.fields[0].get(), "Ab");
    assert!(
        app.message()
            .is_some_and(|(m, e)| e && m.contains("nothing was pasted") && m.contains("U+0007")),
        "{:?}",
        app.message()
    );
}

#[test]
fn a_control_or_invisible_character_typed_never_gets_in_and_is_named() {
    // Given the command line open, "gun" typed
    let mut app = demo_app();
    typ(&mut app, ":");
    typ(&mut app, "gun");
    // When a right-to-left override and a right-to-left mark come as keys
    for c in ['\u{202e}', '\u{200f}'] {
        press(&mut app, KeyCode::Char(c));
        // Then neither gets in, and the GM is told which it was
        assert_eq!(line(&app), "gun");
        let code = crate::text::code_point(c);
        assert!(
            app.message()
                .is_some_and(|(m, e)| e && m.contains(&code) && m.contains("not typed")),
            "{:?}",
            app.message()
        );
    }
    // and the open line, which covers the status line, shows why above it
    let shown = super::screen(&mut app, 80, 24);
    assert!(shown.contains("U+200F is a control"), "{shown}");
    typ(&mut app, "x");
    assert_eq!(line(&app), "gunx");
}

#[test]
fn a_paste_with_no_text_input_open_does_nothing() {
    // Given the tracker, no input open
    let mut app = demo_app();
    let state = format!("{:?}", app.state());
    // When text is pasted
    app.paste("nea");
    // Then no key ran: the same state, no popup, and the GM is told why
    assert_eq!(format!("{:?}", app.state()), state);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(
        app.message()
            .is_some_and(|(m, e)| e && m.contains("nothing to paste into"))
    );
}

/// The line after typing `typed` on the command line and pressing Tab.
fn tab(app: &mut App, typed: &str) -> String {
    if !matches!(app.mode(), Mode::Command(_)) {
        typ(app, ":");
    }
    typ(app, typed);
    press(app, KeyCode::Tab);
    let out = line(app);
    press(app, KeyCode::Esc);
    out
}

#[test]
fn tab_offers_what_the_command_takes_at_that_word() {
    let mut app = demo_app();
    // Keywords where keywords go, not actions that start alike
    assert_eq!(tab(&mut app, "damage Jinx 3 stun"), "damage Jinx 3 stun ");
    assert_eq!(
        tab(&mut app, "damage Jinx 3 phy"),
        "damage Jinx 3 physical "
    );
    assert_eq!(
        tab(&mut app, "heal Jinx, Whisper 1 s"),
        "heal Jinx, Whisper 1 stun "
    );
    // Names where a name goes, after a comma too
    assert_eq!(tab(&mut app, "damage Jin"), "damage Jinx ");
    assert_eq!(tab(&mut app, "hide Jinx, Whi"), "hide Jinx, Whisper ");
    assert_eq!(tab(&mut app, "move Jinx bef"), "move Jinx before ");
    assert_eq!(
        tab(&mut app, "move Jinx before Whi"),
        "move Jinx before Whisper "
    );
    // Actions where an action goes, then the keyword after it
    assert_eq!(tab(&mut app, "act Jinx Take"), "act Jinx \"Take Aim\" ");
    assert_eq!(
        tab(&mut app, "act Jinx \"Take Aim\" a"),
        "act Jinx \"Take Aim\" as "
    );
    assert_eq!(
        tab(&mut app, "act Jinx Take Aim as sim"),
        "act Jinx Take Aim as simple "
    );
    // An action or a name of several words typed without quotes completes from all its words
    assert_eq!(
        tab(&mut app, "act Jinx Fire W"),
        "act Jinx \"Fire Weapon\" "
    );
    assert_eq!(tab(&mut app, "act Jinx take a"), "act Jinx \"Take Aim\" ");
    assert_eq!(tab(&mut app, "damage Lt. V"), "damage \"Lt. Vasquez\" ");
    // A status's text may be one already in play; inside free text only the word that ends it
    assert_eq!(tab(&mut app, "status Jinx Ta"), "status Jinx \"Take Aim\" ");
    assert_eq!(tab(&mut app, "status Jinx Zz"), "status Jinx Zz");
    assert_eq!(tab(&mut app, "status Jinx hurt Ta"), "status Jinx hurt Ta");
    assert_eq!(
        tab(&mut app, "status Jinx hurt un"),
        "status Jinx hurt until "
    );
    assert_eq!(
        tab(&mut app, "status Jinx hurt until nev"),
        "status Jinx hurt until never "
    );
    assert_eq!(
        tab(&mut app, "ready Jinx when he moves do Take"),
        "ready Jinx when he moves do \"Take Aim\" "
    );
    // Verbs first
    assert_eq!(tab(&mut app, "dam"), "damage ");
}

#[test]
fn tab_after_a_short_form_offers_what_it_offers_after_its_verb() {
    // Given the demo table
    let mut app = demo_app();
    // When Tab is pressed after `rm`, `dmg` or `change`
    // Then names and keywords come as they do after `remove`, `damage` and `move`
    assert_eq!(tab(&mut app, "rm Whi"), "rm Whisper ");
    assert_eq!(tab(&mut app, "dmg Jin"), "dmg Jinx ");
    assert_eq!(tab(&mut app, "dmg Jinx 3 phy"), "dmg Jinx 3 physical ");
    assert_eq!(tab(&mut app, "change Jinx bef"), "change Jinx before ");
}

#[test]
fn a_completed_name_with_quotes_reads_back() {
    // Given a character whose name holds a quote and a backslash
    let mut app = demo_app();
    typ(&mut app, ":");
    app.paste("add \"Say\\\"Hi\\\\\" int 3 rea 3 body 4 will 4");
    press(&mut app, KeyCode::Enter);
    assert!(
        app.state().find("Say\"Hi\\").is_some(),
        "{:?}",
        app.message()
    );
    // When Tab completes it
    let completed = tab(&mut app, "damage Say");
    // Then it is written so that the line reads back to that name
    assert_eq!(completed, "damage \"Say\\\"Hi\\\\\" ");
    typ(&mut app, ":");
    app.paste(&format!("{completed}2 stun"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.state().find("Say\"Hi\\").map(|c| c.damage.stun),
        Some(2)
    );
}

/// The app on the older save whose Wave👋🏻 and Wave👋🏿 differ only by their skin tones.
fn skin_tones_app() -> App {
    let bytes = include_bytes!("../../../tests/fixtures/v7-skin-tones.ron");
    let save = crate::save::file::parse(bytes, "v7-skin-tones.ron").expect("the fixture reads");
    let enc = save
        .into_encounter("v7-skin-tones.ron", std::sync::Arc::new(demo::catalogue()))
        .expect("the fixture loads");
    let mut app = app_for(enc);
    app.resize(120, 40);
    app
}

/// Opens the edit form on `who`, puts `name` in its Name field and confirms it.
fn rename(app: &mut App, who: &str, name: &str) {
    super::select(app, who);
    typ(app, "e");
    let Mode::Form(_) = app.mode() else {
        panic!("no edit form: {:?}", app.mode().kind())
    };
    for _ in 0..40 {
        press(app, KeyCode::Backspace);
    }
    typ(app, name);
    press(app, KeyCode::Enter);
}

#[test]
fn of_two_names_alike_once_skin_tones_are_left_out_either_can_be_edited() {
    // Given the older save with Wave👋🏻 and Wave👋🏿
    let mut app = skin_tones_app();
    // When Wave👋🏻's form is confirmed with its name kept
    rename(&mut app, "Wave👋🏻", "Wave👋🏻");
    // Then the edit is taken, the name as it was
    assert!(matches!(app.mode(), Mode::Tracker), "{:?}", app.message());
    assert!(app.state().all().any(|c| c.name == "Wave👋🏻"));
    // When Wave👋🏿 is renamed to a name of its own
    rename(&mut app, "Wave👋🏿", "Ripple");
    // Then it is so named, and Wave👋🏻 alone is Wave now
    assert!(matches!(app.mode(), Mode::Tracker), "{:?}", app.message());
    assert!(app.state().find("Ripple").is_some());
    assert!(app.state().find("Wave👋").is_some());
    // And a new name alike to another's is still refused
    rename(&mut app, "Thumb👍🏽", "Wave👋🏽");
    assert!(!matches!(app.mode(), Mode::Tracker));
    assert!(app.state().find("Thumb👍").is_some());
}
