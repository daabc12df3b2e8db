//! Help: every key of the current mode first, then the other modes.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::{centered, pane_block};
use crate::ui::app::App;
use crate::ui::keymap::{self, ModeKind};

const MODES: [ModeKind; 6] = [
    ModeKind::Normal,
    ModeKind::Picker,
    ModeKind::Form,
    ModeKind::Command,
    ModeKind::Choose,
    ModeKind::Help,
];

pub fn render(app: &App, scroll: u16, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let r = centered(area, 72, area.height);
    Clear.render(r, buf);
    let block = pane_block("Keys (Esc closes)", true, t);
    let inner = block.inner(r);
    block.render(r, buf);
    let first = app.help_mode();
    let mut lines = Vec::new();
    for m in std::iter::once(first).chain(MODES.into_iter().filter(|m| *m != first)) {
        lines.push(Line::styled(m.label().to_string(), t.title()));
        for (k, label) in keymap::bindings(m) {
            lines.push(Line::from(format!("  {k:<16} {label}")));
        }
        if m == ModeKind::Picker || m == ModeKind::Form || m == ModeKind::Command {
            lines.push(Line::from(format!(
                "  {:<16} edit the text (←/→, Home/End, Backspace, C-w…)",
                "typing"
            )));
        }
    }
    Paragraph::new(lines).scroll((scroll, 0)).render(inner, buf);
}
