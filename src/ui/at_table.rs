//! The screen at the table (issue 13), point by point: key sessions and snapshots at 80×24 in
//! `NO_COLOR` with sixteen combatants, at 120×40 and at 160×48.

use ratatui::crossterm::event::KeyCode;

use super::app::App;
use super::demo;
use super::mode::Mode;
use super::mode::tracker::{Pane, Selection};
use super::tests::{app_for, choose, colourless, ctrl, id, press, screen, select, typ};
use crate::encounter::{Event, Phase, Reserve};

/// The fight of sixteen, Moth to act.
fn table() -> App {
    app_for(demo::table())
}

/// The same, monochrome, as with `NO_COLOR` set.
fn mono() -> App {
    let mut app = table();
    app.set_monochrome(true);
    app
}

/// The order's row of a character (its name, then PC or NPC, in the line's first pane), the
/// whole screen line.
fn row_of(s: &str, name: &str) -> String {
    s.lines()
        .find(|l| {
            let first = l.split("││").next().unwrap_or("");
            first.contains(&format!(" {name} "))
                && (first.contains(" PC ") || first.contains(" NPC "))
        })
        .unwrap_or_else(|| panic!("no row of {name:?} in\n{s}"))
        .to_string()
}

/// The screen's line holding `text`.
fn line_with(s: &str, text: &str) -> String {
    s.lines()
        .find(|l| l.contains(text))
        .unwrap_or_else(|| panic!("no line with {text:?} in\n{s}"))
        .to_string()
}

/// The screen's words in one line, borders gone: what a wrapped text says, whole.
fn flat(s: &str) -> String {
    s.replace(['│', '┌', '┐', '└', '┘', '─'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn message(app: &App) -> String {
    app.message()
        .map(|(m, _)| m.to_string())
        .unwrap_or_default()
}

#[test]
fn the_fight_of_sixteen_runs() {
    let mut enc = demo::empty();
    assert_eq!(demo::script(&mut enc, demo::TABLE, 11), Ok(()));
    assert_eq!(enc.state().present().count(), 16);
}

// ---- snapshots ----

#[test]
fn snapshots_of_the_fight_of_sixteen() {
    type Keys = fn(&mut App);
    let shots: [(&str, Keys); 8] = [
        ("main", |_| {}),
        ("marked", |a| {
            select(a, "Ganger 1");
            typ(a, "vjvjv");
        }),
        ("damage_marked", |a| {
            select(a, "Ganger 1");
            typ(a, "vjvjvh");
        }),
        ("move", |a| {
            press(a, KeyCode::Char('n'));
            press(a, KeyCode::Char('n'));
            typ(a, "m");
        }),
        ("who", |a| typ(a, "i")),
        ("help", |a| typ(a, "?")),
        ("command_refused", |a| {
            typ(a, ":act Jinx fire");
            press(a, KeyCode::Enter);
        }),
        ("status_focused", |a| {
            press(a, KeyCode::Tab);
            typ(a, "jj");
        }),
    ];
    for (name, keys) in shots {
        let mut small = mono();
        keys(&mut small);
        insta::assert_snapshot!(
            format!("table_{name}_80x24_mono"),
            screen(&mut small, 80, 24)
        );
        for (w, h) in [(120, 40), (160, 48)] {
            let mut app = table();
            keys(&mut app);
            insta::assert_snapshot!(format!("table_{name}_{w}x{h}"), screen(&mut app, w, h));
        }
    }
}

// ---- never trapped, never blind ----

/// Moth's ready undone (and the three commands after it), a new one's trigger typed with the IP
/// left empty: the picker chooses its actions.
fn new_ready(app: &mut App) {
    typ(app, "uuuu");
    typ(app, "y");
    typ(app, "the guard looks");
    press(app, KeyCode::Enter);
}

#[test]
fn the_ready_form_traps_no_one() {
    let mut app = table();
    // Moth's ready is declared: undo it (and the three commands after it), and declare one
    // with the IP left empty.
    new_ready(&mut app);
    let moth = id(&app, "Moth");
    assert!(app.state().get(moth).is_some_and(|c| c.reserve.is_none()));
    let Mode::Picker(p) = app.mode() else {
        panic!("no picker: {:?}", app.mode().kind())
    };
    // Empty IP means the actions' cost: a Simple action is not refused.
    let cat = app.encounter().catalogue();
    let fire = p
        .items
        .iter()
        .find(|it| cat.actions()[it.index].name == "Fire Weapon")
        .expect("listed");
    assert_eq!(fire.refusal, None);
    // A line marked ⊘ (a Complex action, over the reserve cap of 3) is not added with Ctrl-N.
    typ(&mut app, "melee");
    ctrl(&mut app, 'n');
    assert!(
        message(&app).contains("a ready action reserves 1 to 3 IP, not 4"),
        "{}",
        message(&app)
    );
    let Mode::Picker(p) = app.mode() else {
        panic!("picker")
    };
    assert!(
        matches!(&p.purpose, super::mode::picker::Purpose::Ready { chosen, .. } if chosen.is_empty())
    );
    // Ctrl-N with a good line, then Esc: the picker closes and nothing is declared.
    ctrl(&mut app, 'u');
    typ(&mut app, "fire weap");
    ctrl(&mut app, 'n');
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(app.state().get(moth).is_some_and(|c| c.reserve.is_none()));
}

#[test]
fn a_refused_command_shows_why_while_the_line_is_open() {
    let mut app = table();
    typ(&mut app, ":act Nobody free");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Command(_)));
    let s = screen(&mut app, 80, 24);
    assert!(
        s.contains("✗ word 2 \"Nobody\": expected a combatant name"),
        "{s}"
    );
    assert!(s.contains(":act Nobody free"));
    // Refused by the engine: the reason shows too, the line stays to mend.
    press(&mut app, KeyCode::Esc);
    typ(&mut app, ":act Dog Fire Weapon");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Command(_)));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("✗ it is not Dog's turn"), "{s}");
}

#[test]
fn every_pane_says_what_it_hides_and_scrolls_when_focused() {
    let mut app = mono();
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("▼ "), "the order says rows are hidden:\n{s}");
    // To the last: the rows above are counted, the selection is in sight.
    for _ in 0..20 {
        typ(&mut app, "j");
    }
    let last = app
        .roster()
        .last()
        .map(|id| app.state().name(*id).to_string());
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("▲ "), "{s}");
    assert!(row_of(&s, &last.unwrap_or_default()).contains('›'));
    // The status pane: focused, j scrolls it, the order's selection stays.
    let before = app.selected_id();
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.tracker.focus, Pane::Status);
    typ(&mut app, "j");
    assert_eq!(app.tracker.status_scroll, 1);
    assert_eq!(app.selected_id(), before);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Status · focus"), "{s}");
    assert!(s.contains("▲ 1 more"), "{s}");
    // It never scrolls past its last line.
    for _ in 0..200 {
        typ(&mut app, "j");
    }
    let most = app.tracker.status_scroll;
    typ(&mut app, "j");
    assert_eq!(app.tracker.status_scroll, most);
    assert!(!screen(&mut app, 80, 24).contains("▼ "), "at its end");
    // Help: it says where it is and stops at its end.
    press(&mut app, KeyCode::Esc);
    typ(&mut app, "?");
    for _ in 0..100 {
        press(&mut app, KeyCode::PageDown);
    }
    let s = screen(&mut app, 80, 24);
    let Mode::Help(h) = app.mode() else {
        panic!("help")
    };
    let at = h.scroll;
    press(&mut app, KeyCode::PageDown);
    let Mode::Help(h) = app.mode() else {
        panic!("help")
    };
    assert_eq!(h.scroll, at, "no blank pages past the end");
    let pos = line_with(&s, "lines ");
    let total: String = pos
        .split(" of ")
        .nth(1)
        .unwrap_or("")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    assert!(
        pos.contains(&format!("–{total} of {total}")),
        "the last page shows the last line: {pos}"
    );
}

#[test]
fn the_log_scrolls_back_to_its_first_line_and_no_further() {
    // Given the fight of sixteen at 80×24, the log focused
    let mut app = table();
    screen(&mut app, 80, 24);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.tracker.focus, Pane::Log);
    // When the GM holds PgUp far past the log's start
    for _ in 0..200 {
        press(&mut app, KeyCode::PageUp);
    }
    // Then the scroll stops with the first line at the pane's top, and the pane is not blank
    let most = app.tracker.log_scroll;
    assert!(most > 0);
    press(&mut app, KeyCode::PageUp);
    assert_eq!(
        app.tracker.log_scroll, most,
        "no blank pages past the start"
    );
    let s = screen(&mut app, 80, 24);
    let first = app
        .log
        .iter()
        .next()
        .map(|i| i.head.clone())
        .unwrap_or_default();
    assert!(s.contains(&first[..first.len().min(15)]), "{first}\n{s}");
    // And one PgDn comes back down at once
    press(&mut app, KeyCode::PageDown);
    assert!(app.tracker.log_scroll < most);
}

#[test]
fn at_80_columns_the_turn_line_says_it_all_in_fewer_words() {
    // Given the demo at 80×24, Ganger 1's delay (2 IP after Jinx) under way
    let mut app = super::tests::demo_app();
    while !app
        .state()
        .turn()
        .is_some_and(|t| matches!(t.kind, crate::encounter::TurnKind::Delayed { .. }))
    {
        press(&mut app, KeyCode::Char('n'));
    }
    // Then the header's turn line gives the IP and the reserve first and ends with the Edge
    // IP, not cut
    let s = screen(&mut app, 80, 24);
    let turn = line_with(&s, "Turn:");
    assert!(turn.contains("(delay after Jinx)"), "{turn}");
    assert!(turn.contains("IP 3  held 2 IP"), "{turn}");
    assert!(
        turn.ends_with("Edge unused │") || turn.ends_with("Edge unused"),
        "{turn}"
    );
    // And at 160 columns the full words
    let s = screen(&mut app, 160, 48);
    assert!(line_with(&s, "Turn:").contains("spends the IP held"), "{s}");
}

#[test]
fn at_80_columns_a_name_too_wide_for_the_turn_line_is_cut_not_the_numbers() {
    // Given a character whose name takes 60 cells, delayed after another, her delay under way
    let wide = "影".repeat(30);
    let mut app = super::tests::app_for(crate::ui::demo::empty());
    let add = format!("add {wide} pc int 5 rea 6");
    let setup = [add.as_str(), "add Bo pc int 3 rea 3", "roll all", "start"];
    crate::ui::demo::script(&mut app.enc, &setup, 1).expect("setup");
    let first = app.state().turn().map(|t| t.who);
    let delay = if first == app.state().find("Bo").map(|c| c.id) {
        format!("delay Bo 1 after {wide}")
    } else {
        format!("delay {wide} 1 after Bo")
    };
    crate::ui::demo::script(&mut app.enc, &[delay.as_str(), "next", "next"], 1).expect("delay");
    // Then at 80×24 the turn line still ends with the IP, the spent and the Edge, the name cut
    let s = screen(&mut app, 80, 24);
    let turn = line_with(&s, "Turn:");
    assert!(
        turn.contains("spent 0/5") && turn.contains("Edge unused"),
        "{turn}\n{s}"
    );
    assert!(turn.contains('…'), "{turn}");
    // And at 160 columns the whole name
    let s = screen(&mut app, 160, 48);
    let turn = line_with(&s, "Turn:");
    // (a wide character is drawn with the cell after it blank)
    assert!(turn.replace(' ', "").contains(&wide), "{turn}");
    assert!(
        turn.contains("Edge unused") && !turn.contains('…'),
        "{turn}"
    );
}

#[test]
fn at_80_columns_a_delay_between_the_longest_names_still_says_ip_held_spent_and_edge() {
    // Given two characters with the longest names the entry rules allow, each a wide character
    // (two cells) forty times, the first to act spending a simple action, then delaying the
    // rest of its IP after the other, its delay under way
    let limits = crate::rules::HouseRules::embedded().limits;
    let most = usize::try_from(limits.name_chars.max).unwrap_or_default();
    let (one, two) = ("影".repeat(most), "光".repeat(most));
    let mut app = super::tests::app_for(crate::ui::demo::empty());
    let add_one = format!("add {one} pc int 5 rea 6");
    let add_two = format!("add {two} pc int 3 rea 3");
    let setup = [add_one.as_str(), add_two.as_str(), "roll all", "start"];
    crate::ui::demo::script(&mut app.enc, &setup, 1).expect("setup");
    let first = app.state().turn().map(|t| t.who);
    let (actor, trigger) = if first == app.state().find(&one).map(|c| c.id) {
        (&one, &two)
    } else {
        (&two, &one)
    };
    let act = format!("act {actor} simple");
    let delay = format!("delay {actor} 1 after {trigger}");
    crate::ui::demo::script(
        &mut app.enc,
        &[act.as_str(), delay.as_str(), "next", "next"],
        1,
    )
    .expect("delay");
    assert!(
        matches!(
            app.state().turn().map(|t| t.kind),
            Some(crate::encounter::TurnKind::Delayed { .. })
        ),
        "{:?}",
        app.state().turn()
    );
    // When the screen is 80×24
    let s = screen(&mut app, 80, 24);
    let turn = line_with(&s, "Turn:");
    // Then the line keeps the IP, the IP held, the IP spent and the Edge whole, the names cut
    for said in ["IP ", "held 1 IP", "spent ", "this pass", "Edge unused"] {
        assert!(turn.contains(said), "{said:?} in {turn}\n{s}");
    }
    assert!(turn.trim_end().ends_with("Edge unused"), "{turn}");
    // And the actor's name is cut to its first cells, the delay's words after it, `…`
    assert!(turn.starts_with(" Turn: ▶ 影 影 影 影"), "{turn}");
    assert!(turn.contains('…'), "{turn}");
}

#[test]
fn without_colour_the_selection_and_the_focus_show() {
    let mut app = mono();
    assert!(colourless(&mut app, 80, 24));
    let s = screen(&mut app, 80, 24);
    assert!(row_of(&s, "Moth").starts_with("│›"), "{s}");
    assert!(s.contains("Initiative order · focus"));
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Log · focus") && !s.contains("Initiative order · focus"));
}

#[test]
fn the_ip_rows_line_up_with_the_order_rows() {
    let mut app = table();
    // The order's reserve lines (Ana's delay under Moth, Moth's ready) shift no grid row.
    for (w, h) in [(80, 24), (120, 40), (160, 48)] {
        let s = screen(&mut app, w, h);
        for name in ["Moth", "Jinx", "Razor", "Dog"] {
            let l = row_of(&s, name);
            assert!(
                l.contains('/') || l.contains('→'),
                "{name} has its IP cells on its own line at {w}×{h}: {l}"
            );
        }
        assert!(row_of(&s, "Jinx").contains("6+4/4"), "Edge IP in the cell");
        assert!(row_of(&s, "Moth").contains("⏸2"), "reserved IP in the cell");
    }
}

#[test]
fn help_explains_the_screen_and_the_verbs() {
    let mut app = table();
    typ(&mut app, "?");
    let Mode::Help(_) = app.mode() else {
        panic!("help")
    };
    let text: Vec<String> = super::mode::help::content(
        app.encounter().rules(),
        app.encounter().system(),
        super::keymap::ModeKind::Tracker,
        74,
        app.theme,
    )
    .iter()
    .map(ToString::to_string)
    .collect();
    let all = text.join("\n");
    for want in [
        "started its turn with 5 IP and spent 2",
        "→6",
        "a pass to come",
        "Edge",
        "damage NAME[, NAME...] N [physical|stun]",
        "Commands of the : line",
    ] {
        assert!(all.contains(want), "{want} is not in the help");
    }
}

#[test]
fn the_header_agrees_with_the_grid_after_a_dodge_out_of_turn() {
    let mut app = table();
    // Roto-drone dodges in Moth's turn, then its own turn comes.
    typ(&mut app, ":act Roto-drone Dodge");
    press(&mut app, KeyCode::Enter);
    let roto = id(&app, "Roto-drone");
    for _ in 0..6 {
        if app.actor() == Some(roto) {
            break;
        }
        typ(&mut app, "n");
    }
    assert_eq!(app.actor(), Some(roto));
    let s = screen(&mut app, 120, 40);
    assert!(
        s.contains("spent 0/5 this turn, 2 this pass"),
        "{}",
        line_with(&s, "Turn:")
    );
    // Its pass: 5 IP (its 4 and the pass's 1), 2 of them spent on the dodge: the 3 it has.
    assert!(row_of(&s, "Roto-drone").contains("5/2"), "{s}");
}

// ---- aiming ----

#[test]
fn the_selection_stays_where_the_gm_put_it() {
    let mut app = table();
    select(&mut app, "Ganger 1");
    let ganger = id(&app, "Ganger 1");
    typ(&mut app, "h6");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "h4");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.state().get(ganger).map(|c| c.damage.physical),
        Some(10),
        "both hits on the ganger: typing replaced the 1 already in the field"
    );
    assert_eq!(app.selected_id(), Some(ganger));
    // Next turn: still there. Esc goes back to the actor.
    typ(&mut app, "n");
    assert_eq!(app.selected_id(), Some(ganger));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.tracker.selection, Selection::Actor);
    assert_eq!(app.selected_id(), app.actor());
}

#[test]
fn a_key_that_ends_the_actors_turn_leaves_the_selection_on_it() {
    // Given the selection following the actor, Moth.
    let mut app = table();
    let moth = id(&app, "Moth");
    assert_eq!(app.actor(), Some(moth));
    assert_eq!(app.tracker.selection, Selection::Actor);
    // When z downs her in her own turn, the turn passes, and the selection stays on her:
    // z again stands her up, not the next actor.
    typ(&mut app, "z");
    assert_ne!(app.actor(), Some(moth), "her turn passed");
    assert_eq!(app.selected_id(), Some(moth));
    typ(&mut app, "z");
    assert!(app.state().get(moth).is_some_and(|c| !c.is_downed()));
    assert_eq!(app.selected_id(), Some(moth));
    // Damage likewise: the next key hits the one just hit.
    typ(&mut app, "h4");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "h2");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().get(moth).map(|c| c.damage.physical), Some(6));
    // Then n passes the turn and the selection follows the actor again.
    typ(&mut app, "n");
    assert_eq!(app.tracker.selection, Selection::Actor);
    assert_eq!(app.selected_id(), app.actor());
}

#[test]
fn typing_a_name_jumps_to_it() {
    let mut app = table();
    typ(&mut app, "/vas");
    assert_eq!(app.selected_id(), Some(id(&app, "Lt. Vasquez")));
    assert!(screen(&mut app, 80, 24).contains("→ Lt. Vasquez"));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert_eq!(app.selected_id(), Some(id(&app, "Lt. Vasquez")));
    // Letters in order: "g7" is Ganger 7; Esc puts the selection back.
    typ(&mut app, "/g7");
    assert_eq!(app.selected_id(), Some(id(&app, "Ganger 7")));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.selected_id(), Some(id(&app, "Lt. Vasquez")));
    // "Who?" opens on the selected character; typing jumps in the list.
    typ(&mut app, "i");
    let Mode::Choose(c) = app.mode() else {
        panic!("who?")
    };
    assert_eq!(c.items[c.selected].label, "Lt. Vasquez");
    typ(&mut app, "dog");
    let Mode::Choose(c) = app.mode() else {
        panic!("who?")
    };
    assert_eq!(c.items[c.selected].label, "Dog");
    // The Downed ganger is marked before it is picked.
    let g6 = c
        .items
        .iter()
        .find(|it| it.label == "Ganger 6")
        .expect("listed");
    assert!(g6.refusal.as_deref().is_some_and(|r| r.contains("Downed")));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Picker(p) if p.who == id(&app, "Dog")));
}

#[test]
fn the_move_list_has_one_line_per_place() {
    let mut app = table();
    // Ana's delay sub-turn, then Sniper's own turn: it may change initiative.
    typ(&mut app, "nn");
    assert_eq!(app.actor(), Some(id(&app, "Sniper")));
    typ(&mut app, "m");
    let Mode::Choose(c) = app.mode() else {
        panic!("move list")
    };
    // 16 in the order: 15 others, 16 gaps, less the one Sniper stands in.
    assert_eq!(c.items.len(), 15);
    assert!(
        c.items
            .iter()
            .any(|it| it.label.starts_with("first, before Jinx"))
    );
    choose(&mut app, "after Razor (before Lt. Vasquez)");
    assert!(
        app.encounter()
            .applied()
            .last()
            .is_some_and(|e| e.text == "move Sniper after Razor")
    );
}

#[test]
fn short_names_work_on_the_command_line() {
    let mut app = table();
    typ(&mut app, ":act M Speak");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker), "{}", message(&app));
    assert!(
        app.encounter()
            .applied()
            .last()
            .is_some_and(|e| e.text == "act Moth Speak")
    );
}

// ---- many targets at once ----

#[test]
fn marked_characters_take_damage_and_a_status_in_one_command_each() {
    let mut app = mono();
    select(&mut app, "Ganger 1");
    typ(&mut app, "vjvjv");
    // Three in a row of the order, from Ganger 1 down.
    let at = app
        .roster()
        .iter()
        .position(|x| *x == id(&app, "Ganger 1"))
        .unwrap_or(0);
    let names: Vec<String> = app.roster()[at..at + 3]
        .iter()
        .map(|x| app.state().name(*x).to_string())
        .collect();
    let s = screen(&mut app, 80, 24);
    for n in &names {
        assert!(row_of(&s, n).contains('●'), "marked without colour:\n{s}");
    }
    let cursor = app.encounter().cursor();
    typ(&mut app, "h");
    assert!(screen(&mut app, 80, 24).contains(&format!("each of 3 marked: {}", names.join(", "))));
    typ(&mut app, "2");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, " ");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.encounter().cursor(), cursor + 1, "one command");
    for n in &names {
        let g = id(&app, n);
        assert!(app.state().get(g).is_some_and(|c| c.damage.stun >= 2));
    }
    typ(&mut app, "+");
    typ(&mut app, "Suppressed");
    press(&mut app, KeyCode::Enter);
    for n in &names {
        let g = id(&app, n);
        assert!(
            app.state()
                .get(g)
                .is_some_and(|c| c.status("Suppressed").is_some())
        );
    }
    typ(&mut app, "-");
    choose(&mut app, &format!("Suppressed ({})", names.join(", ")));
    let g3 = id(&app, &names[1]);
    assert!(
        app.state()
            .get(g3)
            .is_some_and(|c| c.status("Suppressed").is_none())
    );
    // One undo step brings the status back to all three.
    typ(&mut app, "u");
    assert!(
        app.state()
            .get(g3)
            .is_some_and(|c| c.status("Suppressed").is_some())
    );
    // V unmarks: the keys aim at the selected one again.
    typ(&mut app, "V");
    assert!(app.tracker.marks.is_empty());
}

// ---- initiative set-up ----

#[test]
fn r_keeps_the_tables_rolls_and_rolling_one_again_asks() {
    let mut app = app_for(demo::empty());
    demo::script(
        &mut app.enc,
        &["add Ana pc int 4 rea 5", "add Ganger x2 npc int 3 rea 3"],
        1,
    )
    .expect("setup");
    select(&mut app, "Ana");
    typ(&mut app, "t3");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "r");
    let ana = id(&app, "Ana");
    let roll = |app: &App| app.state().get(ana).and_then(|c| c.initiative.clone());
    assert_eq!(roll(&app).map(|r| (r.hits, r.dice)), Some((3, None)));
    assert!(app.state().present().all(|c| c.initiative.is_some()));
    // t with Hits empty rolls; over a roll the table typed in, it asks first.
    typ(&mut app, "t");
    press(&mut app, KeyCode::Enter);
    let Mode::Choose(c) = app.mode() else {
        panic!("no question")
    };
    assert!(c.title.contains("The table's roll (3 hits) is lost"));
    choose(&mut app, "no: keep");
    assert_eq!(roll(&app).map(|r| r.dice), Some(None));
    typ(&mut app, "t");
    press(&mut app, KeyCode::Enter);
    choose(&mut app, "yes: roll again");
    assert!(roll(&app).is_some_and(|r| r.dice.is_some()));
}

#[test]
fn a_character_added_mid_fight_is_asked_for_its_roll() {
    let mut app = table();
    typ(&mut app, "a");
    typ(&mut app, "Merc");
    press(&mut app, KeyCode::Enter);
    let Mode::Form(f) = app.mode() else {
        panic!("no initiative form: {:?}", app.mode().kind())
    };
    assert!(f.title.contains("Merc joins"));
    press(&mut app, KeyCode::Enter);
    let merc = id(&app, "Merc");
    assert!(
        app.state()
            .get(merc)
            .is_some_and(|c| c.initiative.is_some())
    );
    assert!(app.state().position(merc).is_some(), "slotted in the order");
}

// ---- one row says it all ----

#[test]
fn one_row_says_it_all() {
    let mut app = mono();
    let s = screen(&mut app, 120, 40);
    let row = |name: &str| {
        row_of(&s, name)
            .split("││")
            .next()
            .unwrap_or("")
            .to_string()
    };
    let razor = row("Razor");
    assert!(
        razor.contains("PC") && razor.contains("TA2") && razor.contains("-1"),
        "{razor}"
    );
    let jinx = row("Jinx");
    assert!(jinx.contains("2/3"), "Edge left of Edge: {jinx}");
    assert!(row("Dog").contains("Pr"));
    assert!(row("Sniper").contains("FD"));
    let g1 = row("Ganger 1");
    assert!(g1.contains("NPC") && g1.contains("Ganger 1/1"), "{g1}");
    // A Downed ganger has no projections.
    let g6 = row("Ganger 6");
    assert!(g6.contains('✗') && !g6.contains('→'), "{g6}");
}

#[test]
fn the_status_line_says_what_happened() {
    let mut app = table();
    typ(&mut app, ":edge Razor");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, ":act Razor Dodge");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        message(&app),
        "Razor interrupts with Dodge: 2 IP, 3 left; Take Aim ×2 lost"
    );
    // Aim kept to the shot: undo both, and let Razor's turn come round again.
    typ(&mut app, "uu");
    let razor = id(&app, "Razor");
    for _ in 0..20 {
        if app.actor() == Some(razor) {
            break;
        }
        typ(&mut app, "n");
    }
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire weap");
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("Fire Weapon with Take Aim +2"), "{s}");
    press(&mut app, KeyCode::Enter);
    assert!(
        message(&app).starts_with("Razor: Fire Weapon with Take Aim +2: 2 IP"),
        "{}",
        message(&app)
    );
}

// ---- nothing cut off without a way to read it ----

#[test]
fn the_picker_at_120x40_cuts_no_action_name() {
    let rules = crate::rules::HouseRules::embedded();
    let catalogue = crate::catalogue::Catalogue::embedded(&rules).expect("built-in catalogue");
    let save = crate::save::file::parse(include_bytes!("../../saves/demo.ron"), "saves/demo.ron")
        .expect("the demo parses");
    let enc = save
        .into_encounter("saves/demo.ron", std::sync::Arc::new(catalogue))
        .expect("the demo loads");
    let mut app = app_for(enc);
    press(&mut app, KeyCode::Enter);
    let names: Vec<String> = {
        let Mode::Picker(p) = app.mode() else {
            panic!("picker")
        };
        let cat = app.encounter().catalogue();
        p.items
            .iter()
            .take(30)
            .map(|it| cat.actions()[it.index].name.clone())
            .collect()
    };
    let s = screen(&mut app, 120, 40);
    for n in names {
        assert!(s.contains(&n), "{n} is cut:\n{s}");
    }
}

#[test]
fn log_lines_wrap_instead_of_being_cut() {
    let mut app = table();
    typ(
        &mut app,
        ":status Razor Pinned down behind the burning car until round",
    );
    press(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 80, 24);
    // The log is the right half of the bottom panes.
    let log: Vec<String> = s
        .lines()
        .skip_while(|l| !l.contains("┌ Log"))
        .skip(1)
        .filter_map(|l| l.split("││").nth(1))
        .map(|l| l.trim_end_matches('│').trim().to_string())
        .collect();
    let joined = log.join(" ");
    assert!(
        joined.contains("Razor: Pinned down behind the burning car (until the end of the round)"),
        "{s}"
    );
}

/// Double-width text (日本語, two cells a character) wraps by cells: nothing of it is cut off
/// at the pane's border, in the log or in the status pane.
#[test]
fn wide_text_wraps_whole_in_the_log_and_the_status_pane() {
    let text =
        "ガンガーが角を曲がって姿を見せたら撃つ準備をしておく。一人目を狙う。二人目は無視する";
    let mut app = table();
    typ(&mut app, &format!(":status Razor {text} until never"));
    press(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 80, 24);
    let column = |i: usize| -> String {
        s.lines()
            .skip_while(|l| !l.contains("┌ Log"))
            .skip(1)
            .filter_map(|l| l.split("││").nth(i))
            .collect::<String>()
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '│' | '─' | '└' | '┘'))
            .collect()
    };
    assert!(column(1).contains(text), "the log cuts it:\n{s}");
    assert!(column(0).contains(text), "the status pane cuts it:\n{s}");
}

/// A list of names is as wide as its widest name in cells: a double-width name reads whole.
#[test]
fn a_list_is_as_wide_as_a_wide_name() {
    let name = "漢字仮名交じりの長い名前を持つ敵の狙撃手";
    let mut app = table();
    typ(&mut app, &format!(":edit \"Ganger 5\" name {name}"));
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "nn");
    assert_eq!(app.actor(), Some(id(&app, "Sniper")));
    typ(&mut app, "m");
    assert!(matches!(app.mode(), Mode::Choose(_)));
    let s = screen(&mut app, 160, 48);
    // The test screen writes a wide character's second cell as a space.
    let shown: String = name.chars().flat_map(|c| [c, ' ']).collect();
    let item = format!("after {shown} (before Ganger 6): the turn is taken there");
    let line = line_with(&s, &format!("after {shown}"));
    assert!(line.contains(&item), "{s}");
    // The row ends at the popup's border, the name and its place whole before it.
    let after = line.split(&item).nth(1).unwrap_or_default();
    assert!(after.trim_start().starts_with('│'), "{s}");
}

#[test]
fn the_key_bar_keeps_the_keys_that_matter() {
    let mut app = table();
    let bar = screen(&mut app, 80, 24)
        .lines()
        .last()
        .unwrap_or("")
        .to_string();
    for k in [
        "a add",
        "i interrupt",
        "d delay",
        "y ready",
        "h damage",
        "m move",
        "? help",
    ] {
        assert!(bar.contains(k), "{k} is missing from: {bar}");
    }
    // With nobody on the roster, adding; with someone unrolled, the keys that set the fight up.
    let mut setup = app_for(demo::empty());
    let bar = screen(&mut setup, 80, 24)
        .lines()
        .last()
        .unwrap_or("")
        .to_string();
    assert!(
        bar.starts_with("a add") && !bar.contains("s start"),
        "{bar}"
    );
    let mut enc = demo::empty();
    assert_eq!(
        demo::script(&mut enc, &["add Ganger int 3 rea 3"], 1),
        Ok(())
    );
    let mut setup = app_for(enc);
    let bar = screen(&mut setup, 80, 24)
        .lines()
        .last()
        .unwrap_or("")
        .to_string();
    for k in ["a add", "r roll", "R roll NPCs", "t initiative", "s start"] {
        assert!(bar.contains(k), "{k} is missing from: {bar}");
    }
}

#[test]
fn the_order_gets_the_rows_the_status_pane_does_not_need() {
    let mut app = table();
    let s = screen(&mut app, 120, 40);
    for &id in app.roster().iter() {
        row_of(&s, app.state().name(id));
    }
    let order = line_with(&s, "Initiative order");
    assert!(
        !order.contains("more"),
        "all sixteen in sight at 120×40:\n{s}"
    );
}

// ---- forms ----

#[test]
fn forms_replace_given_values_toggle_choices_and_say_the_range() {
    let mut app = table();
    // The add form starts from the last added; Side is a toggle.
    typ(&mut app, "a");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("values as Dog, the last added"), "{s}");
    typ(&mut app, "Hound");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, " ");
    let Mode::Form(f) = app.mode() else {
        panic!("form")
    };
    assert_eq!(f.fields[1].get(), "pc");
    typ(&mut app, " ");
    press(&mut app, KeyCode::Esc);
    // Moth holds a ready: `d` is refused at once, with the command's sentence.
    typ(&mut app, "d");
    assert!(matches!(app.mode(), Mode::Tracker));
    let s = screen(&mut app, 80, 24);
    assert!(
        flat(&s).contains("Moth already holds a ready action; it must be used or lapse first"),
        "{s}"
    );
    // The ready form: the IP in the pool and the range allowed.
    typ(&mut app, "y");
    press(&mut app, KeyCode::Tab);
    let s = screen(&mut app, 80, 24);
    assert!(
        flat(&s).contains("allowed 1 to 3 (3 IP in the pool)"),
        "{s}"
    );
    press(&mut app, KeyCode::Esc);
    // No hint is cut: the status form's long one wraps.
    typ(&mut app, "+");
    let s = screen(&mut app, 80, 24);
    assert!(
        flat(&s).contains("of this turn, of their next turn, of the round, or never"),
        "{s}"
    );
}

#[test]
fn damage_boxes_typed_over_the_given_one() {
    let mut app = table();
    let dog = id(&app, "Dog");
    select(&mut app, "Dog");
    typ(&mut app, "h3");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().get(dog).map(|c| c.damage.physical), Some(3));
    assert!(
        crate::ui::tests::last_events(&app)
            .iter()
            .any(|e| matches!(e, Event::Damaged { boxes: 3, .. }))
    );
    assert!(matches!(app.state().phase, Phase::Fight(_)));
    assert!(
        app.state()
            .get(id(&app, "Moth"))
            .is_some_and(|c| matches!(c.reserve, Some(Reserve::Ready { .. })))
    );
}

#[test]
fn the_ready_pickers_key_bar_keeps_its_own_keys_before_the_arrows_at_80_columns() {
    let mut app = table();
    new_ready(&mut app);
    assert!(matches!(app.mode(), Mode::Picker(_)));
    let s = screen(&mut app, 80, 24);
    let bar = s.lines().last().unwrap_or_default().to_string();
    for key in [
        "⏎ add this",
        "Esc close",
        "C-n add more",
        "C-d declare",
        "F1 help",
    ] {
        assert!(bar.contains(key), "{key} in the bar: {bar}");
    }
    // The arrows give way first; on a wide screen every key shows, in the table's order.
    assert!(!bar.contains("↑ up"), "{bar}");
    let wide = screen(&mut app, 160, 48);
    let bar = wide.lines().last().unwrap_or_default();
    assert!(
        bar.starts_with(
            "⏎ add this and declare C-n add more C-d declare those chosen Esc close Tab next group"
        ),
        "{bar}"
    );
}

#[test]
fn the_ready_pickers_key_bar_at_120_columns_keeps_both_arrows_before_the_rarer_keys() {
    // Given the ready picker open on a 120-column screen
    let mut app = table();
    new_ready(&mut app);
    assert!(matches!(app.mode(), Mode::Picker(_)));
    // When the key bar is drawn
    let s = screen(&mut app, 120, 36);
    let bar = s.lines().last().unwrap_or_default().to_string();
    // Then its own keys and both arrows show; what is cut is a rarer key, never half a pair
    for key in [
        "⏎ add this and declare",
        "C-n add more",
        "C-d declare those chosen",
        "Esc close",
        "↑ up",
        "↓ down",
        "F1 help",
    ] {
        assert!(bar.contains(key), "{key} in the bar: {bar}");
    }
    let up = bar.find("↑ up").unwrap_or_default();
    let group = bar.find("Tab next group").unwrap_or(usize::MAX);
    assert!(up < group, "the arrows before the groups: {bar}");
}
