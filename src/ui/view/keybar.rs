//! The key bar: the keys of the current mode, from the keymap table, as many as fit in the
//! table's order of priority (short of room, the mode's own actions before the arrows, the
//! arrows before the other keys that only move about; with nobody on the roster, adding
//! first), those of no use in the fight's phase or on a read-only screen left out, and help
//! last.

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
        entries.retain(|e| uses.serve(e.2) && (app.read_only.is_none() || keymap::reads(e.2)));
        if let Some(at) = uses
            .first()
            .and_then(|first| entries.iter().position(|e| e.2 == first))
        {
            let e = entries.remove(at);
            entries.insert(0, e);
        }
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
    let width_of = |e: &(String, &str, Action)| e.0.chars().count() + e.1.chars().count() + 2;
    // Short of room, the keys that only move about go after the mode's own actions (a ready's
    // Ctrl-N and Ctrl-D before ↑ and ↓), the arrows (the most used) before the rarer moves (a
    // group, a field, a page), quitting after all; with room for all, the table's order stands.
    if entries.iter().map(width_of).sum::<usize>() > room {
        // A label's words in brackets are the help's to give (`narrate now (Shake It Up)`):
        // short of room, the bar keeps more keys instead.
        for e in &mut entries {
            if let Some((short, _)) = e.1.split_once(" (") {
                e.1 = short;
            }
        }
        entries.sort_by_key(|e| match e.2 {
            Action::Quit => 3,
            Action::Up | Action::Down => 1,
            a if keymap::navigation(a) => 2,
            _ => 0,
        });
    }
    let mut spans = Vec::new();
    let mut used = 0usize;
    let mut push = |(k, label, _): &(String, &str, Action)| {
        spans.push(Span::styled(k.clone(), t.key()));
        spans.push(Span::raw(format!(" {label} ")));
    };
    // Dropped from the end of the table's order: a later key never shows in place of an
    // earlier one that did not fit.
    for e in &entries {
        used += width_of(e);
        if used > room {
            break;
        }
        push(e);
    }
    if let Some(h) = &help {
        push(h);
    }
    d.lines(vec![Line::from(spans)], area);
}
