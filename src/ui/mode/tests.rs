//! Each room alone: its state, a key, the `Outcome`; no terminal, no `App`.

use tui_input::InputRequest;

use super::choose::{self, Choice};
use super::command_line;
use super::form;
use super::help;
use super::picker::{self, Purpose};
use super::tracker::{self, Pane};
use super::{Ctx, Mode, Outcome};
use crate::encounter::{ActionChoice, CombatantId, Command, Encounter, Track};
use crate::ui::action::Action;
use crate::ui::demo;

fn id(enc: &Encounter, name: &str) -> CombatantId {
    enc.state().find(name).expect("named combatant").id
}

/// The demo fight, Jinx to act, with the order pane's selection on Jinx (the first in the order).
fn demo() -> Encounter {
    demo::encounter()
}

fn type_into(text: &str, mut update: impl FnMut(Action) -> Outcome) {
    for c in text.chars() {
        assert!(matches!(
            update(Action::Input(InputRequest::InsertChar(c))),
            Outcome::Stay
        ));
    }
}

// ---- picker ----

#[test]
fn picker_filter_and_confirm_spends_the_action() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let jinx = id(&enc, "Jinx");
    let mut p = picker::State::open(jinx, Purpose::Spend, &ctx);
    type_into("fire w", |a| p.update(a, &ctx));
    let first = &enc.catalogue().actions()[p.items[0].index];
    assert_eq!(first.name, "Fire Weapon");
    match p.update(Action::Confirm, &ctx) {
        Outcome::Run {
            cmd: Command::SpendAction { who, action },
            then: None,
        } => {
            assert_eq!(who, jinx);
            assert_eq!(
                action,
                ActionChoice::Named {
                    name: "Fire Weapon".into(),
                    as_type: None,
                    mode: None,
                }
            );
        }
        other => panic!("not a spend: {other:?}"),
    }
}

#[test]
fn picker_with_nothing_matching_says_so_and_stays() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let mut p = picker::State::open(id(&enc, "Jinx"), Purpose::Spend, &ctx);
    type_into("zzzzqqq", |a| p.update(a, &ctx));
    assert!(p.items.is_empty());
    assert!(
        matches!(p.update(Action::Confirm, &ctx), Outcome::Fail(why) if why.contains("no action matches"))
    );
}

#[test]
fn picker_asks_the_type_of_a_variable_action() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let mut p = picker::State::open(id(&enc, "Jinx"), Purpose::Spend, &ctx);
    type_into("control dev", |a| p.update(a, &ctx));
    let Outcome::Open(Mode::Choose(c)) = p.update(Action::Confirm, &ctx) else {
        panic!("no type list");
    };
    assert_eq!(c.items.len(), crate::rules::ActionType::ALL.len());
    assert!(c.title.contains("Control Device"));
}

#[test]
fn picker_greys_out_refusals_and_lists_only_interrupts_for_an_interrupt() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let jinx = id(&enc, "Jinx");
    let p = picker::State::open(jinx, Purpose::Spend, &ctx);
    // Jinx is not Prone: Stand Up is refused, with the engine's reason.
    let stand = p
        .items
        .iter()
        .find(|it| enc.catalogue().actions()[it.index].name == "Stand Up")
        .expect("listed");
    assert!(stand.refusal.is_some());
    let i = picker::State::open(jinx, Purpose::Interrupt, &ctx);
    assert!(!i.items.is_empty());
    assert!(i.items.iter().all(|it| matches!(
        enc.catalogue().actions()[it.index].kind,
        crate::catalogue::ActionKind::Interrupt { .. }
    )));
}

#[test]
fn ready_picker_adds_with_ctrl_n_declares_with_ctrl_d_and_esc_always_cancels() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let jinx = id(&enc, "Jinx");
    let purpose = Purpose::Ready {
        trigger: "the door opens".into(),
        ip: Some(3),
        chosen: Vec::new(),
    };
    let mut p = picker::State::open(jinx, purpose, &ctx);
    // Ctrl-D with nothing chosen declares nothing.
    assert!(matches!(p.update(Action::Declare, &ctx), Outcome::Fail(_)));
    type_into("drop", |a| p.update(a, &ctx));
    assert!(matches!(p.update(Action::AddMore, &ctx), Outcome::Stay));
    assert_eq!(p.query.value(), "");
    // Esc cancels, whatever was chosen: nothing is declared.
    assert!(matches!(
        p.clone().update(Action::Cancel, &ctx),
        Outcome::Close
    ));
    match p.update(Action::Declare, &ctx) {
        Outcome::Run {
            cmd: Command::Ready {
                who, ip, actions, ..
            },
            then: None,
        } => {
            assert_eq!((who, ip), (jinx, Some(3)));
            assert_eq!(actions.len(), 1);
        }
        other => panic!("not a ready: {other:?}"),
    }
}

#[test]
fn ready_picker_with_the_ip_left_empty_takes_the_actions_cost_and_refuses_a_greyed_line() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let jinx = id(&enc, "Jinx");
    let purpose = Purpose::Ready {
        trigger: "the door opens".into(),
        ip: None,
        chosen: Vec::new(),
    };
    let mut p = picker::State::open(jinx, purpose, &ctx);
    let line = |p: &picker::State, name: &str| {
        p.items
            .iter()
            .position(|it| enc.catalogue().actions()[it.index].name == name)
            .expect("listed")
    };
    // Empty means what the actions cost: a Simple action fits, a Complex one is over the cap of 3.
    let fire = line(&p, "Fire Weapon");
    assert_eq!(p.items[fire].refusal, None);
    let melee = line(&p, "Melee Attack");
    assert!(p.items[melee].refusal.is_some());
    p.selected = melee;
    assert!(matches!(p.update(Action::AddMore, &ctx), Outcome::Fail(_)));
    let Purpose::Ready { chosen, .. } = &p.purpose else {
        panic!("a ready")
    };
    assert!(chosen.is_empty(), "a line marked ⊘ is not added");
}

// ---- choice list ----

#[test]
fn choice_list_starts_on_the_first_line_it_can_take_and_runs_it() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let jinx = id(&enc, "Jinx");
    let stand = Command::SpendAction {
        who: jinx,
        action: ActionChoice::Named {
            name: "Stand Up".into(),
            as_type: None,
            mode: None,
        },
    };
    let items = vec![
        choose::Item::run("stand up".into(), stand, &ctx),
        choose::Item::run("next".into(), Command::Next, &ctx),
    ];
    let Outcome::Open(Mode::Choose(mut c)) = choose::offer("What now?".into(), items, "none")
    else {
        panic!("no list");
    };
    // Stand Up is refused (Jinx is not Prone): greyed, with the reason, and not selected.
    assert!(c.items[0].refusal.is_some());
    assert_eq!(c.selected, 1);
    assert!(matches!(c.update(Action::Down, &ctx), Outcome::Stay));
    assert_eq!(c.selected, 1);
    assert!(matches!(
        c.update(Action::Confirm, &ctx),
        Outcome::Run {
            cmd: Command::Next,
            then: None
        }
    ));
    assert!(matches!(c.update(Action::Cancel, &ctx), Outcome::Close));
}

#[test]
fn choice_list_opens_the_interrupt_picker_and_says_when_empty() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let whisper = id(&enc, "Whisper");
    let item = choose::Item::new("Whisper".into(), Choice::InterruptBy(whisper));
    let mut c = choose::State::open("Interrupt: who?".into(), vec![item]);
    let Outcome::Open(Mode::Picker(p)) = c.update(Action::Confirm, &ctx) else {
        panic!("no picker");
    };
    assert_eq!((p.who, p.purpose), (whisper, Purpose::Interrupt));
    assert!(matches!(
        choose::offer("Nobody".into(), Vec::new(), "nobody to choose"),
        Outcome::Fail(why) if why == "nobody to choose"
    ));
}

// ---- form ----

#[test]
fn form_keeps_a_bad_number_in_its_field_and_runs_a_good_one() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let jinx = id(&enc, "Jinx");
    let mut f = form::State::open(form::Purpose::Damage(vec![jinx]), &ctx);
    // Boxes starts at 1, and typing replaces it: "x" is refused as it is typed, and again on
    // Enter, in the field.
    type_into("x", |a| f.update(a, &ctx));
    assert!(
        f.fields[0]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("not a whole number"))
    );
    assert!(matches!(f.update(Action::Confirm, &ctx), Outcome::Stay));
    assert!(f.fields[0].error.is_some());
    assert_eq!(f.focus, 0);
    f.update(Action::Input(InputRequest::DeletePrevChar), &ctx);
    assert!(f.fields[0].error.is_none());
    type_into("6", |a| f.update(a, &ctx));
    match f.update(Action::Confirm, &ctx) {
        Outcome::Run {
            cmd: Command::Damage { who, boxes, track },
            then: None,
        } => assert_eq!((who, boxes, track), (jinx, 6, Track::Physical)),
        other => panic!("not a damage: {other:?}"),
    }
}

#[test]
fn form_puts_the_engines_refusal_in_the_field_it_names() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let mut f = form::State::open(form::Purpose::Add, &ctx);
    type_into("Rook", |a| f.update(a, &ctx));
    for _ in 0..3 {
        f.update(Action::NextField, &ctx);
    }
    assert_eq!(f.fields[f.focus].label, "Intuition");
    f.update(Action::Input(InputRequest::DeletePrevChar), &ctx);
    type_into("0", |a| f.update(a, &ctx));
    f.update(Action::NextField, &ctx);
    let Outcome::Run { cmd, .. } = f.update(Action::Confirm, &ctx) else {
        panic!("not run");
    };
    // What App does when the engine refuses it.
    let why = ctx.refusal(cmd).expect("intuition 0 is refused");
    f.refused(&why);
    assert_eq!(f.focus, 3);
    assert_eq!(f.fields[3].error.as_deref(), Some(why.as_str()));
    // A reason that names no field goes under the form.
    f.refused("read-only: opened with --view");
    assert_eq!(f.error.as_deref(), Some("read-only: opened with --view"));
}

#[test]
fn the_add_and_edit_forms_ask_exactly_the_sheet_fields_of_the_encounters_system() {
    use crate::encounter::System;
    use std::sync::Arc;
    // Given an encounter of each system with one character in it
    let passes = [
        "Name",
        "Side",
        "Count",
        "Intuition",
        "Reaction",
        "Edge",
        "Dice mod",
        "IP bonus",
        "Body",
        "Willpower",
        "Shared roll",
        "Hidden",
    ];
    let narration = [
        "Name",
        "Side",
        "Count",
        "Edge",
        "Body",
        "Willpower",
        "Hidden",
    ];
    for (system, add) in [
        (System::Sr5, &passes[..]),
        (System::Sr2097, &passes[..]),
        (System::Anarchy, &narration[..]),
    ] {
        let mut enc = Encounter::for_system(
            system,
            Arc::new(crate::rules::HouseRules::embedded()),
            Arc::new(demo::catalogue()),
        );
        demo::script(
            &mut enc,
            &[&crate::lang::sheet_line(
                system,
                "add Ana pc int 4 rea 5 edge 3 body 4 will 5",
            )],
            1,
        )
        .expect("Ana joins");
        let ctx = Ctx::new(&enc, &tracker::State::default());
        // When the GM opens the add form, then it asks what the system plays with, no more
        let f = form::State::open(form::Purpose::Add, &ctx);
        let labels: Vec<&str> = f.fields.iter().map(|f| f.label).collect();
        assert_eq!(labels, add, "{system}");
        // and the edit form asks the same of the sheet (no Count: an edit is of one; hiding
        // is `W`'s)
        let f = form::State::open(form::Purpose::Edit(id(&enc, "Ana")), &ctx);
        let labels: Vec<&str> = f.fields.iter().map(|f| f.label).collect();
        let edit: Vec<&str> = add
            .iter()
            .copied()
            .filter(|l| !matches!(*l, "Count" | "Shared roll" | "Hidden"))
            .collect();
        assert_eq!(labels, edit, "{system}");
    }
}

#[test]
fn delay_form_checks_the_ip_then_asks_for_the_trigger() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let jinx = id(&enc, "Jinx");
    let mut f = form::State::open(form::Purpose::Delay(jinx), &ctx);
    type_into("99", |a| f.update(a, &ctx));
    assert!(matches!(f.update(Action::Confirm, &ctx), Outcome::Fail(_)));
    assert!(f.fields[0].error.is_some());
    f.update(Action::Input(InputRequest::DeletePrevChar), &ctx);
    f.update(Action::Input(InputRequest::DeletePrevChar), &ctx);
    type_into("1", |a| f.update(a, &ctx));
    let Outcome::Open(Mode::Choose(c)) = f.update(Action::Confirm, &ctx) else {
        panic!("no trigger list");
    };
    assert!(c.items.iter().any(|it| it.label == "after Whisper"));
}

// ---- command line ----

#[test]
fn command_line_hands_a_refused_command_to_app_and_keeps_the_line() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let mut c = command_line::State::default();
    // Parsed, but the engine refuses it: Whisper cannot act in Jinx's turn.
    type_into("act Whisper Fire Weapon", |a| c.update(a, &ctx));
    let Outcome::Run { cmd, then: None } = c.update(Action::Confirm, &ctx) else {
        panic!("not run");
    };
    assert!(ctx.refusal(cmd).is_some_and(|why| why.contains("turn")));
    assert_eq!(c.value(), "act Whisper Fire Weapon");
    // A line the parser refuses stays open with the reason.
    let mut bad = command_line::State::default();
    type_into("damage Nobody 2", |a| bad.update(a, &ctx));
    assert!(matches!(
        bad.update(Action::Confirm, &ctx),
        Outcome::Fail(_)
    ));
    assert_eq!(bad.value(), "damage Nobody 2");
}

#[test]
fn command_line_completes_undoes_and_answers() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let mut c = command_line::State::default();
    type_into("dam", |a| c.update(a, &ctx));
    assert!(matches!(c.update(Action::Complete, &ctx), Outcome::Stay));
    assert_eq!(c.value(), "damage ");
    let mut u = command_line::State::default();
    type_into("undo", |a| u.update(a, &ctx));
    assert!(matches!(u.update(Action::Confirm, &ctx), Outcome::Undo(1)));
    let mut w = command_line::State::default();
    type_into("why Jinx Whisper", |a| w.update(a, &ctx));
    assert!(
        matches!(w.update(Action::Confirm, &ctx), Outcome::Answer(why) if why.contains("stands before"))
    );
    assert!(matches!(w.update(Action::Cancel, &ctx), Outcome::Close));
}

// ---- help ----

#[test]
fn help_scrolls_and_goes_back_to_the_room_it_came_from() {
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let mut p = picker::State::open(id(&enc, "Jinx"), Purpose::Spend, &ctx);
    type_into("fire", |a| p.update(a, &ctx));
    let mut h = help::State::open(Mode::Picker(p));
    assert_eq!(h.back.kind(), crate::ui::keymap::ModeKind::Picker);
    h.update(Action::Down, &ctx);
    h.update(Action::Down, &ctx);
    h.update(Action::Up, &ctx);
    assert_eq!(h.scroll, 1);
    // Back to the picker as it was, filter included.
    let Outcome::Open(Mode::Picker(back)) = h.update(Action::Cancel, &ctx) else {
        panic!("not back to the picker");
    };
    assert_eq!(back.query.value(), "fire");
}

// ---- tracker ----

#[test]
fn tracker_moves_the_selection_inside_the_roster_and_scrolls_the_focused_pane() {
    let enc = demo();
    let mut t = tracker::State::default();
    let roster = super::roster(enc.state());
    // A page of 10 lines, as App measures it of the focused pane.
    let key = |t: &mut tracker::State, a: Action| {
        let ctx = Ctx {
            page: 10,
            ..Ctx::new(&enc, t)
        };
        t.update(a, &ctx)
    };
    for _ in 0..50 {
        key(&mut t, Action::Up);
    }
    assert_eq!(t.selection, tracker::Selection::On(roster[0]));
    for _ in 0..50 {
        key(&mut t, Action::Down);
    }
    let last = tracker::Selection::On(roster[roster.len() - 1]);
    assert_eq!(t.selection, last);
    // Tab: the status pane, then the log; j/k scroll the focused pane, not the order.
    key(&mut t, Action::FocusNext);
    assert_eq!(t.focus, Pane::Status);
    key(&mut t, Action::Down);
    assert_eq!(t.status_scroll, 1);
    key(&mut t, Action::FocusNext);
    assert_eq!(t.focus, Pane::Log);
    key(&mut t, Action::PageUp);
    key(&mut t, Action::Up);
    key(&mut t, Action::Down);
    assert_eq!(t.log_scroll, 10);
    assert_eq!(t.selection, last);
    // Esc brings the selection back to the actor.
    key(&mut t, Action::Cancel);
    assert_eq!(t.selection, tracker::Selection::Actor);
}

#[test]
fn tracker_says_why_a_key_has_nobody_to_act_on() {
    let empty = demo::empty();
    let ctx = Ctx::new(&empty, &tracker::State::default());
    let mut t = tracker::State::default();
    assert!(
        matches!(t.update(Action::Act, &ctx), Outcome::Fail(why) if why.contains("has not started"))
    );
    assert!(
        matches!(t.update(Action::Edit, &ctx), Outcome::Fail(why) if why.contains("add combatants"))
    );
    // n before the fight names the keys that start it, as Enter does.
    assert!(matches!(
        t.update(Action::Next, &ctx),
        Outcome::Fail(why) if why == "the fight has not started yet: roll (r), then start (s)"
    ));
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    // Jinx, first in the order, has no ready to fire: the list offers Sledge's, who has one.
    let Outcome::Open(Mode::Choose(fire)) = t.update(Action::Fire, &ctx) else {
        panic!("no list of readies");
    };
    assert!(
        fire.items
            .iter()
            .all(|it| it.label.starts_with("Sledge: when"))
    );
    // Next is handed to App to run.
    assert!(matches!(
        t.update(Action::Next, &ctx),
        Outcome::Run {
            cmd: Command::Next,
            then: None
        }
    ));
    assert!(matches!(
        t.update(Action::Add, &ctx),
        Outcome::Open(Mode::Form(_))
    ));
}

// ---- App carrying out outcomes ----

fn app() -> crate::ui::App {
    crate::ui::App::new(demo(), "Demo".into(), Box::new(crate::save::NoSave), None)
        .with_dice(Box::new(crate::rules::RandomDice::seeded(42)))
}

#[test]
fn the_tracker_state_outlives_a_popup() {
    let mut app = app();
    app.update(Action::Down);
    app.update(Action::FocusNext);
    app.update(Action::FocusNext);
    app.update(Action::PageUp);
    assert!(app.tracker.log_scroll > 0);
    let before = (
        app.tracker.selection,
        app.tracker.focus,
        app.tracker.log_scroll,
    );
    app.update(Action::Add);
    assert!(matches!(app.mode(), Mode::Form(_)));
    app.update(Action::Cancel);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert_eq!(
        (
            app.tracker.selection,
            app.tracker.focus,
            app.tracker.log_scroll
        ),
        before
    );
}

#[test]
fn a_command_run_for_a_room_opens_the_next_room_or_leaves_the_room_as_it_was() {
    let mut app = app();
    let cursor = app.encounter().cursor();
    app.carry_out(Outcome::Run {
        cmd: Command::Next,
        then: Some(Mode::Command(command_line::State::default())),
    });
    assert_eq!(app.encounter().cursor(), cursor + 1);
    assert!(matches!(app.mode(), Mode::Command(_)));
    // Refused: nothing changes, the room stays, the reason is on the status line.
    let stand = Command::SpendAction {
        who: id(app.encounter(), "Whisper"),
        action: ActionChoice::Named {
            name: "Stand Up".into(),
            as_type: None,
            mode: None,
        },
    };
    app.carry_out(Outcome::Run {
        cmd: stand,
        then: None,
    });
    assert_eq!(app.encounter().cursor(), cursor + 1);
    assert!(matches!(app.mode(), Mode::Command(_)));
    assert!(app.message().is_some_and(|(_, error)| error));
}

#[test]
fn ready_and_delay_are_refused_at_the_key_while_the_other_is_held() {
    for (held, key, why) in [
        (
            "delay Jinx 2",
            Action::Ready,
            "Jinx already holds a delay; it must be used or lapse first",
        ),
        (
            "ready Jinx 2 when the door opens do Fire Weapon",
            Action::Delay,
            "Jinx already holds a ready action; it must be used or lapse first",
        ),
    ] {
        let mut enc = demo();
        assert_eq!(demo::script(&mut enc, &[held], 1), Ok(()));
        let ctx = Ctx::new(&enc, &tracker::State::default());
        let mut t = tracker::State::default();
        match t.update(key, &ctx) {
            Outcome::Fail(e) => assert_eq!(e, why),
            other => panic!("{held}: not refused at the key: {other:?}"),
        }
    }
    // Nothing held: both open their forms.
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    for key in [Action::Ready, Action::Delay] {
        let mut t = tracker::State::default();
        let Outcome::Open(Mode::Form(f)) = t.update(key, &ctx) else {
            panic!("{key:?} opens its form");
        };
        // The IP field says the pool and the range allowed.
        assert!(f.fields.iter().any(|fl| fl.hint.contains("IP in the pool")));
    }
}

#[test]
fn finding_a_name_ignores_emoji_joiners_and_selectors_either_side() {
    // Given names kept without joiners (a name typed in) and with them (an older save's)
    let names = ["Ana", "👨👩👧 Family", "Love❤\u{fe0f}"];
    // When the GM types or pastes them with the joiners and selectors, or without
    // Then each finds its name
    for (typed, at) in [
        ("👨\u{200d}👩\u{200d}👧 F", 1),
        ("👨👩👧 F", 1),
        ("Love❤\u{fe0f}", 2),
        ("love❤", 2),
    ] {
        assert_eq!(super::find_name(names, typed, 0), Some(at), "{typed}");
    }
}

#[test]
fn a_refusal_the_screen_asks_for_says_what_the_command_line_says() {
    use crate::encounter::System;
    use std::sync::Arc;
    // Given an Anarchy table with Ana, where `edge` has a form of its own (`regain`)
    let mut enc = Encounter::for_system(
        System::Anarchy,
        Arc::new(crate::rules::HouseRules::embedded()),
        Arc::new(demo::catalogue()),
    );
    demo::script(&mut enc, &["add Ana pc edge 3"], 1).expect("Ana joins");
    // (the command line's sentence, as the script that runs lines gives it)
    let mut trial = enc.clone();
    let said = demo::script(&mut trial, &["edge Ana"], 1).expect_err("refused");
    let typed = said.strip_prefix("edge Ana: ").unwrap_or(&said).to_string();
    assert!(typed.contains("`edge NAME regain [N]`"), "{typed}");
    // When the screen asks whether the initiative machine's Edge would be taken (a key)
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let who = id(&enc, "Ana");
    // Then it is refused with the command line's sentence, this table's forms in it
    assert_eq!(ctx.refusal(Command::UseEdge { who }), Some(typed.clone()));
    assert_eq!(ctx.preview(Command::UseEdge { who }), Err(typed));
}

/// Given the GM finding a name and typing letters no name fits, when Enter is pressed, then the
/// find line stays open (it says no name fits) rather than closing without a word; once letters
/// fit a name, Enter keeps it and closes.
#[test]
fn enter_on_letters_no_name_fits_keeps_the_find_line_open() {
    use super::find;
    let enc = demo();
    let ctx = Ctx::new(&enc, &tracker::State::default());
    let mut f = find::State::open(tracker::Selection::default());
    for c in "zzz".chars() {
        f.update(Action::Input(InputRequest::InsertChar(c)), &ctx);
    }
    assert!(f.found.is_none());
    assert!(matches!(f.update(Action::Confirm, &ctx), Outcome::Stay));
    for _ in 0..3 {
        f.update(Action::Input(InputRequest::DeletePrevChar), &ctx);
    }
    let first = enc
        .state()
        .present()
        .next()
        .map(|c| c.name.clone())
        .unwrap_or_default();
    for c in first.chars() {
        f.update(Action::Input(InputRequest::InsertChar(c)), &ctx);
    }
    assert!(f.found.is_some(), "{first}");
    assert!(matches!(f.update(Action::Confirm, &ctx), Outcome::Close));
}
