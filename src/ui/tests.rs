//! Snapshots of every pane and popup, scripted key sessions, and the any-size property.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::widgets::Widget;

use super::app::App;
use super::demo;
use super::mode::Mode;
use crate::encounter::{Encounter, Event, Phase, Relative, Reserve, TurnKind};
use crate::rules::RandomDice;
use crate::save::NoSave;

pub fn app_for(enc: Encounter) -> App {
    App::new(enc, "Demo".into(), Box::new(NoSave), None).with_dice(Box::new(RandomDice::seeded(42)))
}

pub(super) fn demo_app() -> App {
    app_for(demo::encounter())
}

fn empty_app() -> App {
    app_for(demo::empty())
}

pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    app.resize(w, h);
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    (&*app).render(area, &mut buf);
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub(super) fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

pub(super) fn ctrl(app: &mut App, c: char) {
    app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
}

pub(super) fn typ(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

pub(super) fn select(app: &mut App, name: &str) {
    let i = app
        .roster()
        .iter()
        .position(|id| app.state().name(*id) == name)
        .expect("combatant in the roster");
    for _ in 0..20 {
        press(app, KeyCode::Char('k'));
    }
    for _ in 0..i {
        press(app, KeyCode::Char('j'));
    }
    assert_eq!(app.state().name(app.selected_id().expect("selected")), name);
}

pub(super) fn choose(app: &mut App, label: &str) {
    let Mode::Choose(c) = app.mode() else {
        panic!("not in a choice list: {:?}", app.mode().kind());
    };
    let i = c
        .items
        .iter()
        .position(|it| it.label.contains(label))
        .expect("choice present");
    let n = c.items.len();
    for _ in 0..n {
        press(app, KeyCode::Up);
    }
    for _ in 0..i {
        press(app, KeyCode::Down);
    }
    press(app, KeyCode::Enter);
}

/// What a popup over columns `x..x + w` of a drawn screen reads, its borders left out: its rows
/// joined by a space, runs of spaces made one, so a text wrapped over rows reads whole.
pub(super) fn popup_text(shown: &str, x: u16, w: u16) -> String {
    let rows: Vec<String> = shown
        .lines()
        .map(|l| {
            l.chars()
                .skip(usize::from(x) + 1)
                .take(usize::from(w.saturating_sub(2)))
                .collect()
        })
        .collect();
    rows.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Draws `app` at 80×24: the selected line `line` of the popup over the columns of `at` has its
/// reason `why` cut in the list, and the popup reads it whole; the screen drawn.
pub(super) fn reason_read_whole(app: &mut App, line: &str, why: &str, at: Rect) -> String {
    let shown = screen(app, 80, 24);
    let row = shown.lines().find(|l| l.contains(&format!("▶ ⊘ {line}")));
    assert!(
        row.is_some_and(|l| l.contains('…')),
        "the list cuts it: {shown}"
    );
    assert!(
        popup_text(&shown, at.x, at.width).contains(why),
        "{why}\n{shown}"
    );
    shown
}

pub(super) fn last_events(app: &App) -> Vec<Event> {
    app.encounter()
        .applied()
        .last()
        .map(|e| e.events.clone())
        .unwrap_or_default()
}

pub(super) fn id(app: &App, name: &str) -> crate::encounter::CombatantId {
    app.state().find(name).expect("named combatant").id
}

#[test]
fn the_demo_script_runs() {
    let mut enc = demo::empty();
    assert_eq!(demo::script(&mut enc, demo::DEMO, 7), Ok(()));
}

// ---- snapshots ----

fn snap_all(name: &str, mut make: impl FnMut() -> App, keys: &dyn Fn(&mut App)) {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut app = make();
        keys(&mut app);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen(&mut app, w, h));
    }
}

/// `saves/demo.ron`, the fight a newcomer sees first, with the built-in catalogue.
fn saved_demo_app() -> App {
    let rules = crate::rules::HouseRules::embedded();
    let catalogue = crate::catalogue::Catalogue::embedded(&rules).expect("built-in catalogue");
    let save = crate::save::file::parse(include_bytes!("../../saves/demo.ron"), "saves/demo.ron")
        .expect("the demo parses");
    let enc = save
        .into_encounter("saves/demo.ron", std::sync::Arc::new(catalogue))
        .expect("the demo loads");
    App::new(enc, "demo".into(), Box::new(NoSave), None).with_dice(Box::new(RandomDice::seeded(42)))
}

#[test]
fn snapshots_of_the_saved_demo() {
    type Keys = fn(&mut App);
    let popups: [(&str, Keys); 10] = [
        ("main", |_| {}),
        ("picker", |a| press(a, KeyCode::Enter)),
        ("picker_filtered", |a| {
            press(a, KeyCode::Enter);
            typ(a, "fire");
        }),
        ("picker_interrupt", |a| {
            typ(a, "i");
            press(a, KeyCode::Enter);
        }),
        ("form_add", |a| typ(a, "a")),
        ("form_delay", |a| {
            typ(a, "n");
            typ(a, "d");
        }),
        ("choose_fire_ready", |a| {
            select(a, "Moth");
            typ(a, "f");
        }),
        ("help", |a| typ(a, "?")),
        ("command_line", |a| typ(a, ":act Roto-drone Fi")),
        ("log_focused", |a| press(a, KeyCode::Tab)),
    ];
    for (name, keys) in popups {
        snap_all(&format!("saved_demo_{name}"), saved_demo_app, &keys);
    }
}

#[test]
fn snapshots_of_every_pane_and_popup() {
    type Keys = fn(&mut App);
    let popups: [(&str, Keys); 8] = [
        ("main", |_| {}),
        ("picker", |a| press(a, KeyCode::Enter)),
        ("picker_filtered", |a| {
            press(a, KeyCode::Enter);
            typ(a, "fire");
        }),
        ("form_add", |a| typ(a, "a")),
        ("choose_interrupt", |a| typ(a, "i")),
        ("help", |a| typ(a, "?")),
        ("command_line", |a| typ(a, ":act Jinx Fi")),
        ("log_focused", |a| press(a, KeyCode::Tab)),
    ];
    for (name, keys) in popups {
        snap_all(&format!("demo_{name}"), demo_app, &keys);
        snap_all(&format!("empty_{name}"), empty_app, &keys);
    }
    let mut small = demo_app();
    insta::assert_snapshot!("too_small_79x24", screen(&mut small, 79, 24));
}

/// Whether the screen at this size uses no colour at all.
pub(super) fn colourless(app: &mut App, w: u16, h: u16) -> bool {
    app.resize(w, h);
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    (&*app).render(area, &mut buf);
    buf.content()
        .iter()
        .all(|c| c.fg == Color::Reset && c.bg == Color::Reset)
}

#[test]
fn monochrome_uses_no_colour() {
    let mut app = demo_app();
    app.set_monochrome(true);
    assert!(colourless(&mut app, 120, 36));
    // State still shows: the current actor is reversed, and the selection has its gutter mark.
    let txt = screen(&mut app, 120, 36);
    assert!(txt.contains("› ▶ 5 Jinx"), "{txt}");
}

// ---- scripted key sessions ----

#[test]
fn add_a_combatant_and_a_group_with_the_form() {
    let mut app = empty_app();
    typ(&mut app, "a");
    press(&mut app, KeyCode::Enter);
    // Validation is shown in the field; nothing is added.
    assert!(screen(&mut app, 80, 24).contains("✗ required"));
    assert_eq!(app.state().combatants.len(), 0);
    typ(&mut app, "Rook");
    press(&mut app, KeyCode::Tab);
    for _ in 0..3 {
        press(&mut app, KeyCode::Backspace);
    }
    typ(&mut app, "pc");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Backspace);
    typ(&mut app, "5");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "x");
    // Shown in the field as it is typed, and again on Enter.
    assert!(screen(&mut app, 80, 24).contains("is not a whole number"));
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app, 80, 24).contains("is not a whole number"));
    press(&mut app, KeyCode::Backspace);
    typ(&mut app, "3");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    let rook = app.state().find("Rook").expect("added");
    assert_eq!(rook.side, crate::encounter::Side::Pc);
    assert_eq!(rook.sheet.intuition, 5);
    // A group: count 2.
    typ(&mut app, "a");
    typ(&mut app, "Thug");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "2");
    press(&mut app, KeyCode::Enter);
    assert!(app.state().find("Thug 2").is_some());
    assert!(screen(&mut app, 80, 24).contains("Thug 2"));
    // Edit: rename.
    select(&mut app, "Rook");
    typ(&mut app, "e");
    ctrl(&mut app, 'u');
    typ(&mut app, "Raven");
    press(&mut app, KeyCode::Enter);
    assert!(app.state().find("Raven").is_some());
    // Remove.
    typ(&mut app, "x");
    assert!(app.state().find("Raven").is_none());
}

#[test]
fn a_key_that_starts_no_side_word_changes_nothing_and_the_add_form_says_the_choices() {
    // Given the add form on its Side toggle
    let mut app = demo_app();
    typ(&mut app, "a");
    typ(&mut app, "Rook");
    press(&mut app, KeyCode::Tab);
    let Mode::Form(f) = app.mode() else {
        panic!("the add form")
    };
    assert_eq!(f.fields[f.focus].label, "Side");
    let side = f.fields[f.focus].get();
    // When the GM types what starts neither word
    typ(&mut app, "3");
    // Then Side is as it was, and the form's last line says what the field takes
    let Mode::Form(f) = app.mode() else {
        panic!("the add form")
    };
    assert_eq!(f.fields[1].get(), side);
    let why = "Side is a choice: npc, pc (Space or ←/→ to change, or its first letter)";
    assert_eq!(f.error.as_deref(), Some(why));
    assert!(screen(&mut app, 100, 30).contains(why));
}

/// For Tab and for Shift-Tab: the form `open` leaves saying `why` on its last line no longer
/// says it once the key moves to another field, as after any other key that acts.
pub(super) fn tab_clears(open: impl Fn() -> App, why: &str) {
    for key in [KeyCode::Tab, KeyCode::BackTab] {
        // Given the form saying `why` on its last line
        let mut app = open();
        assert!(screen(&mut app, 120, 40).contains(why), "{why}");
        // When the GM moves to another field
        press(&mut app, key);
        // Then the message is gone
        let shown = screen(&mut app, 120, 40);
        assert!(!shown.contains(why), "{why}, {key:?}: {shown}");
    }
}

#[test]
fn tab_and_shift_tab_clear_the_add_forms_last_line_message_as_any_key_that_acts() {
    // The add form saying what its Side toggle takes
    let open = || {
        let mut app = demo_app();
        typ(&mut app, "a");
        typ(&mut app, "Rook");
        press(&mut app, KeyCode::Tab);
        typ(&mut app, "3");
        app
    };
    tab_clears(open, "Side is a choice");
}

#[test]
fn tab_past_the_last_field_wraps_to_the_first_which_keeps_its_value_to_type_on() {
    // Given the add form with a Name typed in
    let mut app = demo_app();
    typ(&mut app, "a");
    typ(&mut app, "Rook");
    let Mode::Form(f) = app.mode() else {
        panic!("the add form")
    };
    let n = f.fields.len();
    // When the GM tabs past the last field, back to the Name, and types
    for _ in 0..n {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "ie");
    // Then the Name is typed on, not over: nothing is lost to the wrap
    let Mode::Form(f) = app.mode() else {
        panic!("the add form")
    };
    assert_eq!((f.focus, f.fields[0].get()), (0, "Rookie".to_string()));
    // And a field entered without wrapping is still typed over
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::BackTab);
    typ(&mut app, "Kat");
    let Mode::Form(f) = app.mode() else {
        panic!("the add form")
    };
    assert_eq!(f.fields[0].get(), "Kat");
}

#[test]
fn the_add_form_brings_a_character_in_hidden_when_asked_and_never_by_itself() {
    // The add form for `name`, at its last field: that field's label and value.
    let last_field = |app: &mut App, name: &str| {
        typ(app, "a");
        typ(app, name);
        press(app, KeyCode::BackTab);
        match app.mode() {
            Mode::Form(f) => (f.fields[f.focus].label, f.fields[f.focus].get()),
            _ => panic!("the add form"),
        }
    };
    // Enter, and Enter again on the initiative form asked mid-fight: whether `who` is hidden.
    let added_hidden = |app: &mut App, who: &str| {
        press(app, KeyCode::Enter);
        if matches!(app.mode(), Mode::Form(_)) {
            press(app, KeyCode::Enter);
        }
        app.state()
            .find(who)
            .map(crate::encounter::Combatant::is_hidden)
    };
    // Given the add form, a name typed and its last field, Hidden, turned to yes
    let mut app = demo_app();
    assert_eq!(last_field(&mut app, "Sniper"), ("Hidden", "no".into()));
    press(&mut app, KeyCode::Char(' '));
    // When the GM adds it, then it comes in hidden from the players
    assert_eq!(added_hidden(&mut app, "Sniper"), Some(true));
    // And the next add form, though it starts from the last one added, says no again
    assert_eq!(last_field(&mut app, "Spotter"), ("Hidden", "no".into()));
    assert_eq!(added_hidden(&mut app, "Spotter"), Some(false));
}

#[test]
fn a_shared_roll_left_on_from_a_group_is_not_sent_for_one_added_alone() {
    // Given the add form with Shared roll on and no Count
    let mut app = demo_app();
    typ(&mut app, "a");
    typ(&mut app, "Wren");
    press(&mut app, KeyCode::BackTab);
    press(&mut app, KeyCode::BackTab);
    let Mode::Form(f) = app.mode() else {
        panic!("the add form")
    };
    assert_eq!(f.fields[f.focus].label, "Shared roll");
    if f.fields[f.focus].get() == "no" {
        press(&mut app, KeyCode::Char(' '));
    }
    // When the GM adds the one character
    press(&mut app, KeyCode::Enter);
    // Then it joins, the toggle dropped rather than refused
    assert!(
        app.enc.state().find("Wren").is_some(),
        "{:?}",
        app.mode().kind()
    );
    assert!(
        app.enc.applied().iter().all(|e| !e.text.contains("shared")),
        "{:?}",
        app.enc.applied().last().map(|e| &e.text)
    );
}

#[test]
fn a_group_that_rolls_one_by_one_joins_a_fight_with_a_form_for_each() {
    // Given a fight under way, and the add form for a group of two that does not share a roll
    let mut app = demo_app();
    typ(&mut app, "a");
    typ(&mut app, "Rook");
    press(&mut app, KeyCode::BackTab);
    press(&mut app, KeyCode::BackTab);
    let Mode::Form(f) = app.mode() else {
        panic!("the add form")
    };
    assert_eq!(f.fields[f.focus].label, "Shared roll");
    if f.fields[f.focus].get() == "yes" {
        press(&mut app, KeyCode::Char(' '));
    }
    // Hidden, Name, Side, then Count.
    for _ in 0..4 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "2");
    // When the GM adds it and types in the table's hits for each in turn
    press(&mut app, KeyCode::Enter);
    for (who, hits) in [("Rook 1", "3"), ("Rook 2", "1")] {
        let Mode::Form(f) = app.mode() else {
            panic!("{who}'s initiative form: {:?}", app.mode().kind())
        };
        assert!(f.title.contains(who), "{}", f.title);
        typ(&mut app, hits);
        press(&mut app, KeyCode::Enter);
    }
    // Then each has the roll typed for it, and the tracker is back
    assert!(matches!(app.mode(), Mode::Tracker), "{:?}", app.message());
    for (who, hits) in [("Rook 1", 3), ("Rook 2", 1)] {
        let roll = app.state().find(who).and_then(|c| c.initiative.clone());
        assert_eq!(roll.map(|r| r.hits), Some(hits), "{who}");
    }
}

#[test]
fn roll_type_in_a_roll_and_start() {
    let mut app = empty_app();
    demo::script(
        &mut app.enc,
        &["add Jinx pc int 5 rea 6", "add Ganger x2 npc int 3 rea 3"],
        1,
    )
    .expect("setup");
    typ(&mut app, "R");
    assert!(
        app.state()
            .find("Ganger 1")
            .is_some_and(|c| c.initiative.is_some())
    );
    assert!(
        app.state()
            .find("Jinx")
            .is_some_and(|c| c.initiative.is_none())
    );
    // Starting without Jinx's roll is refused, with the reason.
    typ(&mut app, "s");
    assert!(screen(&mut app, 80, 24).contains("not rolled initiative"));
    select(&mut app, "Jinx");
    typ(&mut app, "t");
    typ(&mut app, "4");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Backspace);
    typ(&mut app, "y");
    press(&mut app, KeyCode::Enter);
    let roll = app
        .state()
        .find("Jinx")
        .and_then(|c| c.initiative.clone())
        .expect("typed");
    assert_eq!(roll.hits, 4);
    assert!(roll.glitch.is_glitch());
    typ(&mut app, "s");
    assert!(matches!(app.state().phase, Phase::Fight(_)));
    assert!(screen(&mut app, 80, 24).contains("Round 1"));
    typ(&mut app, "r");
    typ(&mut app, "n");
    typ(&mut app, "E");
    assert!(matches!(app.state().phase, Phase::Ended { .. }));
}

#[test]
fn bare_actions_by_number_keys() {
    let mut app = demo_app();
    let jinx = id(&app, "Jinx");
    let ip = app.state().get(jinx).map(|c| c.ip).unwrap_or_default();
    typ(&mut app, "1");
    assert_eq!(app.state().get(jinx).map(|c| c.ip), Some(ip - 1));
    typ(&mut app, "2");
    assert_eq!(app.state().get(jinx).map(|c| c.ip), Some(ip - 3));
    assert!(screen(&mut app, 160, 48).contains("Jinx: Simple action (2 IP)"));
    // A Complex one costs more than the 3 IP left: refused, with the reason, nothing changes.
    let before = app.state().clone();
    typ(&mut app, "3");
    assert_eq!(app.state(), &before);
    let s = screen(&mut app, 160, 48);
    assert!(s.contains("Jinx has not enough IP: has 3, needs 4"), "{s}");
}

#[test]
fn act_through_the_picker() {
    let mut app = demo_app();
    let jinx = id(&app, "Jinx");
    let ip = app.state().get(jinx).map(|c| c.ip).unwrap_or_default();
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire w");
    let s = screen(&mut app, 160, 48);
    assert!(s.contains("Test: Firearm + Agility"));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert_eq!(app.state().get(jinx).map(|c| c.ip), Some(ip - 2));
    assert!(screen(&mut app, 160, 48).contains("Jinx: Fire Weapon"));
    // Recent actions come first next time.
    press(&mut app, KeyCode::Enter);
    let Mode::Picker(p) = app.mode() else {
        panic!("picker")
    };
    let first = &app.encounter().catalogue().actions()[p.items[0].index];
    assert_eq!(first.name, "Fire Weapon");
    // Tab cycles the groups.
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    let Mode::Picker(p) = app.mode() else {
        panic!("picker")
    };
    assert_eq!(p.group, Some(crate::catalogue::ActionGroup::Simple));
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode(), Mode::Tracker));
}

#[test]
fn the_picker_says_how_many_actions_are_out_of_sight_below_and_above() {
    // Given the action picker of every action at 80×24, more actions than its list shows
    let mut app = demo_app();
    press(&mut app, KeyCode::Enter);
    let Mode::Picker(p) = app.mode() else {
        panic!("picker")
    };
    let all = p.items.len();
    // Then its border says how many are out of sight below, and none above
    let s = screen(&mut app, 80, 24);
    let shown = s
        .lines()
        .filter(|l| l.starts_with("│") && l.contains(" IP"))
        .count();
    assert!(shown < all, "{s}");
    let below = format!("▼ {} more", all - shown);
    assert!(s.contains(&below), "{below} in\n{s}");
    assert!(!s.contains("▲"), "{s}");
    // When the selection goes past the last line shown
    for _ in 0..shown {
        press(&mut app, KeyCode::Down);
    }
    // Then the border says how many are out of sight above too
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("▲ 1 more"), "{s}");
    assert!(s.contains(&format!("▼ {} more", all - shown - 1)), "{s}");
}

/// Ctrl-N and Ctrl-D are the ready picker's: the picker of an action to spend now and the
/// interrupt picker neither offer them nor spend with them.
#[test]
fn ctrl_n_and_ctrl_d_spend_nothing_outside_the_ready_picker() {
    for open in ["\n", "i"] {
        let mut app = demo_app();
        let cursor = app.encounter().cursor();
        if open == "i" {
            typ(&mut app, "i");
            choose(&mut app, "Whisper");
            typ(&mut app, "dodge");
        } else {
            press(&mut app, KeyCode::Enter);
        }
        assert!(matches!(app.mode(), Mode::Picker(_)));
        let bar = screen(&mut app, 200, 48);
        let bar = bar.lines().last().unwrap_or_default();
        assert!(!bar.contains("C-n") && !bar.contains("C-d"), "{bar}");
        ctrl(&mut app, 'n');
        ctrl(&mut app, 'd');
        assert_eq!(app.encounter().cursor(), cursor, "{open:?}");
        assert!(matches!(app.mode(), Mode::Picker(_)), "{open:?}");
    }
    // The ready picker offers them.
    let mut app = demo_app();
    typ(&mut app, "y");
    typ(&mut app, "the guard looks");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Picker(_)));
    let shown = screen(&mut app, 200, 48);
    let bar = shown.lines().last().unwrap_or_default();
    assert!(bar.contains("C-n") && bar.contains("C-d"), "{bar}");
}

#[test]
fn a_refused_action_shows_its_reason_and_changes_nothing() {
    let mut app = demo_app();
    let cursor = app.encounter().cursor();
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "stand");
    let s = screen(&mut app, 160, 48);
    assert!(s.contains("⊘"), "dimmed with a mark:\n{s}");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.encounter().cursor(), cursor);
    let (msg, err) = app
        .message()
        .map(|(m, e)| (m.to_string(), e))
        .expect("a reason");
    assert!(err);
    let head: String = msg.chars().take(20).collect();
    assert!(screen(&mut app, 160, 48).contains(&format!("✗ {head}")));
}

#[test]
fn an_ended_encounter_offers_and_takes_only_reading_and_undo() {
    // Given a fight the GM has ended
    let mut app = demo_app();
    typ(&mut app, "E");
    assert!(matches!(app.state().phase, Phase::Ended { .. }));
    let cursor = app.encounter().cursor();
    // Then the key bar offers undo, not the fight's keys
    let s = screen(&mut app, 160, 48);
    let bar = s.lines().last().unwrap_or_default().to_string();
    assert!(bar.contains("u undo"), "{bar}");
    for gone in [
        " next ",
        "⏎ act ",
        " delay ",
        " ready ",
        " interrupt ",
        " damage ",
        " add ",
    ] {
        assert!(
            !format!(" {bar} ").contains(gone),
            "{gone} offered after the end: {bar}"
        );
    }
    // When the GM presses a fight's key, no picker or form opens: one sentence, nothing changes
    for key in ['i', 'a', 'h', 'd', 'e'] {
        typ(&mut app, &key.to_string());
        assert!(matches!(app.mode, Mode::Tracker), "{key} opened a popup");
        assert_eq!(
            app.message(),
            Some(("the encounter has ended: undo (u) to go back to it", true))
        );
    }
    assert_eq!(app.encounter().cursor(), cursor);
    // And undo brings the fight back
    typ(&mut app, "u");
    assert!(matches!(app.state().phase, Phase::Fight(_)));
}

/// A GM file that did not load is said on the screen at start, not only on standard error
/// (which the screen covers).
#[test]
fn the_screen_opens_with_a_warning_about_the_gms_files() {
    let warning = "/cfg/rules.ron:2:21: Expected integer; using the built-in house rules";
    let mut app = demo_app().with_warning(Some(warning.into()));
    assert_eq!(app.message(), Some((warning, true)));
    let s = screen(&mut app, 160, 48);
    assert!(s.contains(&format!("✗ {warning}")), "{s}");
    assert_eq!(demo_app().with_warning(None).message(), None);
}

#[test]
fn a_message_longer_than_the_screen_wraps_and_reads_whole() {
    // Given an 80-column screen and a refusal longer than a row
    let mut app = demo_app();
    app.paste("x");
    let msg = app.message().expect("a refusal").0.to_string();
    assert!(msg.chars().count() > 80, "{msg}");
    // Then the status line takes the rows it needs, and every word is on the screen
    let s = screen(&mut app, 80, 24);
    let rows: Vec<&str> = s.lines().collect();
    let bar = rows.len() - 1;
    assert!(rows[bar - 2].starts_with("✗ nothing to paste into"), "{s}");
    let shown = format!("{} {}", rows[bar - 2], rows[bar - 1].trim_start());
    assert_eq!(shown, format!("✗ {msg}"));
    assert!(rows[bar - 3].starts_with('└'), "{s}");
    // And with no message the panes have the rows back
    let s = screen(&mut demo_app(), 80, 24);
    assert!(
        s.lines().nth(bar - 2).is_some_and(|l| l.starts_with('└')),
        "{s}"
    );
}

#[test]
fn interrupt_for_any_character() {
    let mut app = demo_app();
    let whisper = id(&app, "Whisper");
    let ip = app.state().get(whisper).map(|c| c.ip).unwrap_or_default();
    typ(&mut app, "i");
    choose(&mut app, "Whisper");
    typ(&mut app, "dodge");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().get(whisper).map(|c| c.ip), Some(ip - 2));
    assert!(
        last_events(&app)
            .iter()
            .any(|e| matches!(e, Event::ActionSpent { who, .. } if *who == whisper))
    );
}

#[test]
fn delay_and_its_firing() {
    let mut app = demo_app();
    // Ganger 1 delays after Jinx: ending Jinx's turn starts the delay's sub-turn.
    assert!(screen(&mut app, 80, 24).contains("↳ Ganger 1, 2 IP, after Jinx"));
    typ(&mut app, "n");
    let turn = app.state().turn().copied().expect("a turn");
    assert_eq!(turn.who, id(&app, "Ganger 1"));
    assert!(matches!(turn.kind, TurnKind::Delayed { .. }));
    // A new delay through the form and the trigger list.
    let mut app = demo_app();
    let actor = app.actor().expect("actor");
    typ(&mut app, "d");
    typ(&mut app, "1");
    press(&mut app, KeyCode::Enter);
    choose(&mut app, "after Whisper");
    assert!(screen(&mut app, 80, 24).contains("↳ Jinx, 1 IP, after Whisper"));
    assert!(matches!(
        app.state().get(actor).and_then(|c| c.reserve.clone()),
        Some(Reserve::Delay { ip: 1, .. })
    ));
    // A delay with no trigger yet: d on its holder names one.
    let mut app = demo_app();
    typ(&mut app, ":delay Jinx 2");
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app, 80, 24).contains("trigger not named"));
    typ(&mut app, "d");
    choose(&mut app, "after Whisper");
    assert!(screen(&mut app, 80, 24).contains("↳ Jinx, 2 IP, after Whisper"));
}

/// A refusal on the status line goes when the input it refused changes or the form moves on:
/// it never stands beside a value it no longer speaks of.
#[test]
fn a_refusal_clears_when_its_input_changes_or_the_form_moves_on() {
    let refused = |app: &App| app.message().is_some_and(|(_, err)| err);
    // Given a delay of too many IP refused
    let mut app = demo_app();
    typ(&mut app, "d");
    typ(&mut app, "9");
    press(&mut app, KeyCode::Enter);
    assert!(refused(&app), "{:?}", app.message());
    // When the GM mends it, then the refusal goes
    press(&mut app, KeyCode::Backspace);
    assert!(!refused(&app), "{:?}", app.message());
    typ(&mut app, "1");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Choose(_)));
    assert!(!refused(&app), "{:?}", app.message());
    // Given a refusal in the tracker, when a form opens and refuses a value of its own, then
    // the older refusal is not left beside it
    let mut app = demo_app();
    typ(&mut app, ":frobnicate");
    press(&mut app, KeyCode::Esc);
    typ(&mut app, "s");
    assert!(refused(&app), "{:?}", app.message());
    typ(&mut app, "a");
    assert!(!refused(&app), "{:?}", app.message());
}

#[test]
fn ready_firing_and_lapsing() {
    let mut fired = demo_app();
    let sledge = id(&fired, "Sledge");
    select(&mut fired, "Sledge");
    typ(&mut fired, "f");
    choose(&mut fired, "before");
    assert!(
        last_events(&fired)
            .iter()
            .any(|e| matches!(e, Event::ReadyFired { .. }))
    );
    assert!(
        fired
            .state()
            .get(sledge)
            .is_some_and(|c| c.reserve.is_none())
    );
    // Lapsing: Sledge's next turn comes and the ready goes.
    let mut lapse = demo_app();
    for _ in 0..12 {
        if lapse.actor() == Some(sledge) {
            break;
        }
        typ(&mut lapse, "n");
    }
    assert_eq!(lapse.actor(), Some(sledge));
    assert!(
        lapse
            .state()
            .get(sledge)
            .is_some_and(|c| c.reserve.is_none())
    );
    // Declaring one through the form and the picker.
    typ(&mut lapse, "y");
    // The GM's own "when" is not doubled: every view writes one.
    typ(&mut lapse, "When the guard looks");
    press(&mut lapse, KeyCode::Tab);
    typ(&mut lapse, "3");
    press(&mut lapse, KeyCode::Enter);
    typ(&mut lapse, "drop");
    ctrl(&mut lapse, 'n');
    assert!(screen(&mut lapse, 120, 36).contains("chosen so far: Drop Prone"));
    typ(&mut lapse, "fire weap");
    press(&mut lapse, KeyCode::Enter);
    assert!(matches!(
        lapse.state().get(sledge).and_then(|c| c.reserve.clone()),
        Some(Reserve::Ready { .. })
    ));
    let shown = screen(&mut lapse, 80, 24);
    assert!(
        shown.contains("ready 3 IP: when the guard looks"),
        "{shown}"
    );
    assert!(!shown.to_lowercase().contains("when when"), "{shown}");
}

#[test]
fn change_of_initiative() {
    let mut app = demo_app();
    // Jinx, at the start of her turn, goes after Whisper.
    select(&mut app, "Jinx");
    typ(&mut app, "m");
    choose(&mut app, "after Whisper");
    assert!(
        last_events(&app)
            .iter()
            .any(|e| matches!(e, Event::TurnDeferred { .. }))
    );
    // Her skipped turn waits for Whisper's; her place changes when it is taken.
    let waits = app.state().get(id(&app, "Jinx")).and_then(|c| c.waits);
    assert_eq!(
        waits.map(|w| (w.relative, w.target)),
        Some((Relative::After, id(&app, "Whisper")))
    );
    // The order says where the skipped turn will be taken, on a line under the one it waits
    // for, as a delay's line is.
    for (w, h) in [(80, 24), (120, 36)] {
        let s = screen(&mut app, w, h);
        let at = s
            .lines()
            .position(|l| l.contains("» Jinx, moved: turn after Whisper"))
            .unwrap_or_else(|| panic!("no moved line at {w}x{h}:\n{s}"));
        let above = s.lines().nth(at - 1).unwrap_or_default();
        assert!(above.contains(" Whisper "), "under Whisper:\n{s}");
    }
    // And `show` says it in the row's note.
    let shown = crate::report::show(app.encounter(), 0);
    assert!(
        shown.contains("[moved, turn to come after Whisper]"),
        "{shown}"
    );
}

/// README ruling: a skipped turn whose chosen character has no turn left in the pass is taken
/// at the pass's end; one who joined this pass with its slot gone by has none, nor can it be a
/// delay's trigger.
#[test]
fn a_newcomer_of_this_pass_takes_a_moved_turn_at_the_passs_end_and_is_no_trigger() {
    // Given Dee joined in Bob's turn, her slot gone by
    let mut app = empty_app();
    for line in [
        "add Ana pc int 3 rea 3",
        "add Bob pc int 3 rea 3",
        "add Cy int 3 rea 3",
        "roll Ana hits 3",
        "roll Bob hits 2",
        "roll Cy hits 1",
        "start",
        "next",
        "add Dee int 3 rea 3",
        "roll Dee hits 5",
    ] {
        typ(&mut app, &format!(":{line}"));
        press(&mut app, KeyCode::Enter);
    }
    assert_eq!(app.actor(), Some(id(&app, "Bob")));
    // When Bob's places are offered, then the one after Dee keeps the turn, at the pass's end
    typ(&mut app, "m");
    let s = screen(&mut app, 160, 48);
    assert!(
        s.contains("after Dee (before Ana): the turn is taken at the pass's end"),
        "{s}"
    );
    press(&mut app, KeyCode::Esc);
    // When Bob delays, then Dee is refused as the trigger, saying she acts from the next pass
    typ(&mut app, "d");
    typ(&mut app, "1");
    press(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 160, 48);
    assert!(
        s.contains("Dee joined this pass and acts from the next"),
        "{s}"
    );
}

#[test]
fn edge_downed_damage_heal_and_status() {
    let mut app = demo_app();
    let jinx = id(&app, "Jinx");
    select(&mut app, "Jinx");
    typ(&mut app, "g");
    assert_eq!(
        app.state().get(jinx).map(|c| c.edge_uses_this_round),
        Some(1)
    );
    assert!(screen(&mut app, 80, 24).contains("Edge IP used this round"));
    typ(&mut app, "z");
    assert!(
        app.state()
            .get(jinx)
            .is_some_and(crate::encounter::Combatant::is_downed)
    );
    assert!(screen(&mut app, 80, 24).contains("Jinx Downed: toggled by the GM"));
    // Downed in her own turn, Jinx's turn ended and the selection followed the next actor.
    select(&mut app, "Jinx");
    typ(&mut app, "z");
    assert!(app.state().get(jinx).is_some_and(|c| !c.is_downed()));
    select(&mut app, "Jinx");
    typ(&mut app, "h");
    press(&mut app, KeyCode::Backspace);
    typ(&mut app, "3");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().get(jinx).map(|c| c.damage.physical), Some(3));
    select(&mut app, "Jinx");
    typ(&mut app, "H");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().get(jinx).map(|c| c.damage.physical), Some(2));
    select(&mut app, "Jinx");
    typ(&mut app, "+");
    typ(&mut app, "Blinded");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "round");
    press(&mut app, KeyCode::Enter);
    assert!(
        app.state()
            .get(jinx)
            .is_some_and(|c| c.status("Blinded").is_some())
    );
    select(&mut app, "Jinx");
    typ(&mut app, "-");
    choose(&mut app, "Blinded");
    assert!(
        app.state()
            .get(jinx)
            .is_some_and(|c| c.status("Blinded").is_none())
    );
}

#[test]
fn undo_and_redo() {
    let mut app = demo_app();
    let cursor = app.encounter().cursor();
    let actor = app.actor();
    typ(&mut app, "n");
    assert_ne!(app.actor(), actor);
    typ(&mut app, "u");
    assert_eq!(app.encounter().cursor(), cursor);
    assert_eq!(app.actor(), actor);
    assert!(screen(&mut app, 80, 24).contains("↶ undone: next"));
    ctrl(&mut app, 'r');
    assert_eq!(app.encounter().cursor(), cursor + 1);
    assert_ne!(app.actor(), actor);
    // The log keeps every note, in the order they happened: undone, redone, undone again.
    typ(&mut app, "u");
    let notes: Vec<&str> = app
        .log
        .iter()
        .filter(|l| l.entry.is_none())
        .map(|l| l.head.as_str())
        .collect();
    assert!(
        notes.ends_with(&["↶ undone: next", "↷ redone: next", "↶ undone: next"]),
        "{notes:?}"
    );
}

#[test]
fn command_line_with_completion() {
    let mut app = demo_app();
    typ(&mut app, ":dam");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "Jin");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "2 physical");
    let Mode::Command(input) = app.mode() else {
        panic!("command")
    };
    assert_eq!(input.value(), "damage Jinx 2 physical");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().find("Jinx").map(|c| c.damage.physical), Some(2));
    // A bad line shows the parser's reason and stays open.
    typ(&mut app, ":damage Nobody 2");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Command(_)));
    assert!(app.message().is_some_and(|m| m.1));
    press(&mut app, KeyCode::Esc);
    typ(&mut app, ":why Jinx Whisper");
    press(&mut app, KeyCode::Enter);
    assert!(app.message().is_some_and(|m| m.0.contains("stands before")));
}

#[test]
fn an_undo_of_more_than_there_is_is_refused_on_the_line_and_undoes_nothing() {
    let mut app = demo_app();
    let cursor = app.enc.cursor();
    // A count past what a number holds reads as the biggest there is: refused at once, not
    // tried two thousand million times.
    for (line, said) in [
        (
            ":undo 99999999999",
            format!("undo 2147483647 or more: only {cursor} commands to undo"),
        ),
        (
            &*format!(":undo {}", cursor + 1),
            format!("undo {}: only {cursor} commands to undo", cursor + 1),
        ),
        (":redo 2", "nothing to redo".to_string()),
    ] {
        typ(&mut app, line);
        press(&mut app, KeyCode::Enter);
        assert!(matches!(app.mode(), Mode::Command(_)), "{line}");
        assert_eq!(app.message().map(|m| m.0), Some(said.as_str()), "{line}");
        assert_eq!(app.enc.cursor(), cursor, "{line}");
        press(&mut app, KeyCode::Esc);
    }
    typ(&mut app, &format!(":undo {cursor}"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.enc.cursor(), 0);
}

#[test]
fn help_quit_and_too_small() {
    let mut app = demo_app();
    typ(&mut app, "?");
    assert!(screen(&mut app, 80, 24).contains("Help (Esc closes)"));
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode(), Mode::Tracker));
    let s = screen(&mut app, 60, 20);
    assert!(s.contains("terminal too small (need 80×24, now 60×20)"));
    // The narrowest terminal still shows the size needed, wrapped.
    let tiny = screen(&mut app, 20, 5);
    assert!(
        tiny.contains("need 80×24") && tiny.contains("20×5") && tiny.contains("q: quit"),
        "{tiny}"
    );
    typ(&mut app, "n");
    assert!(!app.should_quit());
    typ(&mut app, "q");
    assert!(app.should_quit());
    // F1 shows the picker's keys from inside the picker; Esc goes back to it.
    let mut p = demo_app();
    press(&mut p, KeyCode::Enter);
    press(&mut p, KeyCode::F(1));
    assert!(screen(&mut p, 80, 24).contains("Action picker"));
    press(&mut p, KeyCode::Esc);
    assert!(matches!(p.mode(), Mode::Picker(_)));
    let mut c = demo_app();
    typ(&mut c, ":");
    ctrl(&mut c, 'c');
    assert!(c.should_quit());
}

#[test]
fn read_only_refuses_every_change() {
    let mut app = App::new(
        demo::encounter(),
        "Demo".into(),
        Box::new(NoSave),
        Some("opened with --view".into()),
    );
    let cursor = app.encounter().cursor();
    typ(&mut app, "n");
    typ(&mut app, "u");
    assert_eq!(app.encounter().cursor(), cursor);
    assert!(app.message().is_some_and(|m| m.1 && m.0.contains("--view")));
}

fn render_at(app: &mut App, w: u16, h: u16) {
    app.resize(w, h);
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    (&*app).render(area, &mut buf);
}

fn app_in_mode(mode: u8) -> App {
    let mut app = demo_app();
    match mode {
        1 => press(&mut app, KeyCode::Enter),
        2 => typ(&mut app, "a"),
        3 => typ(&mut app, "?"),
        4 => typ(&mut app, "i"),
        5 => typ(&mut app, ":roll all"),
        _ => {}
    }
    app
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
    #[test]
    fn any_size_from_0x0_to_200x60_renders(w in 0u16..=200, h in 0u16..=60, mode in 0u8..6) {
        let mut app = app_in_mode(mode);
        render_at(&mut app, w, h);
    }
}

/// Every size from 0×0 to 200×60, in each mode with a popup (about 15 s at the dev profile's
/// opt-level 1).
#[test]
fn every_size_renders_without_panic() {
    for mode in 0..6 {
        let mut app = app_in_mode(mode);
        for w in 0..=200u16 {
            for h in 0..=60u16 {
                render_at(&mut app, w, h);
            }
        }
    }
}

/// Prints the README capture and key tables: `cargo test readme_material -- --ignored --nocapture`.
#[test]
#[ignore = "prints README material"]
fn readme_material() {
    let mut app = demo_app();
    app.title = "Warehouse ambush".into();
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire w");
    press(&mut app, KeyCode::Enter);
    println!("```text\n{}```", screen(&mut app, 120, 36));
    for m in [
        super::keymap::ModeKind::Tracker,
        super::keymap::ModeKind::Picker,
        super::keymap::ModeKind::ReadyPicker,
        super::keymap::ModeKind::InterruptPicker,
        super::keymap::ModeKind::Form,
        super::keymap::ModeKind::Command,
        super::keymap::ModeKind::Choose,
        super::keymap::ModeKind::Find,
        super::keymap::ModeKind::Help,
        super::keymap::ModeKind::Any,
        super::keymap::ModeKind::TooSmall,
    ] {
        println!("\n### {}\n\n| Key | Does |\n|---|---|", m.label());
        for (k, l) in super::keymap::bindings(m, crate::encounter::system::System::Sr5) {
            println!("| `{}` | {l} |", k.replace('|', "\\|"));
        }
    }
}

struct FailingSave;

impl crate::save::Autosave for FailingSave {
    fn save(&mut self, _encounter: &Encounter) -> Result<(), String> {
        Err("disk full".into())
    }
}

#[test]
fn a_failed_save_shows_in_the_header_and_the_status_line() {
    let mut app = App::new(
        demo::encounter(),
        "Demo".into(),
        Box::new(FailingSave),
        None,
    )
    .with_dice(Box::new(RandomDice::seeded(1)));
    typ(&mut app, "n");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("✗ NOT SAVED"));
    assert!(s.contains("not saved: disk full"));
    // The command itself went through: saving is after the fact.
    assert!(app.encounter().can_undo());
}

/// A store that writes on another thread: the change is on disk at the second look.
struct SlowSave {
    looks: std::rc::Rc<std::cell::Cell<u32>>,
}

impl crate::save::Autosave for SlowSave {
    fn save(&mut self, _encounter: &Encounter) -> Result<(), String> {
        self.looks.set(0);
        Ok(())
    }

    fn written(&mut self) -> crate::save::Written {
        self.looks.set(self.looks.get() + 1);
        if self.looks.get() < 2 {
            crate::save::Written::Writing
        } else {
            crate::save::Written::Yes
        }
    }
}

#[test]
fn the_save_mark_says_saving_until_the_writer_is_done_and_is_sent_alone() {
    let looks = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut app = App::new(
        demo::encounter(),
        "Demo".into(),
        Box::new(SlowSave { looks }),
        None,
    )
    .with_dice(Box::new(RandomDice::seeded(1)));
    app.defer_saves();
    app.resize(160, 48);
    typ(&mut app, "n");
    assert!(app.save_pending());
    let mut term = crate::ui::frame::Screen::new(Vec::new(), 160, 48);
    let area = term.area();
    let shown = term
        .show(crate::ui::view::compose(&app, area))
        .unwrap()
        .clone();
    let first = term.writer().len();
    assert!(!app.flush_save(), "handed over: the mark stays `… saving`");
    assert!(app.saving());
    assert!(screen(&mut app, 160, 48).contains("… saving"));
    assert!(app.poll_save(), "on disk now");
    assert!(!app.saving());
    let marked = term
        .show(crate::ui::view::compose(&app, area))
        .unwrap()
        .clone();
    let head = crate::ui::view::areas(&app, shown.area).head;
    let mark = String::from_utf8_lossy(&term.writer()[first..]).into_owned();
    assert!(
        mark.contains('✓') && mark.len() < 80,
        "the second frame sends the mark alone: {mark:?}"
    );
    let sent = shown.diff(&marked);
    assert!(!sent.is_empty(), "the mark changed");
    assert!(
        sent.iter().all(|&(x, y, _)| head.contains((x, y).into())),
        "only the header's cells are sent: {:?}",
        sent.iter().map(|&(x, y, _)| (x, y)).collect::<Vec<_>>()
    );
    assert!(screen(&mut app, 160, 48).contains("✓ saved"));
}

/// Whether every cell of `buf` takes on a terminal the cells the buffer gives it: the widths of
/// its symbol's characters, each alone as tmux and xterm measure them, add up to the width the
/// buffer measured for the symbol (one glyph, to unicode-width, for emoji joined by U+200D); and
/// no row draws past the area's right edge.
fn drawn_as_measured(buf: &Buffer) -> Result<(), String> {
    use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};
    let area = buf.area;
    for y in area.top()..area.bottom() {
        let (mut x, mut drawn) = (area.left(), 0);
        while x < area.right() {
            let symbol = buf[(x, y)].symbol();
            let measured = symbol.width();
            let parts: usize = symbol.chars().map(|c| c.width().unwrap_or(0)).sum();
            if parts != measured {
                return Err(format!(
                    "({x}, {y}) {}: the buffer measures {measured}, a terminal draws {parts}",
                    symbol.escape_unicode()
                ));
            }
            drawn += parts.max(1);
            x += u16::try_from(measured.max(1)).unwrap_or(u16::MAX);
        }
        if drawn > usize::from(area.width) {
            return Err(format!("row {y} draws {drawn} cells in {}", area.width));
        }
    }
    Ok(())
}

#[test]
fn names_of_joined_emoji_draw_no_wider_than_the_screen_measures() {
    use crate::encounter::{CombatantId, Sheet, Side};
    // Given a fight whose names hold emoji joined by U+200D, an emoji-style selector and a skin
    // tone, as a save from before they were dropped at entry holds them
    let mut enc = demo::empty();
    let names = [
        "👨\u{200d}👩\u{200d}👧 Kin",
        "👩\u{200d}🚀 Cap",
        "❤\u{fe0f} Heart",
        "👍\u{1f3fd} Thumb",
        "👨\u{200d}👩\u{200d}👧\u{200d}👦👨\u{200d}👩\u{200d}👧\u{200d}👦👨\u{200d}👩\u{200d}👧\u{200d}👦",
    ];
    let sheet = Sheet {
        intuition: 3,
        reaction: 3,
        edge: 1,
        dice_modifier: 0,
        ip_bonus: 0,
        body: Some(4),
        willpower: Some(4),
    };
    for (i, name) in (0u32..).zip(names) {
        enc.apply(&Event::CombatantAdded {
            id: CombatantId(i),
            name: name.into(),
            side: Side::Npc,
            sheet,
            group: None,
        });
    }
    demo::script(
        &mut enc,
        &["add Ana pc int 4 rea 4", "roll all", "start"],
        5,
    )
    .unwrap();
    let mut app = app_for(enc);
    // When the screen is drawn, at several sizes, and with a joined name typed into the
    // command line
    for typed in [None, Some(":damage 👨\u{200d}👩\u{200d}👧 Kin")] {
        if let Some(t) = typed {
            typ(&mut app, t);
        }
        for (w, h) in [(80, 24), (100, 30), (160, 48)] {
            app.resize(w, h);
            let area = Rect::new(0, 0, w, h);
            let mut buf = Buffer::empty(area);
            (&app).render(area, &mut buf);
            // Then every cell draws as wide as the buffer measures it, and the names still show
            let said = drawn_as_measured(&buf);
            assert_eq!(
                said,
                Ok(()),
                "{w}×{h}, typed {typed:?}:\n{}",
                screen(&mut app, w, h)
            );
            let shown = screen(&mut app, w, h);
            assert!(shown.contains("Kin") && shown.contains("Cap"), "{shown}");
            // And so does what the terminal is sent
            let mut term = crate::ui::frame::Screen::new(Vec::new(), w, h);
            let sent = term.show(crate::ui::view::compose(&app, area)).unwrap();
            assert_eq!(drawn_as_measured(sent), Ok(()), "{w}×{h}, sent");
        }
    }
}

mod frames;
mod input;
mod sr2097;

#[test]
fn help_pages_to_its_last_line_and_no_further_in_each_theme() {
    for mono in [false, true] {
        let mut app = demo_app();
        app.set_monochrome(mono);
        typ(&mut app, "?");
        let first = screen(&mut app, 80, 24);
        let total: usize = first
            .split(" of ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("the help counts its lines");
        for _ in 0..total {
            press(&mut app, KeyCode::PageDown);
        }
        let last = screen(&mut app, 80, 24);
        assert!(
            last.contains(&format!("–{total} of {total}")),
            "the last page ends on the last line:\n{last}"
        );
        press(&mut app, KeyCode::PageDown);
        assert_eq!(screen(&mut app, 80, 24), last, "no further");
        press(&mut app, KeyCode::PageUp);
        assert_ne!(screen(&mut app, 80, 24), last, "and back up");
    }
}

#[test]
fn a_key_of_another_system_says_whose_it_is_and_changes_nothing() {
    use crate::encounter::System;
    let says = |app: &mut App, keys: &[(KeyCode, &str)]| {
        for (key, sentence) in keys {
            let before = app.encounter().cursor();
            press(app, *key);
            assert!(matches!(app.mode(), Mode::Tracker), "{key:?}");
            assert_eq!(app.encounter().cursor(), before, "{key:?} changed nothing");
            assert_eq!(app.message(), Some((*sentence, true)), "{key:?}");
        }
    };
    // At an SR5 table, 2097's keys (and Anarchy's `c`, `p`) are named with their system.
    says(
        &mut demo_app(),
        &[
            (
                KeyCode::Char('w'),
                "w is damage roll in Shadowrun 2097; this table plays SR5",
            ),
            (
                KeyCode::Char('c'),
                "c is Cooldown in Shadowrun: Anarchy and success check in Shadowrun 2097; this table plays SR5",
            ),
            (
                KeyCode::Char('p'),
                "p is Plot Points in Shadowrun: Anarchy; this table plays SR5",
            ),
        ],
    );
    // At an Anarchy table, the keys of the initiative passes and SR5's.
    let mut enc = Encounter::for_system(
        System::Anarchy,
        std::sync::Arc::new(crate::rules::HouseRules::embedded()),
        std::sync::Arc::new(demo::catalogue()),
    );
    let nix = ["add Nix pc edge 3 body 3 will 4"];
    assert_eq!(demo::script(&mut enc, &nix, 1), Ok(()));
    says(
        &mut app_for(enc),
        &[
            (
                KeyCode::Enter,
                "Enter is act in SR5 and Shadowrun 2097; this table plays Shadowrun: Anarchy",
            ),
            (
                KeyCode::Char('T'),
                "T is test in SR5; this table plays Shadowrun: Anarchy",
            ),
            (
                KeyCode::Char('d'),
                "d is delay in SR5 and Shadowrun 2097; this table plays Shadowrun: Anarchy",
            ),
        ],
    );
}

#[test]
fn t_mid_fight_on_someone_rolled_is_refused_at_the_key() {
    let mut app = demo_app();
    select(&mut app, "Jinx");
    typ(&mut app, "t");
    assert!(matches!(app.mode(), Mode::Tracker), "no form to refuse");
    assert_eq!(
        app.message(),
        Some((
            "Jinx has initiative for this encounter already: rolls hold for the whole fight",
            true
        ))
    );
}

#[test]
fn an_empty_encounter_offers_add_first_in_every_system() {
    use crate::encounter::System;
    for system in System::ALL {
        let enc = Encounter::for_system(
            system,
            std::sync::Arc::new(crate::rules::HouseRules::embedded()),
            std::sync::Arc::new(demo::catalogue()),
        );
        let mut app = app_for(enc);
        let s = screen(&mut app, 120, 30);
        let bar = s.lines().last().unwrap_or_default();
        assert!(bar.starts_with("a add "), "{system}: {bar}");
    }
}

/// The form open, or the mode found instead.
fn form(app: &App) -> &super::mode::form::State {
    let Mode::Form(f) = app.mode() else {
        panic!("not in a form: {:?}", app.mode().kind());
    };
    f
}

/// A field whose length the engine limits stops taking characters at the limit, typed or
/// pasted, and the form's last line says so once; a key that makes room takes the message away.
#[test]
fn a_forms_name_and_status_stop_at_the_engines_limits_and_say_so() {
    let mut app = demo_app();
    let limits = app.encounter().rules().limits;
    let name_max = usize::try_from(limits.name_chars.max).unwrap_or_default();
    let text_max = usize::try_from(limits.text_chars.max).unwrap_or_default();
    // Given the add form, when the GM types past the name's limit
    typ(&mut app, "a");
    typ(&mut app, &"x".repeat(name_max + 5));
    // Then the Name holds the limit, and the form says what was wrong and what is allowed
    assert_eq!(form(&app).fields[0].get(), "x".repeat(name_max));
    let said = format!("Name takes at most {name_max} characters: typing stops there");
    assert_eq!(form(&app).error.as_deref(), Some(said.as_str()));
    assert_eq!(screen(&mut app, 120, 40).matches(&said).count(), 1);
    // And a key that makes room takes it away; a wide character counts one, as the engine counts
    press(&mut app, KeyCode::Backspace);
    assert_eq!(form(&app).error, None);
    typ(&mut app, "漢漢");
    assert_eq!(form(&app).fields[0].get().chars().count(), name_max);
    assert_eq!(form(&app).error.as_deref(), Some(said.as_str()));
    press(&mut app, KeyCode::Esc);
    // Given the status form, a paste past the free text's limit stops at it too
    typ(&mut app, "+");
    app.paste(&"y".repeat(text_max + 3));
    assert_eq!(form(&app).fields[0].get(), "y".repeat(text_max));
    assert_eq!(
        form(&app).error.as_deref(),
        Some(format!("Status takes at most {text_max} characters: typing stops there").as_str())
    );
}

/// The add form's layout is measured in terminal cells and does not follow what is typed: a
/// name of wide characters scrolls inside its field, cut with `…` once left, and the hints stay
/// where they were, the form as tall as it was.
#[test]
fn a_long_name_of_wide_characters_keeps_the_forms_layout() {
    let hint = "empty for one; N for a group of N";
    let at = |s: &str| {
        s.lines()
            .find_map(|l| l.find(hint).map(|b| l[..b].chars().count()))
            .unwrap_or_else(|| panic!("no hint in\n{s}"))
    };
    let mut app = demo_app();
    typ(&mut app, "a");
    let before = screen(&mut app, 80, 24);
    let rows = |s: &str| s.lines().filter(|l| l.contains('│')).count();
    typ(&mut app, &"漢".repeat(40));
    let typing = screen(&mut app, 80, 24);
    assert_eq!(at(&typing), at(&before), "{typing}");
    assert_eq!(rows(&typing), rows(&before), "{typing}");
    press(&mut app, KeyCode::Tab);
    let left = screen(&mut app, 80, 24);
    assert_eq!(at(&left), at(&before), "{left}");
    assert_eq!(rows(&left), rows(&before), "{left}");
    let name = left.lines().find(|l| l.contains("漢")).unwrap_or_default();
    assert!(name.contains("Name") && name.contains('…'), "{left}");
}

/// The add form's Name scrolled inside its 16 cells: `…` where its start is hidden, `…` where
/// its end is, both when both are; a wide character is never split.
#[test]
fn a_scrolled_text_field_marks_each_hidden_end() {
    let name_row = |app: &mut App| {
        let shown = screen(app, 80, 24);
        shown
            .lines()
            .find(|l| l.contains("▶Name"))
            .unwrap_or_else(|| panic!("no Name row in\n{shown}"))
            .to_string()
    };
    let mut app = demo_app();
    typ(&mut app, "a");
    typ(&mut app, "abcdefghijklmnopqrstuvwxyz");
    let end = name_row(&mut app);
    assert!(end.contains("▶Name        …mnopqrstuvwxyz "), "{end}");
    for _ in 0..6 {
        press(&mut app, KeyCode::Left);
    }
    let both = name_row(&mut app);
    assert!(both.contains("▶Name        …hijklmnopqrstu… "), "{both}");
    let mut app = demo_app();
    typ(&mut app, "a");
    typ(&mut app, &"漢".repeat(12));
    let wide = name_row(&mut app);
    assert!(wide.contains("▶Name        …漢"), "{wide}");
    let value: String = wide
        .chars()
        .skip_while(|c| *c != '…')
        .take_while(|c| *c != 'e')
        .collect();
    assert_eq!(value.matches('漢').count(), 7, "{wide}");
}

/// The status form (`+`): its Until toggle's words all show, its hint under them, at 80x24 as
/// at 160x48.
#[test]
fn snapshots_of_the_status_form() {
    snap_all("form_status", demo_app, &|a| typ(a, "+"));
    snap_all("form_status_until", demo_app, &|a| {
        typ(a, "+");
        press(a, KeyCode::Tab);
    });
}

#[test]
fn a_group_members_number_shows_when_its_name_is_cut() {
    // Given a group of ten whose name is too long for the table's column at 80 columns
    let mut app = empty_app();
    let long = "龍".repeat(20);
    demo::script(
        &mut app.enc,
        &[&format!("add {long} x10 npc int 3 rea 3")],
        1,
    )
    .expect("setup");
    // When the table is drawn at 80×24
    let s = screen(&mut app, 80, 24);
    // Then each member's row is cut before its number, which shows: 1 and 10 differ
    for n in ["1", "2", "9"] {
        assert!(s.contains(&format!("… {n} ")), "{n}\n{s}");
    }
    assert!(!s.contains(&format!("{long} 1")), "the name is cut\n{s}");
    let mut app10 = empty_app();
    demo::script(
        &mut app10.enc,
        &[&format!("add {long} x10 npc int 3 rea 3")],
        1,
    )
    .expect("setup");
    select(&mut app10, &format!("{long} 10"));
    assert!(screen(&mut app10, 80, 24).contains("… 10 "), "member 10");
}

#[test]
fn read_only_cuts_its_reason_with_an_ellipsis_and_bars_only_the_keys_that_work() {
    let reason = crate::save::lock::LockError::InUse { pid: Some(123_456) }.to_string();
    let mut app = App::new(
        demo::encounter(),
        "Demo".into(),
        Box::new(NoSave),
        Some(reason),
    );
    let shown = screen(&mut app, 100, 30);
    let lines: Vec<&str> = shown.lines().collect();
    assert!(
        lines[0].contains("(process 123456)") || lines[0].ends_with('…'),
        "{}",
        lines[0]
    );
    let bar = lines.last().copied().unwrap_or_default();
    for refused in [" act ", " next ", " add "] {
        assert!(!bar.contains(refused), "{bar}");
    }
    assert!(bar.contains("help"), "{bar}");
}

/// A save found untrustworthy while a form is open turns the screen read-only: the form
/// closes at once, the status line saying why, and nothing it held is done.
#[test]
fn a_form_open_when_the_screen_turns_read_only_closes_and_the_status_line_says_why() {
    for submit in [false, true] {
        // Given the add form open, a name typed, and the check of the save about to distrust it
        let mut app = demo_app().with_audit(crate::save::audit::Audit::with(|| {
            Err(crate::save::audit::Distrust {
                message: "the save was changed by another srtrack".into(),
                history: None,
            })
        }));
        let before = app.state().clone();
        typ(&mut app, "a");
        assert!(matches!(app.mode(), Mode::Form(_)));
        typ(&mut app, "Zed");
        // When the check's verdict comes in (polled, or waited for by the submit)
        if submit {
            press(&mut app, KeyCode::Enter);
        } else {
            app.start_audit();
            while !app.poll_audit() {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        // Then the form is closed, the status line says why, and nothing changed
        assert!(
            matches!(app.mode(), Mode::Tracker),
            "{:?}",
            app.mode().kind()
        );
        let (said, error) = app.message().unwrap_or_default();
        assert!(error, "{said}");
        assert!(
            said.starts_with("read-only: the save was changed by another srtrack")
                && said.contains("form was closed"),
            "{said}"
        );
        assert_eq!(app.state(), &before);
    }
}

/// A store that counts what it was given to write.
struct CountingSave {
    saves: std::rc::Rc<std::cell::Cell<u32>>,
}

impl crate::save::Autosave for CountingSave {
    fn save(&mut self, _encounter: &Encounter) -> Result<(), String> {
        self.saves.set(self.saves.get() + 1);
        Ok(())
    }
}

/// An app as the event loop runs it (saves after the frame) whose save's check answers only
/// when told, with the number of writes its store was given.
fn app_checking(
    verdict: std::sync::mpsc::Receiver<Result<(), crate::save::audit::Distrust>>,
) -> (App, std::rc::Rc<std::cell::Cell<u32>>) {
    let saves = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut app = App::new(
        demo::encounter(),
        "Demo".into(),
        Box::new(CountingSave {
            saves: std::rc::Rc::clone(&saves),
        }),
        None,
    )
    .with_dice(Box::new(RandomDice::seeded(1)))
    .with_audit(crate::save::audit::Audit::with(move || {
        verdict.recv().unwrap_or(Ok(()))
    }));
    app.defer_saves();
    app.start_audit();
    (app, saves)
}

fn until_checked(app: &mut App) {
    while app.auditing() {
        app.poll_audit();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Issue 14: a key straight after opening a long save did not wait for its check. The change
/// shows at once; it is written only once the check trusts the save.
#[test]
fn a_change_made_while_the_save_is_checked_shows_at_once_and_is_written_after_the_verdict() {
    // Given a save whose check has not answered
    let (tx, rx) = std::sync::mpsc::channel();
    let (mut app, saves) = app_checking(rx);
    let before = app.state().clone();
    // When the GM acts and undoes and acts again before it answers
    typ(&mut app, "n");
    typ(&mut app, "u");
    typ(&mut app, "n");
    // Then the change is on the screen, and nothing is written yet
    assert_ne!(app.state(), &before);
    let changed = app.state().clone();
    assert!(app.auditing());
    assert!(app.save_pending());
    assert!(!app.flush_save());
    assert_eq!(saves.get(), 0);
    // When the check trusts the save, then the change is written, once
    tx.send(Ok(())).unwrap();
    until_checked(&mut app);
    assert_eq!(app.state(), &changed);
    app.flush_save();
    assert_eq!(saves.get(), 1);
    assert!(!app.save_pending());
    let (said, error) = app.message().unwrap_or_default();
    assert!(!error, "{said}");
}

/// A change made while the check runs is taken back if the check distrusts the save: the
/// screen shows the save's history, read-only, and the bad file is never written over.
#[test]
fn a_change_made_while_the_save_is_checked_is_taken_back_when_the_save_is_distrusted() {
    // Given a change made before the check of the save answered
    let (tx, rx) = std::sync::mpsc::channel();
    let (mut app, saves) = app_checking(rx);
    let before = app.state().clone();
    typ(&mut app, "n");
    assert_ne!(app.state(), &before);
    // When the check distrusts the save
    tx.send(Err(crate::save::audit::Distrust {
        message: "the save's snapshot is not what its history gives".into(),
        history: None,
    }))
    .unwrap();
    until_checked(&mut app);
    // Then the change is taken back, the screen is read-only and says so, nothing is written
    assert_eq!(app.state(), &before);
    assert!(!app.save_pending());
    assert!(!app.flush_save());
    assert_eq!(saves.get(), 0);
    let (said, error) = app.message().unwrap_or_default();
    assert!(error, "{said}");
    assert!(
        said.starts_with("read-only: the save's snapshot")
            && said.contains("what was done since it opened was taken back"),
        "{said}"
    );
    // The history is the one opened too: the change is not there to redo
    let opened = demo_app();
    assert_eq!(app.encounter().history(), opened.encounter().history());
    assert_eq!(app.encounter().cursor(), opened.encounter().cursor());
    // And a further change is refused
    typ(&mut app, "n");
    assert_eq!(app.state(), &before);
    assert_eq!(saves.get(), 0);
}

/// Quitting before the check of the save answers waits for it: a trusted save gets what was
/// done, a distrusted one is left as it was and the quit says why (the screen is gone).
#[test]
fn quitting_before_the_check_answers_writes_only_a_trusted_save_and_says_why_not() {
    for trusted in [true, false] {
        // Given a change made while the check of the save runs
        let (tx, rx) = std::sync::mpsc::channel();
        let (mut app, saves) = app_checking(rx);
        typ(&mut app, "n");
        tx.send(if trusted {
            Ok(())
        } else {
            Err(crate::save::audit::Distrust {
                message: "the save's snapshot is not what its history gives".into(),
                history: None,
            })
        })
        .unwrap();
        // When the GM quits
        let quit = app.save_on_exit();
        // Then a trusted save is written, a distrusted one is not and the quit says why
        if trusted {
            assert_eq!(quit, Ok(crate::save::Closed::Whole));
            assert_eq!(saves.get(), 1);
        } else {
            let why = quit.unwrap_err();
            assert!(
                why.contains("what was done since it opened was taken back"),
                "{why}"
            );
            assert_eq!(saves.get(), 0);
        }
    }
}

/// The interrupt picker lists interrupts, not groups: its key bar offers no key to step
/// through groups, which the picker of an action to spend now does.
#[test]
fn the_interrupt_pickers_key_bar_offers_no_group_keys() {
    // Given the picker of an action to spend now, then its bar offers Tab for the next group
    let mut app = demo_app();
    press(&mut app, KeyCode::Enter);
    let shown = screen(&mut app, 200, 48);
    let bar = shown.lines().last().unwrap_or_default();
    assert!(bar.contains("Tab"), "{bar}");
    // Given the interrupt picker, then its bar offers neither Tab nor S-Tab
    let mut app = demo_app();
    typ(&mut app, "i");
    choose(&mut app, "Whisper");
    assert!(matches!(app.mode(), Mode::Picker(_)));
    let shown = screen(&mut app, 200, 48);
    let bar = shown.lines().last().unwrap_or_default();
    assert!(!bar.contains("Tab"), "{bar}");
    assert!(!bar.contains("group"), "{bar}");
}

/// A room opening takes the status line from an older message: it spoke of a key before.
#[test]
fn opening_a_room_clears_an_older_message() {
    for open in ["a", "d", "\n", "i", "/"] {
        // Given a command that said what it did
        let mut app = demo_app();
        typ(&mut app, ":hide Jinx");
        press(&mut app, KeyCode::Enter);
        assert!(
            app.message().is_some_and(|(_, err)| !err),
            "{:?}",
            app.message()
        );
        // When a room opens
        if open == "\n" {
            press(&mut app, KeyCode::Enter);
        } else {
            typ(&mut app, open);
        }
        assert!(!matches!(app.mode(), Mode::Tracker), "{open:?}");
        // Then the message is gone
        assert_eq!(app.message(), None, "{open:?}");
    }
}

/// A read-only screen opens no room whose end would change the fight: the tracker's keys that
/// the read-only key bar leaves out say why and leave the tracker as it is; those it shows open.
#[test]
fn read_only_opens_no_room_that_would_change_the_fight() {
    use super::action::Action;
    use super::keymap::{self, ModeKind};
    use crate::encounter::System;
    let fights = [System::Sr5, System::Sr2097, System::Anarchy].map(|system| {
        let mut enc = Encounter::for_system(
            system,
            std::sync::Arc::new(crate::rules::HouseRules::embedded()),
            std::sync::Arc::new(demo::catalogue()),
        );
        let lines = [
            "add Ana pc int 4 rea 5 edge 2 body 3 will 4",
            "add Bo npc int 3 rea 3 body 4 will 3",
        ]
        .map(|l| crate::lang::sheet_line(system, l));
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(demo::script(&mut enc, &lines, 1), Ok(()), "{system:?}");
        enc
    });
    for enc in fights.into_iter().chain([demo::encounter()]) {
        let system = enc.system();
        for (key, _, action) in keymap::bar(ModeKind::Tracker, system) {
            if matches!(action, Action::Quit | Action::Help) {
                continue;
            }
            // Given a save opened read-only
            let mut app = App::new(
                enc.clone(),
                "Demo".into(),
                Box::new(NoSave),
                Some("opened with --view".into()),
            );
            let cursor = app.encounter().cursor();
            // When a tracker key is pressed
            app.update(action);
            // Then a key that changes the fight opens nothing and says why
            if keymap::reads(action) {
                continue;
            }
            assert!(
                matches!(app.mode(), Mode::Tracker),
                "{system:?} {key} opened {:?}",
                app.mode().kind()
            );
            assert_eq!(app.encounter().cursor(), cursor, "{system:?} {key}");
            assert!(
                app.message()
                    .is_some_and(|(m, err)| err && m.contains("read-only") && m.contains("--view")),
                "{system:?} {key}: {:?}",
                app.message()
            );
        }
    }
    // The keys the read-only bar shows still open their rooms
    for (key, room) in [(":", ModeKind::Command), ("/", ModeKind::Find)] {
        let mut app = App::new(
            demo::encounter(),
            "Demo".into(),
            Box::new(NoSave),
            Some("opened with --view".into()),
        );
        typ(&mut app, key);
        assert_eq!(app.mode().kind(), room, "{key}");
    }
}

/// A save's title too long for the header is cut with `…`, never through a wide character, and
/// the rule system and round after it still show.
#[test]
fn a_long_title_is_cut_with_an_ellipsis_and_keeps_the_round() {
    for title in [
        "Warehouse ambush at the docks of Tacoma, second night, after the Johnson ran".to_string(),
        "漢".repeat(60),
        format!("a{}", "漢".repeat(60)),
    ] {
        // Given a save with a long title
        let mut app = demo_app();
        app.title = title.clone();
        // When the screen is drawn at 80 columns
        let shown = screen(&mut app, 80, 24);
        let first = shown.lines().next().unwrap_or_default();
        // Then the title is cut with an ellipsis, whole characters only, and the round shows
        assert!(first.contains('…'), "{first}");
        // (`screen` writes a wide character's second cell as a space)
        let kept = first.split('…').next().unwrap_or_default().replace(' ', "");
        assert!(
            title.replace(' ', "").starts_with(&kept),
            "{kept:?} is not how {title:?} starts"
        );
        assert!(first.contains("Round 1"), "{first}");
    }
}

/// A search in the action picker also reads each action's group word: `free` lists the Free
/// actions first, before names that only look like it; a name still comes first when it matches.
#[test]
fn the_picker_search_matches_the_group_word_too() {
    use crate::catalogue::ActionGroup;
    let groups = |query: &str| {
        // Given the picker of an action to spend now
        let mut app = demo_app();
        press(&mut app, KeyCode::Enter);
        // When the GM types the query
        typ(&mut app, query);
        let Mode::Picker(p) = app.mode() else {
            panic!("not the picker: {:?}", app.mode().kind());
        };
        let actions = app.encounter().catalogue().actions();
        p.items
            .iter()
            .map(|it| (actions[it.index].group, actions[it.index].name.clone()))
            .collect::<Vec<_>>()
    };
    // Then the Free actions come first
    let free = groups("free");
    let n = free.iter().filter(|(g, _)| *g == ActionGroup::Free).count();
    assert!(n > 1, "{free:?}");
    assert!(
        free[..n].iter().all(|(g, _)| *g == ActionGroup::Free),
        "{free:?}"
    );
    // And a name typed whole still comes before its group's other actions
    let fire = groups("fire");
    assert!(fire[0].1.to_lowercase().contains("fire"), "{fire:?}");
}

#[test]
fn the_interrupt_picker_draws_no_group_bar_it_cannot_move() {
    // Given the demo, its interrupt list open
    let mut app = demo_app();
    typ(&mut app, "i");
    // When a character is picked
    press(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.mode(), Mode::Picker(_)),
        "{:?}",
        app.mode().kind()
    );
    let shown = screen(&mut app, 80, 24);
    // Then its interrupts are listed with no bar of groups, which Tab would not move
    assert!(shown.contains(": interrupt"), "{shown}");
    assert!(!shown.contains("[All]"), "{shown}");
    assert!(!shown.contains(" Matrix "), "{shown}");
    // While the action picker keeps its bar
    let mut app = demo_app();
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app, 80, 24).contains("[All]"));
}

/// The rows inside the borders of the pane `pick` takes from the screen's layout.
fn pane_rows(app: &App, w: u16, h: u16, pick: fn(&super::view::Areas) -> Rect) -> usize {
    let a = super::view::areas(app, Rect::new(0, 0, w, h));
    usize::from(pick(&a).height.saturating_sub(2))
}

#[test]
fn pgup_pages_the_log_by_its_height_less_one_line() {
    // Given the demo at 80×24 with the log focused
    let mut app = demo_app();
    let _ = screen(&mut app, 80, 24);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    assert!(screen(&mut app, 80, 24).contains("Log · focus"));
    let rows = pane_rows(&app, 80, 24, |a| a.log);
    // When PgUp pages back
    press(&mut app, KeyCode::PageUp);
    // Then it goes back the log's rows less one: the top line seen stays in sight
    assert_eq!(app.tracker.log_scroll, rows - 1, "{rows} rows");
    // And a taller screen pages further (its log's first line is reached first here)
    let mut tall = demo_app();
    let _ = screen(&mut tall, 160, 48);
    press(&mut tall, KeyCode::Tab);
    press(&mut tall, KeyCode::Tab);
    let rows = pane_rows(&tall, 160, 48, |a| a.log);
    assert!(rows - 1 > 10, "{rows} rows");
    press(&mut tall, KeyCode::PageUp);
    assert!(tall.tracker.log_scroll > 10, "{}", tall.tracker.log_scroll);
    press(&mut tall, KeyCode::PageDown);
    assert_eq!(tall.tracker.log_scroll, 0);
}

#[test]
fn help_pages_by_its_height_less_one_line() {
    // Given help open at 80×24
    let mut app = demo_app();
    let _ = screen(&mut app, 80, 24);
    typ(&mut app, "?");
    let shown = screen(&mut app, 80, 24);
    // Help is as tall as the screen's body.
    let rows = pane_rows(&app, 80, 24, |a| a.body);
    // When PgDn pages
    press(&mut app, KeyCode::PageDown);
    let Mode::Help(h) = app.mode() else {
        panic!("help stays open");
    };
    // Then it moves its shown rows less one: the last row seen is the first now
    assert_eq!(h.scroll, rows - 1, "{rows} rows:\n{shown}");
    press(&mut app, KeyCode::PageUp);
    let Mode::Help(h) = app.mode() else {
        panic!("help stays open");
    };
    assert_eq!(h.scroll, 0);
}

/// The saved demo in Roto-drone's delayed sub-turn: it fired (2 IP) and delayed 2 IP after
/// Ganger 1, so its turn line says IP spent this pass apart from this turn.
fn roto_drone_delayed() -> App {
    let mut app = saved_demo_app();
    typ(&mut app, ":act Roto-drone Fire Gun");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "d");
    typ(&mut app, "2");
    press(&mut app, KeyCode::Enter);
    choose(&mut app, "after Ganger 1");
    for _ in 0..4 {
        if matches!(
            app.state().turn().map(|t| t.kind),
            Some(TurnKind::Delayed { .. })
        ) {
            break;
        }
        typ(&mut app, "n");
    }
    assert!(
        matches!(
            app.state().turn().map(|t| t.kind),
            Some(TurnKind::Delayed { .. })
        ),
        "{:?}",
        app.message()
    );
    app
}

#[test]
fn a_delayed_turn_line_at_80_columns_keeps_the_actors_name_and_the_numbers_whole() {
    // Given Roto-drone's delayed sub-turn after an action
    let mut app = roto_drone_delayed();
    // When the screen is 80 columns wide
    let shown = screen(&mut app, 80, 24);
    let turn = shown.lines().nth(1).unwrap_or_default();
    // Then the actor's name shows whole, the delay's words after it cut with `…`, and the IP,
    // the IP held, the IP spent and the Edge whole
    assert!(turn.starts_with(" Turn: ▶ Roto-drone (dela…"), "{turn}");
    assert!(
        turn.ends_with("IP 1  held 2 IP  spent 0/5, 2 this pass  Edge unused"),
        "{turn}"
    );
    insta::assert_snapshot!("delayed_turn_80x24", shown);
    insta::assert_snapshot!("delayed_turn_120x40", screen(&mut app, 120, 40));
}

#[test]
fn a_refused_actions_reason_in_the_picker_is_cut_with_a_gap_before_the_detail_panel() {
    // Given the action picker in Roto-drone's delayed sub-turn, 120 columns wide
    let mut app = roto_drone_delayed();
    press(&mut app, KeyCode::Enter);
    let shown = screen(&mut app, 120, 40);
    // Then a reason too long for the list is cut with `…` and a gap before the detail panel
    let row = shown
        .lines()
        .find(|l| l.contains("⊘Call a Shot"))
        .unwrap_or_default();
    assert!(row.contains("… Shoot in SS"), "{row}");
    insta::assert_snapshot!("delayed_turn_picker_120x40", shown);
    // And with the refused line selected, the detail panel reads its reason whole
    press(&mut app, KeyCode::Down);
    for (w, h) in [(120, 40), (200, 60)] {
        let shown = screen(&mut app, w, h);
        // The detail panel: the 36 cells before the popup's right border.
        let detail = popup_text(&shown, w - 38, 38);
        assert!(
            detail.contains("not now: Roto-drone can take Call a Shot only with one of"),
            "{detail}"
        );
        assert!(detail.contains("Fire Gun"), "{detail}");
    }
}

/// Given a change saved in the journal, when the quit's fold cannot rewrite the snapshot (its
/// temporary file's name taken, as a full disk would refuse it), then the quit says every
/// change is in the journal rather than that the save failed, and the save loads with it.
#[test]
fn a_quit_whose_fold_fails_says_every_change_is_in_the_journal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.ron");
    let mut gm = crate::ui::held_tests::Holder::new(&path);
    gm.run("damage Jinx 2 stun");
    let temp = dir
        .path()
        .join(format!(".t.ron.{}.tmp", std::process::id()));
    std::fs::create_dir(&temp).expect("temp name taken");
    let closed = crate::save::Autosave::close(&mut gm.saver, &gm.enc);
    let Ok(crate::save::Closed::InJournal(why)) = closed else {
        panic!("{closed:?}");
    };
    let said = crate::ui::in_journal(&why);
    assert!(
        said.starts_with("every change is saved in the save's journal, but its snapshot could not be rewritten (cannot save "),
        "{said}"
    );
    let catalogue = std::sync::Arc::new(demo::catalogue());
    let (_, on_disk) = crate::save::file::load(&path, catalogue).expect("loads");
    assert_eq!(on_disk.state(), gm.enc.state());
}
