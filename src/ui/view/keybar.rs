//! The key bar: the keys of the current mode, from the keymap table, as many as fit in the
//! table's order of priority, those of no use in the fight's phase left out, and help last.

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::keymap::{self, ModeKind, Uses};

pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let mode = app.mode_kind();
    let width = area.width as usize;
    let mut entries = keymap::bar(mode, app.encounter().system());
    // The bar is short of room: Enter is its one-cell sign there (the help spells it out).
    for e in &mut entries {
        if e.0 == "Enter" {
            e.0 = "⏎".into();
        }
    }
    if mode == ModeKind::Tracker {
        let uses = Uses::of(app.state());
        entries.retain(|e| uses.serve(e.2));
    }
    // Help goes last and always shows: it lists every key.
    let help = entries
        .iter()
        .position(|e| e.2 == Action::Help)
        .map(|i| entries.remove(i));
    let room = width.saturating_sub(
        help.as_ref()
            .map_or(0, |h| h.0.chars().count() + h.1.chars().count() + 2),
    );
    let mut spans = Vec::new();
    let mut used = 0usize;
    for (k, label, _) in entries.iter().chain(help.iter()) {
        let len = k.chars().count() + label.chars().count() + 2;
        let is_help = help.as_ref().is_some_and(|h| h.0 == *k);
        if !is_help && used + len > room {
            continue;
        }
        used += len;
        spans.push(Span::styled(k.clone(), t.key()));
        spans.push(Span::raw(format!(" {label} ")));
    }
    d.lines(vec![Line::from(spans)], area);
}
