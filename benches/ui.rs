//! A key → a new frame: `handle_key` then a draw into a 160×48 `TestBackend`,
//! with 50 combatants and 10,000 events in the history.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use srtrack::encounter::Command;
use srtrack::rules::RandomDice;
use srtrack::save::NoSave;
use srtrack::ui::{App, demo};

fn main() {
    divan::main();
}

fn big_app() -> App {
    let mut enc = demo::empty();
    demo::script(
        &mut enc,
        &[
            "add Boss npc int 5 rea 5 edge 3 body 6 will 5",
            "add Mook x49 npc int 3 rea 4 body 4 will 3",
            "roll all",
            "start",
        ],
        3,
    )
    .expect("setup");
    let mut dice = RandomDice::seeded(5);
    let events = |e: &srtrack::encounter::Encounter| -> usize {
        e.applied().iter().map(|x| x.events.len()).sum()
    };
    while events(&enc) < 10_000 {
        if srtrack::lang::execute(&mut enc, Command::Next, &mut dice).is_err() {
            break;
        }
    }
    App::new(enc, "Bench".into(), Box::new(NoSave), None).with_dice(Box::new(dice))
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

#[divan::bench]
fn select_key_and_frame(bencher: divan::Bencher) {
    let mut app = big_app();
    app.resize(160, 48);
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("backend");
    let mut down = true;
    bencher.bench_local(|| {
        app.handle_key(key(if down { 'j' } else { 'k' }));
        down = !down;
        term.draw(|f| f.render_widget(&app, f.area()))
            .expect("draw");
    });
}

/// `n` (an engine command, log lines and a save) then `u` (undo): two keys, two frames.
#[divan::bench]
fn next_then_undo_two_frames(bencher: divan::Bencher) {
    let mut app = big_app();
    app.resize(160, 48);
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("backend");
    bencher.bench_local(|| {
        app.handle_key(key('n'));
        term.draw(|f| f.render_widget(&app, f.area()))
            .expect("draw");
        app.handle_key(key('u'));
        term.draw(|f| f.render_widget(&app, f.area()))
            .expect("draw");
    });
}

/// Opening the action picker (the engine checks every action) and closing it.
#[divan::bench]
fn picker_open_close_two_frames(bencher: divan::Bencher) {
    let mut app = big_app();
    app.resize(160, 48);
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("backend");
    bencher.bench_local(|| {
        app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        term.draw(|f| f.render_widget(&app, f.area()))
            .expect("draw");
        app.handle_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        term.draw(|f| f.render_widget(&app, f.area()))
            .expect("draw");
    });
}

/// The draw alone into a bare buffer, per pane, to see where a frame goes.
#[divan::bench(args = ["all", "header", "order", "ip_grid", "status", "log", "keybar"])]
fn render_only(bencher: divan::Bencher, pane: &str) {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;
    use srtrack::ui::view;
    let mut app = big_app();
    app.resize(160, 48);
    let area = Rect::new(0, 0, 160, 48);
    let part = Rect::new(0, 0, 80, 20);
    bencher.bench_local(|| {
        let mut buf = Buffer::empty(area);
        match pane {
            "header" => view::header::render(&app, part, &mut buf),
            "order" => view::order::render(&app, part, false, &mut buf),
            "ip_grid" => view::ip_grid::render(&app, part, &mut buf),
            "status" => view::status::render(&app, part, &mut buf),
            "log" => view::log::render(&app, part, &mut buf),
            "keybar" => view::keybar::render(&app, part, &mut buf),
            _ => (&app).render(area, &mut buf),
        }
        buf
    });
}
