//! The key bar: the keys of the current mode, from the keymap table, as many as fit in the
//! table's order of priority (short of room, the mode's own actions before the keys that only
//! move about, a pair of those whole or not at all), those of no use in the fight's phase or on
//! a read-only screen left out, the key the fight waits on first, and help last.

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
        if let Some(i) = uses
            .first()
            .and_then(|first| entries.iter().position(|e| e.2 == first))
        {
            let waited_on = entries.remove(i);
            entries.insert(0, waited_on);
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
    // Ctrl-N and Ctrl-D before ↑ and ↓), the most used the last to go, quitting first; with
    // room for all, the table's order stands.
    if entries.iter().map(width_of).sum::<usize>() > room {
        // A label's words in brackets are the help's to give (`narrate now (Shake It Up)`):
        // short of room, the bar keeps more keys instead.
        for e in &mut entries {
            if let Some((short, _)) = e.1.split_once(" (") {
                e.1 = short;
            }
        }
        entries.sort_by_key(|e| keymap::gives_way(e.2));
    }
    let mut spans = Vec::new();
    let mut used = 0usize;
    let mut push = |(k, label, _): &(String, &str, Action)| {
        spans.push(Span::styled(k.clone(), t.key()));
        spans.push(Span::raw(format!(" {label} ")));
    };
    // Dropped from the end of the table's order: a later key never shows in place of an
    // earlier one that did not fit. A pair (PgUp and PgDn) goes or stays whole.
    let mut paired: Vec<Action> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if paired.contains(&e.2) {
            continue;
        }
        let partner = keymap::pair(e.2).and_then(|p| entries[i + 1..].iter().find(|o| o.2 == p));
        used += width_of(e) + partner.map_or(0, width_of);
        if used > room {
            break;
        }
        push(e);
        if let Some(p) = partner {
            paired.push(p.2);
            push(p);
        }
    }
    if let Some(h) = &help {
        push(h);
    }
    d.lines(vec![Line::from(spans)], area);
}
