//! The status line: the last message (an error marked ✗), or where to find the keys.

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::cut;
use crate::ui::app::App;

pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let line = match app.message() {
        Some((m, true)) => Line::styled(cut(&format!("✗ {m}"), area.width as usize), t.error()),
        Some((m, false)) => Line::styled(cut(m, area.width as usize), t.ok()),
        None => Line::styled("? for every key, : for the command line", t.dim()),
    };
    d.lines(vec![line], area);
}
