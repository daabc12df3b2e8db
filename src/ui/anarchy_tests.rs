//! The Anarchy screen: snapshots of the table, the narration pane and the Plot Point menu, and
//! scripted key sessions on `saves/anarchy.ron` (turn 2, Vex narrating).

use ratatui::crossterm::event::KeyCode;

use super::app::App;
use super::mode::Mode;
use super::tests::{app_for, press, reason_read_whole, screen, select, typ};
use crate::encounter::system::anarchy::AnarchyEvent;
use crate::encounter::{Encounter, Event, System};
use crate::rules::RandomDice;
use crate::save::NoSave;

/// `saves/anarchy.ron`, the sample session, with the built-in catalogue.
fn sample() -> App {
    let rules = crate::rules::HouseRules::embedded();
    let catalogue = crate::catalogue::Catalogue::embedded(&rules).expect("built-in catalogue");
    let save = crate::save::file::parse(
        include_bytes!("../../saves/anarchy.ron"),
        "saves/anarchy.ron",
    )
    .expect("the sample parses");
    let enc = save
        .into_encounter("saves/anarchy.ron", std::sync::Arc::new(catalogue))
        .expect("the sample loads");
    App::new(enc, "anarchy".into(), Box::new(NoSave), None)
        .with_dice(Box::new(RandomDice::seeded(42)))
}

/// An Anarchy encounter with two players and a ganger, nothing else done.
fn fresh() -> App {
    played(&[
        "add Nix pc edge 3 body 3 will 4",
        "add Brick pc edge 2 body 6 will 3",
        "add Ganger npc body 4 will 3",
    ])
}

/// An Anarchy encounter after `lines`, on the screen.
fn played(lines: &[&str]) -> App {
    let mut enc = Encounter::for_system(
        System::Anarchy,
        std::sync::Arc::new(crate::rules::HouseRules::embedded()),
        std::sync::Arc::new(super::demo::catalogue()),
    );
    assert_eq!(super::demo::script(&mut enc, lines, 1), Ok(()));
    app_for(enc)
}

/// Moves the Plot Point menu to the line containing `label` and takes it.
fn take(app: &mut App, label: &str) {
    go_to(app, label);
    press(app, KeyCode::Enter);
}

/// Moves the Plot Point menu's selection to the line containing `label`.
fn go_to(app: &mut App, label: &str) {
    let Mode::PlotPoints(m) = app.mode() else {
        panic!("not in the Plot Point menu: {:?}", app.mode().kind());
    };
    let i = m
        .list
        .items
        .iter()
        .position(|it| it.label.contains(label))
        .expect("a line of the menu");
    let n = m.list.items.len();
    for _ in 0..n {
        press(app, KeyCode::Up);
    }
    for _ in 0..i {
        press(app, KeyCode::Down);
    }
}

fn last(app: &App) -> Vec<AnarchyEvent> {
    app.encounter()
        .applied()
        .last()
        .map(|e| {
            e.events
                .iter()
                .filter_map(|e| match e {
                    Event::Anarchy(a) => Some(a.clone()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

fn narrator(app: &App) -> String {
    let s = app.state();
    s.narration()
        .and_then(|n| n.narrator())
        .map(|x| s.name(x.who).to_string())
        .unwrap_or_default()
}

fn plot_points(app: &App, name: &str) -> u8 {
    let s = app.state();
    let id = s.find(name).expect("named").id;
    s.narration()
        .and_then(|n| n.player(id))
        .map_or(0, |p| p.plot_points)
}

#[test]
fn snapshots_of_the_anarchy_screen() {
    type Keys = fn(&mut App);
    let shots: [(&str, Keys); 5] = [
        ("main", |_| {}),
        ("plot_points", |a| typ(a, "p")),
        ("plot_points_npc", |a| {
            select(a, "Guard 1");
            typ(a, "p");
        }),
        ("help", |a| typ(a, "?")),
        ("test_line", |a| typ(a, "t")),
    ];
    for (name, keys) in shots {
        for (w, h) in [(80, 24), (160, 48)] {
            let mut app = sample();
            keys(&mut app);
            insta::assert_snapshot!(format!("anarchy_{name}_{w}x{h}"), screen(&mut app, w, h));
        }
    }
    for (w, h) in [(80, 24), (120, 36)] {
        let mut app = fresh();
        insta::assert_snapshot!(format!("anarchy_setup_{w}x{h}"), screen(&mut app, w, h));
    }
}

#[test]
fn a_long_narrators_name_is_cut_so_the_numbers_show_in_the_header_and_narration_pane() {
    // Given a player with a long name narrating at the sample table
    let mut app = sample();
    typ(&mut app, ":add Rat pc body 3 will 3");
    press(&mut app, KeyCode::Enter);
    typ(
        &mut app,
        ":add \"Maximiliana Rosencrantz-Guildenstern\" pc body 3 will 3",
    );
    press(&mut app, KeyCode::Enter);
    select(&mut app, "Maximiliana Rosencrantz-Guildenstern");
    typ(&mut app, "N");
    assert_eq!(narrator(&app), "Maximiliana Rosencrantz-Guildenstern");
    // When the screen is 80 columns wide
    let shown = screen(&mut app, 80, 24);
    // Then the header cuts her name and shows the GM's spent and limit
    let head = shown.lines().nth(1).unwrap_or_default();
    assert!(head.contains("▶ Maximiliana"), "{head}");
    assert!(head.contains('…') && head.ends_with("this turn"), "{head}");
    // And the narration pane cuts names with `…` and shows every player's count
    let pane: String = shown
        .lines()
        .map(|l| l.chars().skip(40).collect::<String>() + "\n")
        .collect();
    assert!(pane.contains("Rat 0/2"), "{pane}");
    assert!(pane.contains("Maximilia… 0/2"), "{pane}");
    for line in pane.lines() {
        let inner = line.trim_end_matches('│').trim_end();
        assert!(
            !inner.ends_with("▶Ma") && !inner.ends_with(" ·"),
            "cut with no …: {line}"
        );
    }
    insta::assert_snapshot!("anarchy_long_narrator_80x24", shown);
    insta::assert_snapshot!("anarchy_long_narrator_120x40", screen(&mut app, 120, 40));
}

#[test]
fn n_ends_the_narration_and_the_next_seat_narrates() {
    let mut app = sample();
    assert_eq!(narrator(&app), "Vex");
    typ(&mut app, "n");
    assert_eq!(narrator(&app), "Guard 1");
    press(&mut app, KeyCode::Char(' '));
    assert_eq!(narrator(&app), "Brick");
}

#[test]
fn the_first_n_opens_the_table_and_begins_turn_one() {
    let mut app = fresh();
    assert!(app.state().narration().is_none());
    typ(&mut app, "n");
    assert_eq!(narrator(&app), "Nix");
    assert_eq!(plot_points(&app, "Brick"), 3);
}

#[test]
fn shift_n_lets_the_selected_player_narrate_now_for_a_plot_point() {
    let mut app = sample();
    select(&mut app, "Brick");
    typ(&mut app, "N");
    assert_eq!(narrator(&app), "Brick");
    assert_eq!(plot_points(&app, "Brick"), 3);
}

#[test]
fn the_plot_point_menu_spends_for_the_selected_player() {
    let mut app = sample();
    select(&mut app, "Brick");
    typ(&mut app, "p");
    take(&mut app, "Surprise Threat!");
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(
        last(&app)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::Spent { what, .. } if what == "Surprise Threat!"))
    );
    assert_eq!(plot_points(&app, "Brick"), 3);
}

#[test]
fn a_spend_that_needs_words_is_finished_on_the_command_line() {
    let mut app = sample();
    select(&mut app, "Brick");
    typ(&mut app, "p");
    take(&mut app, "Other");
    let Mode::Command(c) = app.mode() else {
        panic!("the command line opens: {:?}", app.mode().kind());
    };
    assert_eq!(c.value(), "pp Brick spend other ");
    typ(&mut app, "a lucky break");
    press(&mut app, KeyCode::Enter);
    assert!(last(&app).iter().any(|e| matches!(e,
        AnarchyEvent::Spent { note: Some(n), .. } if n == "a lucky break")));
}

#[test]
fn the_menu_greys_what_the_engine_refuses_with_its_reason() {
    let mut app = sample();
    // Vex has no Plot Point left.
    select(&mut app, "Vex");
    typ(&mut app, "p");
    let Mode::PlotPoints(m) = app.mode() else {
        panic!("the menu opens");
    };
    let threat = m
        .list
        .items
        .iter()
        .find(|i| i.label.starts_with("Surprise Threat!"))
        .expect("in the menu");
    assert_eq!(
        threat.refusal.as_deref(),
        Some("Vex has 0 Plot Points: Surprise Threat! costs 1")
    );
    // Esc closes it; Enter on a greyed line would be refused and change nothing.
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode(), Mode::Tracker));
}

#[test]
fn t_types_an_anarchy_test_for_the_selected_character() {
    let mut app = sample();
    select(&mut app, "Guard 2");
    typ(&mut app, "t");
    typ(&mut app, "3+3 vs 2");
    press(&mut app, KeyCode::Enter);
    assert!(
        last(&app)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::Tested { .. }))
    );
}

#[test]
fn g_spends_edge_on_the_selected_characters_last_roll_its_misses_rolled_again() {
    let mut app = fresh();
    typ(&mut app, ":narrate");
    press(&mut app, KeyCode::Enter);
    select(&mut app, "Nix");
    // No test yet: refused at the key with the engine's sentence, nothing opened
    typ(&mut app, "g");
    assert!(matches!(app.mode(), Mode::Tracker));
    let (msg, error) = app.message().expect("a refusal");
    assert!(error && msg.contains("no roll to spend Edge on"), "{msg}");
    // After a test with misses: `g` types the command for the table's dice, Enter rolls them
    typ(&mut app, ":atest Nix 4 vs 0 dice 5 1 2 6");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "g");
    let Mode::Command(line) = app.mode() else {
        panic!("no command line: {:?}", app.mode().kind());
    };
    assert_eq!(line.input.value(), "edge Nix after ");
    press(&mut app, KeyCode::Enter);
    let rerolled = last(&app).into_iter().find_map(|e| match e {
        AnarchyEvent::Tested {
            roll,
            rerolled: true,
            ..
        } => Some(roll),
        _ => None,
    });
    let roll = rerolled.expect("the misses rolled again");
    assert_eq!(roll.first, Some(vec![5, 1, 2, 6]));
    assert_eq!((roll.dice[0], roll.dice[3]), (5, 6), "the hits stay");
    assert_eq!(app.state().find("Nix").map(|c| c.edge_left), Some(2));
    // And `g` again, with Edge left: refused saying the test's re-roll is spent
    typ(&mut app, "g");
    assert!(matches!(app.mode(), Mode::Tracker));
    let (msg, error) = app.message().expect("a refusal");
    assert!(
        error
            && msg
                == "Nix's last test was rolled again with Edge already: Edge after the roll re-rolls a test's misses once (one Edge a test)",
        "{msg}"
    );
}

#[test]
fn the_odds_are_answered_on_the_status_line() {
    let mut app = sample();
    typ(&mut app, ":aodds 1 vs 0");
    press(&mut app, KeyCode::Enter);
    let (msg, error) = app.message().expect("an answer");
    assert!(!error);
    assert!(msg.contains("success 33.3 %"), "{msg}");
}

#[test]
fn initiative_pass_keys_do_nothing_at_an_anarchy_table() {
    let mut app = sample();
    let before = app.encounter().cursor();
    // (`g` is Anarchy's Edge re-roll: see below.)
    for k in ['r', 'R', 's', 'd', 'y', 'i', '1', 'm'] {
        typ(&mut app, &k.to_string());
        assert!(matches!(app.mode(), Mode::Tracker), "{k} opened something");
    }
    assert_eq!(app.encounter().cursor(), before);
}

/// The screen opens with the selection on who narrates (Vex in the sample), as it opens on who
/// acts in a fight; after the next `narrate` it follows the new narrator.
#[test]
fn the_selection_starts_on_the_narrator_and_follows_the_turn() {
    let mut app = sample();
    let name = |app: &App| app.selected_id().map(|id| app.state().name(id).to_string());
    assert_eq!(name(&app), Some("Vex".to_string()));
    assert_eq!(app.selected_id(), app.actor());
    typ(&mut app, ":narrate");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.selected_id(), app.actor(), "{:?}", app.message());
    assert_ne!(name(&app), Some("Vex".to_string()));
}

#[test]
fn the_add_and_edit_forms_at_an_anarchy_table_ask_only_what_anarchy_uses() {
    // Given an Anarchy table
    let mut app = fresh();
    // When the GM opens the add form
    typ(&mut app, "a");
    let s = screen(&mut app, 160, 48);
    // Then it asks no initiative: no Intuition, Reaction, dice, IP or shared roll
    let asks = |s: &str, label: &str| {
        s.contains(&format!("│ {label} ")) || s.contains(&format!("│▶{label} "))
    };
    for gone in [
        "Intuition",
        "Reaction",
        "Dice mod",
        "IP bonus",
        "Shared roll",
    ] {
        assert!(!asks(&s, gone), "{gone} asked at an Anarchy table:\n{s}");
    }
    for kept in ["Name", "Side", "Count", "Edge", "Body", "Willpower"] {
        assert!(asks(&s, kept), "{kept} missing:\n{s}");
    }
    // And what it asks is what the new character gets
    typ(&mut app, "Vex");
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "2");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "5");
    press(&mut app, KeyCode::Enter);
    let vex = app
        .state()
        .present()
        .find(|c| c.name == "Vex")
        .map(|c| (c.sheet.edge, c.sheet.body))
        .expect("Vex added");
    assert_eq!(vex, (2, Some(5)));

    // When the GM edits a character's Edge
    select(&mut app, "Nix");
    typ(&mut app, "e");
    let s = screen(&mut app, 160, 48);
    assert!(!asks(&s, "Intuition"), "{s}");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "1");
    press(&mut app, KeyCode::Enter);
    // Then the sheet keeps what the form did not show (Intuition and Reaction, at their defaults)
    let nix = app
        .state()
        .present()
        .find(|c| c.name == "Nix")
        .map(|c| (c.sheet.edge, c.sheet.intuition, c.sheet.reaction))
        .expect("Nix");
    assert_eq!(nix, (1, 3, 3));
}

#[test]
fn the_add_form_of_a_fight_in_passes_still_asks_its_initiative() {
    let mut app = super::tests::app_for(super::demo::empty());
    typ(&mut app, "a");
    let s = screen(&mut app, 160, 48);
    for kept in [
        "Intuition",
        "Reaction",
        "Dice mod",
        "IP bonus",
        "Shared roll",
    ] {
        assert!(s.contains(kept), "{kept} missing:\n{s}");
    }
}

#[test]
fn the_key_bar_drops_keys_from_the_end_of_the_tables_order() {
    // Given the Anarchy sample on the smallest screen
    let mut app = sample();
    let shown = screen(&mut app, 80, 24);
    let bar = shown.lines().last().unwrap_or_default().to_string();
    // Then the keys shown are the first of the table's, help last: none after one left out
    let all = super::keymap::bar(super::keymap::ModeKind::Tracker, System::Anarchy);
    let uses = super::keymap::Uses::of(app.state());
    let mut left_out = false;
    for (k, label, action) in all.iter().filter(|e| uses.serve(e.2)) {
        if *action == super::action::Action::Help {
            continue;
        }
        // Short of room, a label drops its words in brackets.
        let label = label.split_once(" (").map_or(*label, |(short, _)| short);
        let there = bar.contains(&format!("{k} {label} "));
        assert!(
            !(there && left_out),
            "{k} {label} shown after a key left out: {bar}"
        );
        left_out |= !there;
    }
    assert!(left_out, "the bar is full at 80 columns: {bar}");
    assert!(bar.ends_with("? help"), "{bar}");
    // And the table's own actions fit: tests, Cooldowns, damage and healing.
    for key in [
        "n next ",
        "N narrate now ",
        "t test ",
        "c Cooldown ",
        "h damage ",
    ] {
        assert!(bar.contains(key), "{key:?} missing: {bar}");
    }
}

#[test]
fn the_narration_pane_counts_the_boxes_out_of_sight() {
    // Given the Anarchy sample, whose condition boxes outgrow the pane at 80×24
    let mut app = sample();
    let small = screen(&mut app, 80, 24);
    // Then the pane's border says how many rows are below
    let border = small
        .lines()
        .find(|l| l.contains("▼") && l.contains("more"))
        .unwrap_or_default();
    assert!(!border.is_empty(), "no ▼ N more:\n{small}");
    // And a screen that shows them all says nothing
    assert!(!screen(&mut app, 160, 48).contains("▼"));
}

#[test]
fn an_anarchy_screen_shows_no_wound_modifier_its_tests_never_take() {
    // Given Nix hurt (6 Physical), before and during the narration
    let mut app = fresh();
    for line in ["damage Nix 6 physical", "narrate"] {
        typ(&mut app, ":");
        typ(&mut app, line);
        press(&mut app, KeyCode::Enter);
        // Then no screen line speaks of wounds
        let s = screen(&mut app, 160, 48);
        assert!(!s.contains("wounds"), "after `{line}`:\n{s}");
        assert!(s.contains("6/"), "the boxes show: {s}");
    }
}

/// The words of the open damage or heal form's Track toggle.
fn track_options(app: &App) -> Vec<&'static str> {
    match app.mode() {
        Mode::Form(f) => match &f.fields[1].value {
            super::mode::form::Value::Toggle { options, .. } => options.to_vec(),
            super::mode::form::Value::Text { .. } => Vec::new(),
        },
        other => panic!("a form is open: {:?}", other.kind()),
    }
}

#[test]
fn the_damage_and_heal_forms_offer_the_tracks_the_character_has() {
    let mut app = fresh();
    typ(&mut app, ":sheet Nix armor 6 matrix 4");
    press(&mut app, KeyCode::Enter);
    select(&mut app, "Nix");
    typ(&mut app, "h");
    assert_eq!(track_options(&app), ["physical", "stun", "armor", "matrix"]);
    // Boxes 2, then the Track toggled to "armor" by its letter.
    typ(&mut app, "2");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "a");
    press(&mut app, KeyCode::Enter);
    assert!(last(&app).iter().any(|e| matches!(e,
        AnarchyEvent::GearDamaged { boxes: 2, track, .. }
            if *track == crate::encounter::system::anarchy::GearTrack::Armor)));
    // Heal offers them too; Brick, with no such track, only the monitors.
    typ(&mut app, "H");
    assert_eq!(track_options(&app).len(), 4);
    press(&mut app, KeyCode::Esc);
    select(&mut app, "Brick");
    typ(&mut app, "h");
    assert_eq!(track_options(&app), ["physical", "stun"]);
}

#[test]
fn after_the_end_the_table_and_the_status_pane_give_the_plot_points_held_at_the_end() {
    // Given Ana who spent two Plot Points and Bo who was awarded one
    let mut app = played(&[
        "add Ana pc",
        "add Bo pc",
        "narrate",
        "pp Ana spend threat",
        "pp Ana spend threat",
        "pp Bo award good",
    ]);
    // When the GM ends the encounter
    press(&mut app, KeyCode::Char('E'));
    assert!(matches!(
        app.state().phase,
        crate::encounter::Phase::Ended { .. }
    ));
    // Then the Table pane gives Ana 1 and Bo 4, not the 3 every player starts with
    let shown = screen(&mut app, 120, 30);
    let row = |name: &str| {
        shown
            .lines()
            .find(|l| l.contains(&format!(" {name} ")) && l.contains("/5"))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("Ana").contains("●○○○○ 1/5"), "{shown}");
    assert!(row("Bo").contains("●●●●○ 4/5"), "{shown}");
    // And the status pane says the same of the selected one
    select(&mut app, "Bo");
    let first = super::view::status::lines(&app)
        .first()
        .map(|l| l.0.clone())
        .unwrap_or_default();
    assert!(first.contains("Plot Points 4 of 5"), "{first}");
}

#[test]
fn before_the_table_opens_the_status_pane_says_what_anarchy_plays_with() {
    let mut app = fresh();
    select(&mut app, "Nix");
    let first = super::view::status::lines(&app)
        .first()
        .map(|l| l.0.clone())
        .unwrap_or_default();
    assert_eq!(
        first,
        "› Nix: PC, Plot Points 3 of 5, Edge 3/3, Physical 0/10, Stun 0/10"
    );
}

#[test]
fn one_who_joins_a_narration_is_asked_no_initiative() {
    // Given the Anarchy sample, its narration under way
    let mut app = sample();
    // When the GM adds one, then a group of two, with the add form
    for (name, count) in [("Wren", None), ("Rook", Some("2"))] {
        typ(&mut app, "a");
        typ(&mut app, name);
        if let Some(count) = count {
            press(&mut app, KeyCode::Tab);
            press(&mut app, KeyCode::Tab);
            typ(&mut app, count);
        }
        press(&mut app, KeyCode::Enter);
        // Then the tracker is back: a narration game rolls no initiative
        let shown = screen(&mut app, 120, 40);
        assert!(
            matches!(app.mode(), Mode::Tracker),
            "{name}: {:?} {:?} {shown}",
            app.mode().kind(),
            app.message(),
        );
    }
    assert!(app.state().find("Rook 2").is_some());
}

fn menu_selected(app: &App) -> usize {
    let Mode::PlotPoints(m) = app.mode() else {
        panic!("not in the Plot Point menu: {:?}", app.mode().kind());
    };
    m.list.selected
}

#[test]
fn home_end_and_pages_move_the_plot_point_menu_and_the_selection_stays_in_sight() {
    let mut app = sample();
    select(&mut app, "Brick");
    typ(&mut app, "p");
    let _ = screen(&mut app, 80, 24);
    let n = {
        let Mode::PlotPoints(m) = app.mode() else {
            panic!("the menu opens");
        };
        m.list.items.len()
    };
    press(&mut app, KeyCode::End);
    assert_eq!(menu_selected(&app), n - 1);
    let shown = screen(&mut app, 80, 24);
    assert!(
        shown
            .lines()
            .any(|l| l.contains("▶") && l.contains("GM: next turn from a rolled seat")),
        "{shown}"
    );
    press(&mut app, KeyCode::Home);
    assert_eq!(menu_selected(&app), 0);
    press(&mut app, KeyCode::PageDown);
    let paged = menu_selected(&app);
    assert!(paged > 1 && paged < n, "{paged} of {n}");
    press(&mut app, KeyCode::PageUp);
    assert_eq!(menu_selected(&app), 0);
    // The keys come from the keymap table, so `?` and the key bar list them.
    let keys = super::keymap::bindings(super::keymap::ModeKind::PlotPoints, System::Anarchy);
    for k in ["Home", "End", "PgUp", "PgDn"] {
        assert!(keys.iter().any(|(key, _)| key == k), "{k}: {keys:?}");
    }
}

/// At 80 columns the list cuts a refused line's reason; under the list the selected line's
/// reason reads whole, wrapped to the menu's width, and the head and the summary stay.
#[test]
fn the_plot_point_menu_shows_the_selected_lines_whole_reason() {
    let mut app = sample();
    select(&mut app, "Vex");
    typ(&mut app, "p");
    // (a reason too long for the list even at the screen's full width)
    go_to(&mut app, "GM: next turn in reverse order");
    let Mode::PlotPoints(m) = app.mode() else {
        panic!("not in the Plot Point menu: {:?}", app.mode().kind());
    };
    let why = m.list.items[m.list.selected]
        .refusal
        .clone()
        .expect("the order is set in the turn");
    let at = m.area(super::mode::choose::body((80, 24)));
    let shown = reason_read_whole(&mut app, "GM: next turn in reverse order", &why, at);
    for kept in [
        "Vex: 0 of 5 Plot Points",
        "▶ ⊘ GM: next turn in reverse order",
    ] {
        assert!(shown.contains(kept), "{kept}\n{shown}");
    }
    insta::assert_snapshot!("anarchy_plot_points_refused_80x24", shown);
}

/// On a wide screen the Plot Point menu widens to show each refused line's reason whole.
#[test]
fn the_plot_point_menu_at_160_columns_cuts_no_reason() {
    let mut app = sample();
    select(&mut app, "Vex");
    typ(&mut app, "p");
    let s = screen(&mut app, 160, 48);
    // (cut at the menu's former fixed 76 cells)
    for whole in [
        "⊘ Live Dangerously (1 PP) — Vex has 0 Plot Points: Live Dangerously costs 1 ",
        "⊘ Surprise Threat! (1 PP) — Vex has 0 Plot Points: Surprise Threat! costs 1 ",
    ] {
        assert!(s.contains(whole), "{whole}\n{s}");
    }
}

/// An Anarchy table whose first player's name is 40 wide characters (80 cells), then `more`.
fn long_named(more: &[&str]) -> App {
    let mut enc = Encounter::for_system(
        System::Anarchy,
        std::sync::Arc::new(crate::rules::HouseRules::embedded()),
        std::sync::Arc::new(super::demo::catalogue()),
    );
    let add = format!("add {} pc edge 3 body 3 will 4", "龍".repeat(40));
    let mut lines = vec![add.as_str()];
    lines.extend_from_slice(more);
    assert_eq!(super::demo::script(&mut enc, &lines, 1), Ok(()));
    app_for(enc)
}

#[test]
fn the_plot_point_menus_head_cuts_a_long_name_not_the_counts() {
    // Given a player whose name is 40 wide characters (80 cells)
    let mut app = long_named(&[]);
    // When the GM opens the Plot Point menu, at 80×24 and at 160×48
    typ(&mut app, "p");
    for (w, h) in [(80, 24), (160, 48)] {
        // Then the head says the counts, the name cut with …
        let s = screen(&mut app, w, h);
        let head = s
            .lines()
            .find(|l| l.contains("GM pool"))
            .unwrap_or_default();
        assert!(
            head.contains("龍 …: 3 of 5 Plot Points · GM pool"),
            "{head}\n{s}"
        );
    }
}

#[test]
fn a_menu_over_wide_characters_leaves_the_screen_as_it_was_when_it_closes() {
    // Given a player whose 40 wide characters run under where the Plot Point menu opens
    let mut app = long_named(&["add Bo pc edge 3 body 3 will 4", "narrate"]);
    let before = screen(&mut app, 160, 48);
    // When the menu opens over them (the character cut at its left edge is blanked)
    typ(&mut app, "p");
    assert!(screen(&mut app, 160, 48).contains("┌ Plot Points"));
    // And when it closes, the screen is as it was
    press(&mut app, KeyCode::Esc);
    assert_eq!(screen(&mut app, 160, 48), before);
}

#[test]
fn a_whole_reason_starting_with_a_long_name_keeps_its_mark_on_the_names_line() {
    // Given the Plot Point menu of a player with a 40-wide-character name, nothing on Cooldown
    let mut app = long_named(&["add Bo pc edge 3 body 3 will 4", "narrate"]);
    typ(&mut app, "p");
    // When Ignore Cooldown, refused in words that begin with the name, is selected
    go_to(&mut app, "Ignore Cooldown");
    // Then the whole reason under the list begins with its mark and the name on one row
    let s = screen(&mut app, 80, 24);
    assert!(s.lines().any(|l| l.contains("│⊘ 龍")), "{s}");
}

#[test]
fn the_plot_point_menus_summary_reads_whole_at_80_columns() {
    // Given Brick's Plot Point menu at 80×24
    let mut app = sample();
    select(&mut app, "Brick");
    typ(&mut app, "p");
    // When a line whose summary and Enter's words outrun the row is selected, then one whose
    // summary alone does
    for (line, wholes) in [
        (
            "Frag It/Jam It",
            &[
                "until the turn ends",
                "(Enter: finish it on the command line)",
            ][..],
        ),
        ("Live Dangerously", &["the spender by default"][..]),
    ] {
        go_to(&mut app, line);
        let s = screen(&mut app, 80, 24);
        // Then they read whole, wrapped
        let text: String = s
            .lines()
            .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        for whole in wholes {
            assert!(text.contains(whole), "{whole}\n{s}");
        }
    }
    // And the box does not move as the selection goes to a short summary
    let at = |app: &App| {
        let Mode::PlotPoints(m) = app.mode() else {
            panic!("the menu stays open");
        };
        m.area(super::mode::choose::body((80, 24)))
    };
    let first = at(&app);
    press(&mut app, KeyCode::Home);
    assert_eq!(at(&app), first);
}

/// The table marks its selected row with `›` and a marked one with `●`, as the order pane does,
/// so that without colour the selection shows by more than an underline.
#[test]
fn the_table_marks_the_selected_row_and_the_marked_ones_without_colour() {
    let mut app = sample();
    app.set_monochrome(true);
    press(&mut app, KeyCode::Char('j'));
    let who = app
        .state()
        .name(app.selected_id().expect("selected"))
        .to_string();
    press(&mut app, KeyCode::Char('v'));
    let s = screen(&mut app, 80, 24);
    let row = |name: &str| {
        s.lines()
            .find(|l| {
                l.starts_with('│')
                    && l.split("││")
                        .next()
                        .unwrap_or("")
                        .contains(&format!(" {name} "))
            })
            .unwrap_or_else(|| panic!("no row of {name} in\n{s}"))
            .to_string()
    };
    assert!(row(&who).starts_with("│›●"), "{s}");
    let others: Vec<String> = app
        .roster()
        .iter()
        .map(|id| app.state().name(*id).to_string())
        .filter(|n| *n != who)
        .collect();
    for other in others {
        assert!(row(&other).starts_with("│  "), "{other}: {s}");
    }
    // The Edge column keeps its whole count.
    assert!(row(&who).contains("E "), "{s}");
    assert!(!row(&who).contains('…'), "{s}");
}

#[test]
fn the_damage_forms_track_reads_like_the_other_forms_hints() {
    let mut app = fresh();
    typ(&mut app, ":sheet Nix armor 6");
    press(&mut app, KeyCode::Enter);
    select(&mut app, "Nix");
    typ(&mut app, "h");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "a");
    for (w, h) in [(80, 24), (160, 48)] {
        let s = crate::ui::tests::screen(&mut app, w, h);
        let track = s
            .lines()
            .find(|l| l.contains("[armor]"))
            .unwrap_or_default();
        assert!(track.contains("[armor]  "), "{w}x{h}: {track}");
    }
}

/// The line of `shown` holding a pane's title `title`.
fn title_line<'a>(shown: &'a str, title: &str) -> &'a str {
    shown
        .lines()
        .find(|l| l.contains(title))
        .unwrap_or_default()
}

#[test]
fn tab_focuses_the_narration_pane_whose_rows_then_scroll_with_j_and_k() {
    // Given the Anarchy sample at 80×24, its Narration pane with rows out of sight
    let mut app = sample();
    let shown = screen(&mut app, 80, 24);
    // Then the Table, focused at first, says so in its title
    assert!(shown.contains("Table · focus"), "{shown}");
    // When Tab moves the focus
    press(&mut app, KeyCode::Tab);
    let shown = screen(&mut app, 80, 24);
    // Then the Narration pane has it, and the Table no longer
    assert!(shown.contains("Narration · focus"), "{shown}");
    assert!(!shown.contains("Table · focus"), "{shown}");
    let below = |shown: &str| {
        shown
            .lines()
            .find(|l| l.contains("▼") && l.contains("more"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    let before = below(&shown);
    assert!(!before.is_empty(), "{shown}");
    // When j scrolls it
    typ(&mut app, "j");
    let shown = screen(&mut app, 80, 24);
    // Then a row is above, one fewer below, and the selection stayed where it was
    assert!(
        title_line(&shown, "Narration · focus").contains("▲ 1 more"),
        "{shown}"
    );
    assert_ne!(below(&shown), before, "{shown}");
    assert_eq!(narrator(&app), "Vex");
    assert_eq!(
        app.state().name(app.selected_id().expect("selected")),
        "Vex"
    );
    // And k scrolls it back
    typ(&mut app, "k");
    assert!(!screen(&mut app, 80, 24).contains("▲"));
    // And Tab goes on to the status pane, the log, and back to the Table
    for title in ["Status · focus", "Log · focus", "Table · focus"] {
        press(&mut app, KeyCode::Tab);
        let shown = screen(&mut app, 80, 24);
        assert!(shown.contains(title), "{title}:\n{shown}");
    }
}

#[test]
fn the_narration_pane_scrolls_no_further_than_its_last_row() {
    // Given the Narration pane focused at 80×24
    let mut app = sample();
    let _ = screen(&mut app, 80, 24);
    press(&mut app, KeyCode::Tab);
    // When j is pressed far more often than it has rows
    typ(&mut app, &"j".repeat(30));
    let shown = screen(&mut app, 80, 24);
    // Then its last row shows, nothing is below, and k at once moves it back up
    assert!(!shown.contains("▼"), "{shown}");
    let at_end = title_line(&shown, "Narration · focus").to_string();
    assert!(at_end.contains("▲"), "{shown}");
    typ(&mut app, "k");
    assert!(screen(&mut app, 80, 24).contains("▼ 1 more"));
}

#[test]
fn the_plot_point_menu_counts_the_lines_out_of_sight() {
    // Given the Plot Point menu at 80×24, longer than its box
    let mut app = sample();
    let _ = screen(&mut app, 80, 24);
    typ(&mut app, "p");
    let n = {
        let Mode::PlotPoints(m) = app.mode() else {
            panic!("the menu opens");
        };
        m.list.items.len()
    };
    let listed = |shown: &str| {
        shown
            .lines()
            .filter(|l| {
                l.contains("(1 PP)")
                    || l.contains("(2 PP)")
                    || l.contains("(X PP)")
                    || l.contains("Award")
                    || l.contains("GM: ")
            })
            .count()
    };
    let shown = screen(&mut app, 80, 24);
    let on_top = listed(&shown);
    // Then its border counts those below
    assert!(
        shown.contains(&format!("▼ {} more", n - on_top)),
        "{n} lines, {on_top} shown:\n{shown}"
    );
    // And at its end (the selected line's whole reason under the list), those above
    press(&mut app, KeyCode::End);
    let shown = screen(&mut app, 80, 24);
    let at_end = listed(&shown);
    assert!(shown.contains(&format!("▲ {} more", n - at_end)), "{shown}");
    assert!(!shown.contains("▼"), "{shown}");
}

/// The refusal of the Plot Point menu's line starting with `label`, the menu open on `who`.
fn menu_refusal(app: &mut App, who: &str, label: &str) -> Option<String> {
    select(app, who);
    typ(app, "p");
    let Mode::PlotPoints(m) = app.mode() else {
        panic!("the menu opens: {:?}", app.mode().kind());
    };
    let refusal = m
        .list
        .items
        .iter()
        .find(|i| i.label.starts_with(label))
        .unwrap_or_else(|| panic!("{label} in the menu"))
        .refusal
        .clone();
    press(app, KeyCode::Esc);
    refusal
}

#[test]
fn first_aid_is_greyed_for_one_with_no_damage_on_any_track() {
    let mut app = fresh();
    typ(&mut app, "n");
    // Given Nix and the Ganger with no damage at all
    // Then First Aid/Fix is greyed for each, the player's line and the GM's, saying why
    for (who, label) in [("Nix", "First Aid/Fix"), ("Ganger", "GM: First Aid/Fix")] {
        let why = menu_refusal(&mut app, who, label);
        assert!(
            why.as_deref()
                .is_some_and(|w| w.starts_with("nothing to recover on any track")),
            "{who}: {why:?}"
        );
    }
    // When they are hurt, it is offered
    assert_eq!(
        super::demo::script(
            &mut app.enc,
            &["damage Nix 1 stun", "damage Ganger 1 physical"],
            1
        ),
        Ok(())
    );
    assert_eq!(menu_refusal(&mut app, "Nix", "First Aid/Fix"), None);
    assert_eq!(menu_refusal(&mut app, "Ganger", "GM: First Aid/Fix"), None);
}

#[test]
fn the_header_keeps_the_gm_s_turn_limit_at_80_columns_beside_a_long_name_and_a_glitch_die() {
    let mut app = played(&[
        "add \"Maximilian Vanderbilt-Okonkwo the Third\" pc edge 3 body 3 will 4",
        "add Brick pc edge 2 body 6 will 3",
        "add Ganger npc body 4 will 3",
        "narrate",
        "gm spend glitch die on Maximilian",
        "pp Maximilian spend double-time it",
    ]);
    // Given the long-named narrator with a glitch die waiting, at 80 columns
    let shown = screen(&mut app, 80, 24);
    let header: String = shown.lines().take(3).collect::<Vec<_>>().join("\n");
    // Then the header still says the GM's spends against the turn's limit, whole
    assert!(
        header.contains("spent 1/") && !header.contains("spent 1/…"),
        "{header}"
    );
    assert!(header.contains("glitch die"), "{header}");
    // And the Narration pane cuts the name with `…`, not at the pane's edge
    assert!(
        shown
            .lines()
            .any(|l| l.contains("glitch die waiting: Maximilia…")),
        "{shown}"
    );
}

/// Given the Plot Point menu at 80 columns, the key bar is short of room: then a pair of keys
/// shows whole or not at all (never `PgUp` without `PgDn`), and pages give way before Home/End,
/// Home/End before ↑/↓.
#[test]
fn the_plot_point_menus_key_bar_keeps_pairs_whole_at_80_columns() {
    let mut app = sample();
    typ(&mut app, "p");
    assert!(matches!(app.mode(), Mode::PlotPoints(_)));
    let shown = screen(&mut app, 80, 24);
    let bar = shown.lines().last().unwrap_or_default().to_string();
    for (a, b) in [
        ("↑ up", "↓ down"),
        ("Home first", "End last"),
        ("PgUp", "PgDn"),
    ] {
        assert_eq!(bar.contains(a), bar.contains(b), "{a} without {b}: {bar}");
    }
    assert!(bar.contains("↑ up") && bar.contains("Home first"), "{bar}");
    assert!(!bar.contains("PgUp"), "{bar}");
    assert!(bar.ends_with("F1 help"), "{bar}");
}

/// Given Vex rolled the misses of her last test again with her one Edge, when `g` is pressed
/// again, then the refusal says what bars it: no Edge left.
#[test]
fn g_again_after_the_edge_re_roll_says_there_is_no_edge_left() {
    let mut app = played(&[
        "add Vex pc edge 1 body 3 will 4",
        "add Ganger npc body 4 will 3",
    ]);
    typ(&mut app, ":narrate");
    press(&mut app, KeyCode::Enter);
    select(&mut app, "Vex");
    typ(&mut app, ":atest Vex 4 vs 0 dice 5 1 2 6");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "g");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().find("Vex").map(|c| c.edge_left), Some(0));
    typ(&mut app, "g");
    let (msg, error) = app.message().expect("a refusal");
    assert!(error && msg.contains("Vex has no Edge left"), "{msg}");
}

/// Given a glitch die bought for Nix (Live Dangerously), when `t` opens his test, then the line
/// carries `glitchdie` with the cursor before it for the pools: the first Enter is not refused
/// for want of it.
#[test]
fn t_carries_a_waiting_glitch_die_onto_the_test_line() {
    let mut app = fresh();
    typ(&mut app, ":narrate");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, ":pp Nix spend glitch die");
    press(&mut app, KeyCode::Enter);
    select(&mut app, "Nix");
    typ(&mut app, "t");
    let Mode::Command(line) = app.mode() else {
        panic!("no command line: {:?}", app.mode().kind());
    };
    assert_eq!(line.input.value(), "atest Nix  glitchdie");
    assert_eq!(line.input.cursor(), "atest Nix ".len());
    typ(&mut app, "4 vs 0");
    press(&mut app, KeyCode::Enter);
    assert!(
        last(&app)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::Tested { spec, .. } if spec.glitch_die))
    );
}
