//! Help: every key, those of the room it was opened from first; Esc goes back to that room.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::{Ctx, Mode, Outcome};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::keymap::{self, ModeKind};
use crate::ui::view::{centered, pane_block};

const MODES: [ModeKind; 6] = [
    ModeKind::Tracker,
    ModeKind::Picker,
    ModeKind::Form,
    ModeKind::Command,
    ModeKind::Choose,
    ModeKind::Help,
];

#[derive(Debug, Clone)]
pub struct State {
    pub scroll: u16,
    /// The room help was opened from, as it was: Esc goes back to it.
    pub back: Box<Mode>,
}

impl State {
    pub fn open(back: Mode) -> Self {
        Self {
            scroll: 0,
            back: Box::new(back),
        }
    }

    pub fn update(&mut self, action: Action, _ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => Outcome::Open(std::mem::replace(&mut *self.back, Mode::Tracker)),
            Action::Down => {
                self.scroll += 1;
                Outcome::Stay
            }
            Action::Up => {
                self.scroll = self.scroll.saturating_sub(1);
                Outcome::Stay
            }
            _ => Outcome::Stay,
        }
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let r = centered(area, 72, area.height);
        Clear.render(r, buf);
        let block = pane_block("Keys (Esc closes)", true, t);
        let inner = block.inner(r);
        block.render(r, buf);
        let first = self.back.kind();
        let mut lines = Vec::new();
        for m in std::iter::once(first).chain(MODES.into_iter().filter(|m| *m != first)) {
            lines.push(Line::styled(m.label().to_string(), t.title()));
            for (k, label) in keymap::bindings(m, app.encounter().system()) {
                lines.push(Line::from(format!("  {k:<16} {label}")));
            }
            if m == ModeKind::Picker || m == ModeKind::Form || m == ModeKind::Command {
                lines.push(Line::from(format!(
                    "  {:<16} edit the text (←/→, Home/End, Backspace, C-w…)",
                    "typing"
                )));
            }
        }
        Paragraph::new(lines)
            .scroll((self.scroll, 0))
            .render(inner, buf);
    }
}
