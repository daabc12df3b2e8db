//! A key → a new frame: `handle_key` then a draw through the screen the program uses
//! (`ui::frame::Screen`: the frame compared with what the terminal shows and encoded, the bytes
//! dropped or counted), 160×48, with 50 combatants and 10,000 events in the history; and an
//! action key with its save on disk included.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use srtrack::encounter::Command;
use srtrack::rules::RandomDice;
use srtrack::save::NoSave;
use srtrack::ui::{App, demo, frame};

fn main() {
    divan::main();
}

fn big_app() -> App {
    big_app_saving_to(Box::new(NoSave))
}

fn big_app_saving_to(store: Box<dyn srtrack::save::Autosave>) -> App {
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
    App::new(enc, "Bench".into(), store, None).with_dice(Box::new(dice))
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

#[divan::bench]
fn select_key_and_frame(bencher: divan::Bencher) {
    let mut app = big_app();
    app.resize(160, 48);
    let mut term = frame::Screen::new(std::io::sink(), 160, 48);
    let mut down = true;
    bencher.bench_local(|| {
        app.handle_key(key(if down { 'j' } else { 'k' }));
        down = !down;
        srtrack::ui::show(&mut term, &app).expect("draw");
    });
}

/// `n` (an engine command, log lines and a save) then `u` (undo): two keys, two frames.
#[divan::bench]
fn next_then_undo_two_frames(bencher: divan::Bencher) {
    let mut app = big_app();
    app.resize(160, 48);
    let mut term = frame::Screen::new(std::io::sink(), 160, 48);
    bencher.bench_local(|| {
        app.handle_key(key('n'));
        srtrack::ui::show(&mut term, &app).expect("draw");
        app.handle_key(key('u'));
        srtrack::ui::show(&mut term, &app).expect("draw");
    });
}

/// Opening the action picker (the engine checks every action) and closing it.
#[divan::bench]
fn picker_open_close_two_frames(bencher: divan::Bencher) {
    let mut app = big_app();
    app.resize(160, 48);
    let mut term = frame::Screen::new(std::io::sink(), 160, 48);
    bencher.bench_local(|| {
        app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        srtrack::ui::show(&mut term, &app).expect("draw");
        app.handle_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        srtrack::ui::show(&mut term, &app).expect("draw");
    });
}

/// A writer that counts the bytes a terminal would be sent and drops them.
struct Counted(std::rc::Rc<std::cell::Cell<usize>>);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.set(self.0.get() + buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

type Wired = frame::Screen<Counted>;

/// The big encounter saved in a temporary directory, under its lock, saving each command as
/// `exec` does (the journal line written and synced before the key returns; the screen hands
/// the same write to its writer thread).
fn saved_app(dir: &tempfile::TempDir) -> App {
    use srtrack::save::{FileSave, Lock};
    let path = dir.path().join("bench.ron");
    let lock = Lock::acquire(&path).expect("lock");
    let store = FileSave::new(path, "bench".into(), "2026-11-23T00:00:00Z".into(), lock);
    let mut app = big_app_saving_to(Box::new(store));
    // The first save writes the whole snapshot; what is timed is the journal after it.
    app.handle_key(key('n'));
    app.handle_key(key('u'));
    app
}

/// A 160×48 terminal through the screen's own backend (`ui::wire`), and the count of the bytes it
/// was sent.
fn wire_terminal() -> (Wired, std::rc::Rc<std::cell::Cell<usize>>) {
    let sent = std::rc::Rc::new(std::cell::Cell::new(0));
    (frame::Screen::new(Counted(sent.clone()), 160, 48), sent)
}

/// A view key through the terminal encoding: `j`/`k`, a frame, the bytes written.
#[divan::bench]
fn select_key_wire(bencher: divan::Bencher) {
    let mut app = big_app();
    app.resize(160, 48);
    let (mut term, sent) = wire_terminal();
    srtrack::ui::show(&mut term, &app).expect("draw");
    let before = sent.get();
    app.handle_key(key('j'));
    srtrack::ui::show(&mut term, &app).expect("draw");
    eprintln!("select key: {} bytes", sent.get() - before);
    let mut down = false;
    bencher.bench_local(|| {
        app.handle_key(key(if down { 'j' } else { 'k' }));
        down = !down;
        srtrack::ui::show(&mut term, &app).expect("draw");
    });
}

/// `n` then `u` straight after it, each saved to disk (journal line, fsync) and drawn through
/// the terminal encoding: what an action key costs the GM, end to end but for the emulator.
#[divan::bench]
fn next_then_undo_saved_wire(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = saved_app(&dir);
    app.resize(160, 48);
    let (mut term, sent) = wire_terminal();
    srtrack::ui::show(&mut term, &app).expect("draw");
    let before = sent.get();
    app.handle_key(key('n'));
    srtrack::ui::show(&mut term, &app).expect("draw");
    eprintln!("action key: {} bytes", sent.get() - before);
    app.handle_key(key('u'));
    srtrack::ui::show(&mut term, &app).expect("draw");
    bencher.bench_local(|| {
        app.handle_key(key('n'));
        srtrack::ui::show(&mut term, &app).expect("draw");
        app.handle_key(key('u'));
        srtrack::ui::show(&mut term, &app).expect("draw");
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
    // One buffer, reset each time as ratatui resets its back buffer: a frame, not an allocation.
    let mut buf = Buffer::empty(area);
    bencher.bench_local(|| {
        buf.reset();
        let mut d = view::Drawing::default();
        match pane {
            "header" => view::header::render(&app, part, &mut d),
            "order" => view::order::render(&app, part, false, &mut d),
            "ip_grid" => view::ip_grid::render(&app, part, &mut d),
            "status" => view::status::render(&app, part, &mut d),
            "log" => view::log::render(&app, part, &mut d),
            "keybar" => view::keybar::render(&app, part, &mut d),
            _ => (&app).render(area, &mut buf),
        }
        d.draw(&mut buf);
    });
}
