//! The screen keeps panes from frame to frame (`frame::Screen::show`): whatever the keys, each
//! frame it shows is the frame drawn afresh, and the terminal shows it too.

use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::rules::RandomDice;
use crate::save::NoSave;
use crate::ui::app::App;
use crate::ui::frame::{Screen, settle};
use crate::ui::view;
use crate::ui::wire::tests::assert_shows;

/// A sample save of the repository, opened as the screen opens it.
fn sample(bytes: &[u8], name: &str) -> App {
    let rules = crate::rules::HouseRules::embedded();
    let catalogue = crate::catalogue::Catalogue::embedded(&rules).expect("built-in catalogue");
    let save = crate::save::file::parse(bytes, name).expect("the sample parses");
    let enc = save
        .into_encounter(name, std::sync::Arc::new(catalogue))
        .expect("the sample loads");
    App::new(enc, name.into(), Box::new(NoSave), None).with_dice(Box::new(RandomDice::seeded(7)))
}

fn samples(which: usize) -> App {
    match which {
        0 => sample(include_bytes!("../../../saves/demo.ron"), "demo"),
        1 => sample(include_bytes!("../../../saves/sr2097.ron"), "sr2097"),
        2 => sample(include_bytes!("../../../saves/anarchy.ron"), "anarchy"),
        _ => sample(include_bytes!("../../../saves/sr5-docks.ron"), "sr5-docks"),
    }
}

/// The keys a session is drawn from: every letter (most open a room or act), the keys that
/// move, page, confirm and leave, and a resize now and then.
#[derive(Debug, Clone)]
enum Step {
    Key(KeyCode, KeyModifiers),
    Resize(u16, u16),
}

fn step() -> impl Strategy<Value = Step> {
    let plain = prop_oneof![
        (b'a'..=b'z').prop_map(|c| KeyCode::Char(char::from(c))),
        prop::sample::select(vec![
            '?', ':', '/', ' ', '1', '3', '+', '-', 'N', 'U', 'J', 'K'
        ])
        .prop_map(KeyCode::Char),
        prop::sample::select(vec![
            KeyCode::Esc,
            KeyCode::Enter,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::Backspace,
        ]),
    ];
    prop_oneof![
        12 => plain.prop_map(|k| Step::Key(k, KeyModifiers::NONE)),
        1 => prop::sample::select(vec!['r', 'z', 'l']).prop_map(|c| Step::Key(KeyCode::Char(c), KeyModifiers::CONTROL)),
        1 => prop::sample::select(vec![(160, 48), (80, 24), (120, 40), (60, 16)]).prop_map(|(w, h)| Step::Resize(w, h)),
    ]
}

/// The frame drawn afresh, as the screen settles it: from the state alone, nothing the view
/// keeps between frames (a key that left out what a kept value reads shows as a stale pane).
fn fresh(app: &App, area: Rect) -> Buffer {
    app.forget_kept();
    let mut buf = Buffer::empty(area);
    app.render(area, &mut buf);
    settle(&mut buf);
    buf
}

/// Plays `steps` on `app`, showing each frame on a kept screen, and checks each against the
/// frame drawn afresh and against what a terminal fed the bytes shows.
fn play(mut app: App, steps: &[Step]) -> Result<(), TestCaseError> {
    let (mut w, mut h) = (160u16, 48u16);
    app.resize(w, h);
    let mut screen = Screen::new(Vec::new(), w, h);
    let mut vt = vt100::Parser::new(
        std::num::NonZeroU16::new(h).expect("rows"),
        std::num::NonZeroU16::new(w).expect("columns"),
        0,
    );
    let mut fed = 0;
    for (i, step) in steps.iter().enumerate() {
        match *step {
            Step::Key(code, mods) => app.handle_key(KeyEvent::new(code, mods)),
            Step::Resize(nw, nh) => {
                (w, h) = (nw, nh);
                screen.resize(w, h);
                app.resize(w, h);
                vt.screen_mut().set_size(
                    std::num::NonZeroU16::new(h).expect("rows"),
                    std::num::NonZeroU16::new(w).expect("columns"),
                );
            }
        }
        let area = Rect::new(0, 0, w, h);
        let shown = screen
            .show(view::compose(&app, area))
            .expect("show")
            .clone();
        let want = fresh(&app, area);
        for (n, (a, b)) in shown.content.iter().zip(&want.content).enumerate() {
            let (x, y) = (n % usize::from(w), n / usize::from(w));
            prop_assert!(
                a == b,
                "after step {i} ({step:?}), cell {x},{y}: kept {a:?}, afresh {b:?}"
            );
        }
        vt.process(&screen.writer()[fed..]);
        fed = screen.writer().len();
        assert_shows(&vt, &want);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any keys, any sample save (SR5, Shadowrun 2097, Anarchy), now and then a new size:
    /// the kept screen is the fresh one, cell for cell, and so is the terminal's.
    #[test]
    fn a_kept_frame_is_the_frame_drawn_afresh(
        which in 0usize..4,
        steps in prop::collection::vec(step(), 1..40),
    ) {
        play(samples(which), &steps)?;
    }
}

/// Shows the app's frame; what it drew afresh.
fn drawn(screen: &mut Screen<Vec<u8>>, app: &App) -> Vec<Rect> {
    let area = screen.area();
    screen.show(view::compose(app, area)).expect("show");
    screen.drawn().to_vec()
}

/// Whether `r` lies within `pane`.
fn within(r: Rect, pane: Rect) -> bool {
    pane.union(r) == pane
}

/// A selection move draws the rows it changes, in the panes it changes (not the log, the
/// header or the key bar); `?` draws the help over its column of the panes and Esc puts them
/// back, without drawing them again; an action draws what it changed.
#[test]
fn a_key_draws_only_the_rows_it_changes() {
    let mut app = samples(0);
    app.resize(160, 48);
    let area = Rect::new(0, 0, 160, 48);
    let mut screen = Screen::new(Vec::new(), 160, 48);
    let a = view::areas(&app, area);
    assert_eq!(
        drawn(&mut screen, &app).len(),
        6,
        "the first frame draws every pane"
    );
    assert!(drawn(&mut screen, &app).is_empty(), "nothing changed");
    let key = |app: &mut App, c| app.handle_key(KeyEvent::new(c, KeyModifiers::NONE));
    key(&mut app, KeyCode::Char('j'));
    let j = drawn(&mut screen, &app);
    let in_order: Vec<_> = j.iter().filter(|r| within(**r, a.order)).collect();
    assert_eq!(
        in_order.len(),
        2,
        "the row the selection left and the row it came to: {j:?}"
    );
    assert!(in_order.iter().all(|r| r.height == 1), "{j:?}");
    for r in &j {
        assert!(
            within(*r, a.order) || within(*r, a.status),
            "only the order and the status change with `j`: {r:?} in {j:?}"
        );
    }
    key(&mut app, KeyCode::Char('?'));
    let help = drawn(&mut screen, &app);
    let column = crate::ui::mode::help::State::area(a.body);
    assert!(column.width < a.body.width, "{column:?}");
    assert!(
        help.contains(&column),
        "the help is drawn over its column of the body: {help:?}"
    );
    for r in &help {
        assert!(
            *r == column || within(*r, a.keys),
            "the panes under the help are kept; the key bar tells the help's keys: {help:?}"
        );
    }
    key(&mut app, KeyCode::Esc);
    let back = drawn(&mut screen, &app);
    assert!(
        back.iter().all(|r| within(*r, a.keys)),
        "the panes are put back, not drawn (the key bar changes back): {back:?}"
    );
    key(&mut app, KeyCode::Char('n'));
    let next = drawn(&mut screen, &app);
    for changed in [a.head, a.log] {
        assert!(
            next.iter().any(|r| within(*r, changed)),
            "{changed:?} changed with `n`: {next:?}"
        );
    }
}

/// On every sample save, at the sizes a GM uses, the panes share the screen out exactly, so a
/// frame that changes nothing draws nothing (a layout that left a gap or an overlap would be
/// drawn whole each time: correct, but every key would pay for it).
#[test]
fn on_every_sample_an_unchanged_frame_draws_nothing() {
    for which in 0..4 {
        for (w, h) in [(160, 48), (120, 40), (80, 24)] {
            let mut app = samples(which);
            app.resize(w, h);
            let mut screen = Screen::new(Vec::new(), w, h);
            assert!(!drawn(&mut screen, &app).is_empty());
            assert_eq!(drawn(&mut screen, &app), [], "sample {which} at {w}x{h}");
        }
    }
}

/// The key bar is kept while what it offers is the same, not while the encounter is: in a
/// fight, a character added without initiative brings the roll keys back, and rolling for
/// them takes them away; each frame kept on the way is the frame drawn afresh.
#[test]
fn the_key_bar_offers_rolls_while_someone_present_has_none() {
    let typed = |text: &str| -> Vec<Step> {
        text.chars()
            .map(|c| Step::Key(KeyCode::Char(c), KeyModifiers::NONE))
            .chain([Step::Key(KeyCode::Enter, KeyModifiers::NONE)])
            .collect()
    };
    let key_bar = |app: &App| {
        let area = Rect::new(0, 0, 160, 48);
        let buf = fresh(app, area);
        (0..area.width)
            .map(|x| buf[(x, area.height - 1)].symbol().to_string())
            .collect::<String>()
    };
    let mut app = samples(0);
    app.resize(160, 48);
    assert!(!key_bar(&app).contains("roll unrolled"), "all rolled");
    let add = typed(":add Zed npc int 3 rea 3");
    let roll = vec![Step::Key(KeyCode::Char('r'), KeyModifiers::NONE)];
    let next = vec![Step::Key(KeyCode::Char('n'), KeyModifiers::NONE)];
    let steps: Vec<Step> = [next.clone(), add.clone(), next.clone(), roll.clone(), next].concat();
    play(samples(0), &steps).expect("kept frames are fresh ones");
    for step in &add {
        if let Step::Key(code, mods) = *step {
            app.handle_key(KeyEvent::new(code, mods));
        }
    }
    assert!(key_bar(&app).contains("roll unrolled"), "{}", key_bar(&app));
    app.handle_key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE));
    assert!(
        !key_bar(&app).contains("roll unrolled"),
        "{}",
        key_bar(&app)
    );
}

/// A name of wide characters (one cell apart, or not, from where it began), then each popup
/// opened over it and closed: a popup's border over either half of a wide character, or its
/// edge cutting one in half, leaves no hole once it closes (the character is sent again
/// whole), and none of it beside the border while it is open.
#[test]
fn wide_characters_under_a_popups_border_show_whole_when_it_closes() {
    let key = |c| Step::Key(KeyCode::Char(c), KeyModifiers::NONE);
    let esc = Step::Key(KeyCode::Esc, KeyModifiers::NONE);
    for name in ["龍".repeat(40), format!("x{}", "龍".repeat(39))] {
        let mut steps = vec![key('e')];
        steps.extend(std::iter::repeat_n(
            Step::Key(KeyCode::Backspace, KeyModifiers::NONE),
            12,
        ));
        steps.extend(name.chars().map(key));
        steps.push(Step::Key(KeyCode::Enter, KeyModifiers::NONE));
        for size in [(160, 48), (120, 40), (100, 30)] {
            steps.push(Step::Resize(size.0, size.1));
            for popup in ['a', '?', 'h', 'd', 'm', 'y', 'e'] {
                steps.extend([key(popup), esc.clone()]);
            }
        }
        play(samples(0), &steps).expect("each frame shows as drawn afresh");
    }
}
