//! The action picker: filter, groups, cost, details of the selected action, refusals dimmed.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use super::command_line::input_spans;
use super::{cut, pane_block};
use crate::catalogue::{ActionDef, ActionGroup, Restriction};
use crate::rules::ActionType;
use crate::ui::app::{App, PickPurpose, PickerState};

/// The IP an action costs, from the rules (never computed here).
fn cost(app: &App, def: &ActionDef) -> String {
    let rules = app.enc.rules();
    match def.ip_cost(rules, None) {
        Some(ip) => ip.to_string(),
        // Variable and Special actions cost what the type the GM picks costs.
        None if def.kind.asks_type() => format!(
            "{}-{}",
            rules.cost_of(ActionType::Free),
            rules.cost_of(ActionType::Complex)
        ),
        None => "?".into(),
    }
}

pub fn render(app: &App, p: &PickerState, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let s = app.state();
    let r = area;
    Clear.render(r, buf);
    let who = s.name(p.who);
    let title = match &p.purpose {
        PickPurpose::Spend => format!("{who}: spend an action"),
        PickPurpose::Interrupt => format!("{who}: interrupt"),
        PickPurpose::Ready {
            trigger, chosen, ..
        } => {
            format!("{who}: ready when {trigger} ({} chosen)", chosen.len())
        }
    };
    let block = pane_block(&title, true, t);
    let inner = block.inner(r);
    block.render(r, buf);
    let [filter, groups, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
    ])
    .areas(inner);
    let mut f = vec![Span::styled("filter: ", t.title())];
    f.extend(input_spans(
        &p.query,
        filter.width.saturating_sub(8) as usize,
        t,
    ));
    Paragraph::new(Line::from(f)).render(filter, buf);
    let mut g = Vec::new();
    for grp in std::iter::once(None).chain(ActionGroup::ALL.iter().copied().map(Some)) {
        let label = grp.map_or("All", ActionGroup::label);
        g.push(if grp == p.group {
            Span::styled(format!("[{label}]"), t.current())
        } else {
            Span::styled(format!(" {label} "), t.dim())
        });
    }
    Paragraph::new(Line::from(g)).render(groups, buf);
    let [list, detail] = if body.width >= 100 {
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(body)
    } else {
        Layout::vertical([Constraint::Min(0), Constraint::Length(5)]).areas(body)
    };
    let cat = app.enc.catalogue();
    let h = list.height as usize;
    let w = list.width as usize;
    let skip = (p.selected + 1).saturating_sub(h);
    // Room for the longest names (34 characters) where the list is wide enough.
    let name_w = w.saturating_sub(40).clamp(24, 36);
    let mut lines = Vec::new();
    for (i, it) in p.items.iter().enumerate().skip(skip).take(h) {
        let def = &cat.actions()[it.index];
        let mark = if i == p.selected { "▶" } else { " " };
        let recent = if it.recent { "★" } else { " " };
        let refused = if it.refusal.is_some() { "⊘" } else { " " };
        let mut text = format!(
            "{mark}{recent}{refused}{:<name_w$} {:<9} {:>3} IP",
            cut(&def.name, name_w),
            def.kind.label(),
            cost(app, def)
        );
        // The reason a line is dimmed, where there is room for it.
        if let Some(why) = &it.refusal
            && w > text.chars().count() + 12
        {
            text.push_str("  ");
            text.push_str(why);
        }
        let mut style = if it.refusal.is_some() {
            t.dim()
        } else {
            t.base()
        };
        if i == p.selected {
            style = style.patch(t.current());
        }
        lines.push(Line::styled(cut(&text, w), style));
    }
    if p.items.is_empty() {
        lines.push(Line::styled("no action matches", t.dim()));
    }
    Paragraph::new(lines).render(list, buf);
    let mut d: Vec<Line> = Vec::new();
    if let Some(it) = p.items.get(p.selected) {
        let def = &cat.actions()[it.index];
        d.push(Line::styled(def.name.clone(), t.title()));
        if let Some(test) = &def.test {
            d.push(Line::from(format!("Test: {test}")));
        }
        if let Some(m) = &def.marks {
            d.push(Line::from(format!("Marks: {m}")));
        }
        if let Some(th) = &def.threshold {
            d.push(Line::from(format!("Threshold: {th}")));
        }
        if let Some(a) = def.ammo {
            d.push(Line::from(format!("Ammunition: {a}")));
        }
        d.push(Line::from(def.summary.clone()));
        for r in &def.restrictions {
            d.push(Line::styled(
                match r {
                    Restriction::NotWhile(st) => format!("Not while {st}"),
                    Restriction::OnlyWhile(st) => format!("Only while {st}"),
                    Restriction::CombineWith(with) => format!("With: {}", with.join(", ")),
                    Restriction::Needs(what) => format!("Needs: {what}"),
                },
                t.dim(),
            ));
        }
        if let Some(page) = def.page {
            d.push(Line::styled(format!("p. {page}"), t.dim()));
        }
        if let Some(why) = &it.refusal {
            d.push(Line::styled(format!("⊘ not now: {why}"), t.error()));
        }
    }
    if let PickPurpose::Ready { chosen, .. } = &p.purpose
        && !chosen.is_empty()
    {
        let names: Vec<String> = chosen
            .iter()
            .map(|c| match c {
                crate::encounter::ActionChoice::Named { name, .. } => name.clone(),
                crate::encounter::ActionChoice::Type(t) => format!("{} action", t.label()),
            })
            .collect();
        d.push(Line::from(format!(
            "chosen so far: {} (Enter adds this one and declares)",
            names.join(", ")
        )));
    }
    Paragraph::new(d)
        .wrap(Wrap { trim: true })
        .render(detail, buf);
}
