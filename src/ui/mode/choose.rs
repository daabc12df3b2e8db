//! A choice list: who interrupts, the delay's trigger, where to move, which ready fires, a type.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::picker::{self, Purpose};
use super::{Ctx, Mode, Outcome, step};
use crate::encounter::{CombatantId, Command};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::view::{centered, cut, pane_block};

/// What choosing a line of a choice list does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Run(Command),
    /// Open the interrupt picker for this character.
    InterruptBy(CombatantId),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub label: String,
    pub choice: Choice,
    pub refusal: Option<String>,
}

impl Item {
    /// A line that runs a command, greyed out with the engine's reason if it would be refused.
    pub fn run(label: String, cmd: Command, ctx: &Ctx) -> Self {
        let refusal = ctx.refusal(cmd.clone());
        Self {
            label,
            choice: Choice::Run(cmd),
            refusal,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub title: String,
    pub items: Vec<Item>,
    pub selected: usize,
}

/// A choice list, or `empty` on the status line when there is nothing to choose.
pub fn offer(title: String, items: Vec<Item>, empty: &str) -> Outcome {
    if items.is_empty() {
        return Outcome::Fail(empty.to_string());
    }
    Outcome::Open(Mode::Choose(State::open(title, items)))
}

impl State {
    /// A choice list with its first line that can be taken selected.
    pub fn open(title: String, items: Vec<Item>) -> Self {
        let selected = items.iter().position(|i| i.refusal.is_none()).unwrap_or(0);
        Self {
            title,
            items,
            selected,
        }
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => Outcome::Close,
            Action::Up | Action::Down => {
                self.selected = step(self.selected, self.items.len(), action);
                Outcome::Stay
            }
            Action::Confirm => {
                match self.items.get(self.selected).map(|it| &it.choice) {
                    None => Outcome::Close,
                    Some(Choice::Run(cmd)) => Outcome::run(cmd.clone()),
                    Some(Choice::InterruptBy(who)) => Outcome::Open(Mode::Picker(
                        picker::State::open(*who, Purpose::Interrupt, ctx),
                    )),
                }
            }
            _ => Outcome::Stay,
        }
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let h = (self.items.len() as u16 + 2).min(area.height);
        let r = centered(area, 70, h.max(3));
        Clear.render(r, buf);
        let block = pane_block(&self.title, true, t);
        let inner = block.inner(r);
        block.render(r, buf);
        let rows = inner.height as usize;
        let w = inner.width as usize;
        let skip = (self.selected + 1).saturating_sub(rows);
        let lines: Vec<Line> = self
            .items
            .iter()
            .enumerate()
            .skip(skip)
            .take(rows)
            .map(|(i, it)| {
                let mark = if i == self.selected { "▶ " } else { "  " };
                let (text, mut style) = match &it.refusal {
                    Some(why) => (format!("{mark}⊘ {} — {why}", it.label), t.dim()),
                    None => (format!("{mark}{}", it.label), t.base()),
                };
                if i == self.selected {
                    style = style.patch(t.current());
                }
                Line::styled(cut(&text, w), style)
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
    }
}
