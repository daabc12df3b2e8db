//! A choice list: who interrupts, the delay's trigger, where to move, which ready fires, a type.
//! Typing a name jumps to the first line about that character.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use tui_input::InputRequest;

use super::picker::{self, Purpose};
use super::{Ctx, Mode, Outcome, command_line, find_name, step, test_form};
use crate::encounter::{ActionChoice, CombatantId, Command, Reserve};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::theme::Theme;
use crate::ui::view::{centered, clear, cut, draw_lines, more_hints, pane_block, wrap};

/// What choosing a line of a choice list does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Run(Command),
    /// Run this action (a fire mode's Fire Gun), then offer its attack chain, as the picker does.
    Attack(Command),
    /// Back to the ready picker of `who`, these actions chosen (a fire mode's Fire Gun added
    /// with Ctrl-N), to go on choosing.
    MoreForReady {
        who: CombatantId,
        trigger: String,
        ip: Option<i32>,
        chosen: Vec<ActionChoice>,
    },
    /// Open the interrupt picker for this character.
    InterruptBy(CombatantId),
    /// Open the command line with this much typed, for the GM to finish.
    Type(String),
    /// Nothing: back to the tracker (the "no" of a question).
    Back,
}

/// The attack chain offered after `cmd` spends an attack action: the action itself, or the
/// first attack action of the ready trigger it fires.
fn attack_after(cmd: &Command, ctx: &Ctx) -> Option<Mode> {
    match cmd {
        Command::SpendAction {
            who,
            action: ActionChoice::Named { name, .. },
        } => test_form::State::attack_offer(*who, name, ctx),
        Command::FireReady { who, trigger, .. } => {
            let Some(Reserve::Ready { triggers, .. }) =
                ctx.state().get(*who).and_then(|c| c.reserve.as_ref())
            else {
                return None;
            };
            triggers
                .get(*trigger)?
                .actions
                .iter()
                .find_map(|a| test_form::State::attack_offer(*who, a.name.as_deref()?, ctx))
        }
        _ => None,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub label: String,
    pub choice: Choice,
    pub refusal: Option<String>,
    /// The character's name this line is about, for typing to jump to it.
    pub name: Option<String>,
}

impl Item {
    pub fn new(label: String, choice: Choice) -> Self {
        Self {
            label,
            choice,
            refusal: None,
            name: None,
        }
    }

    /// A line that runs a command, greyed out with the engine's reason if it would be refused.
    pub fn run(label: String, cmd: Command, ctx: &Ctx) -> Self {
        let refusal = ctx.refusal(cmd.clone());
        Self::new(label, Choice::Run(cmd)).refused(refusal)
    }

    /// A line that spends an attack action and goes on to its attack chain, greyed out as `run`.
    pub fn attack(label: String, cmd: Command, ctx: &Ctx) -> Self {
        let refusal = ctx.refusal(cmd.clone());
        Self::new(label, Choice::Attack(cmd)).refused(refusal)
    }

    /// The name typing jumps by.
    #[must_use]
    pub fn named(mut self, name: &str) -> Self {
        self.name = Some(name.to_string());
        self
    }

    /// Greyed out with this reason, if there is one.
    #[must_use]
    pub fn refused(mut self, why: Option<String>) -> Self {
        self.refusal = why;
        self
    }
}

#[derive(Debug, Clone)]
pub struct State {
    pub title: String,
    pub items: Vec<Item>,
    pub selected: usize,
    /// Letters typed to jump to a name.
    pub typed: String,
    /// What the lines' names are, for the footer that says typing jumps ("a name", "a mode").
    pub jump_to: &'static str,
    /// The picker this list was asked from (a fire mode, a type), as it was: Esc goes back to
    /// it, what it had chosen kept, rather than throwing it away.
    pub back: Option<Box<picker::State>>,
}

/// The body of a screen of this size, where the lists are drawn over.
pub fn body(screen: (u16, u16)) -> Rect {
    Rect::new(0, 0, screen.0, crate::ui::view::body_rows(screen.1))
}

/// The body's last rows a choice list leaves uncovered: the log's last line and its border.
const LOG_IN_SIGHT: u16 = 2;

/// A choice list, or `empty` on the status line when there is nothing to choose.
pub fn offer(title: String, items: Vec<Item>, empty: &str) -> Outcome {
    offer_at(title, items, None, empty)
}

/// A choice list opened on line `at` (else on the first line that can be taken).
pub fn offer_at(title: String, items: Vec<Item>, at: Option<usize>, empty: &str) -> Outcome {
    if items.is_empty() {
        return Outcome::Fail(empty.to_string());
    }
    let mut list = State::open(title, items);
    if let Some(at) = at.filter(|i| *i < list.items.len()) {
        list.selected = at;
    }
    Outcome::Open(Mode::Choose(list))
}

impl State {
    /// A choice list with its first line that can be taken selected.
    pub fn open(title: String, items: Vec<Item>) -> Self {
        let selected = items.iter().position(|i| i.refusal.is_none()).unwrap_or(0);
        Self {
            title,
            items,
            selected,
            typed: String::new(),
            jump_to: "a name",
            back: None,
        }
    }

    /// The list, its footer saying that typing one of `what` (`"a mode"`) jumps to it.
    #[must_use]
    pub fn jumping_to(mut self, what: &'static str) -> Self {
        self.jump_to = what;
        self
    }

    /// The list, Esc going back to `picker`.
    #[must_use]
    pub fn back_to(mut self, picker: picker::State) -> Self {
        self.back = Some(Box::new(picker));
        self
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => match self.back.take() {
                Some(p) => Outcome::Open(Mode::Picker(*p)),
                None => Outcome::Close,
            },
            Action::Up | Action::Down | Action::First | Action::Last => {
                self.go(action, 1);
                Outcome::Stay
            }
            Action::PageUp | Action::PageDown => {
                let rows = self.list_rows(self.area(body(ctx.screen)));
                self.go(action, rows);
                Outcome::Stay
            }
            Action::Input(req) => self.jump(req),
            Action::Confirm => {
                // A line greyed out is not taken: its reason, and the list stays as it was.
                if let Some(why) = self
                    .items
                    .get(self.selected)
                    .and_then(|it| it.refusal.as_ref())
                {
                    return Outcome::Fail(why.clone());
                }
                match self.items.get(self.selected).map(|it| &it.choice) {
                    None | Some(Choice::Back) => Outcome::Close,
                    Some(Choice::Run(cmd)) => Outcome::run(cmd.clone()),
                    Some(Choice::Attack(cmd)) => Outcome::Run {
                        cmd: cmd.clone(),
                        then: attack_after(cmd, ctx),
                    },
                    Some(Choice::MoreForReady {
                        who,
                        trigger,
                        ip,
                        chosen,
                    }) => {
                        let purpose = Purpose::Ready {
                            trigger: trigger.clone(),
                            ip: *ip,
                            chosen: chosen.clone(),
                        };
                        Outcome::Open(Mode::Picker(picker::State::open(*who, purpose, ctx)))
                    }
                    Some(Choice::InterruptBy(who)) => Outcome::Open(Mode::Picker(
                        picker::State::open(*who, Purpose::Interrupt, ctx),
                    )),
                    Some(Choice::Type(text)) => Outcome::Open(Mode::Command(command_line::State {
                        input: tui_input::Input::new(text.clone()),
                        note: None,
                    })),
                }
            }
            _ => Outcome::Stay,
        }
    }

    /// Moves the selection: a line, a page of `page` lines, the first or the last.
    pub fn go(&mut self, action: Action, page: usize) {
        let last = self.items.len().saturating_sub(1);
        self.selected = match action {
            Action::First => 0,
            Action::Last => last,
            Action::PageUp => self.selected.saturating_sub(page.max(1)),
            Action::PageDown => (self.selected + page.max(1)).min(last),
            _ => step(self.selected, self.items.len(), action),
        };
        self.typed.clear();
    }

    /// Letters typed jump to the first line about a name they fit.
    fn jump(&mut self, req: InputRequest) -> Outcome {
        match req {
            InputRequest::InsertChar(c) => self.typed.push(c),
            InputRequest::DeletePrevChar => {
                self.typed.pop();
            }
            _ => return Outcome::Stay,
        }
        if self.typed.is_empty() {
            return Outcome::Stay;
        }
        let names = self.items.iter().map(|it| it.name.as_deref().unwrap_or(""));
        match find_name(names, &self.typed, 0) {
            Some(i) => {
                self.selected = i;
                Outcome::Stay
            }
            None => Outcome::Fail(format!("no name here fits \"{}\"", self.typed)),
        }
    }

    /// Where the list is drawn over the body `area`: as tall as its items, as wide as its
    /// longest line, within the body; the log's last line and the border under it stay in
    /// sight (a long list moves up over the order, then scrolls).
    pub fn area(&self, area: Rect) -> Rect {
        let w = self.natural_width(40).min(area.width);
        let reason = self.reason_rows(usize::from(w.saturating_sub(2)));
        let room = area.height.saturating_sub(LOG_IN_SIGHT);
        let h = (self.items.len() + 2 + reason).min(usize::from(room));
        let mut r = centered(area, w, u16::try_from(h).unwrap_or(u16::MAX).max(3));
        let above_log = area.bottom().saturating_sub(LOG_IN_SIGHT);
        if r.bottom() > above_log {
            r.y = above_log.saturating_sub(r.height).max(area.y);
        }
        r
    }

    /// The width the list's box would take to show its longest line whole, reason included
    /// (at least `least`, at most 110 cells, so a list does not sprawl over a wide screen).
    pub fn natural_width(&self, least: u16) -> u16 {
        let longest = self
            .items
            .iter()
            .map(|it| {
                crate::text::shown_len(&it.label)
                    + it.refusal
                        .as_ref()
                        .map_or(0, |r| crate::text::shown_len(r) + 5)
                    + 4
            })
            .max()
            .unwrap_or(0)
            .max(crate::text::shown_len(&self.title) + 6);
        u16::try_from(longest)
            .unwrap_or(u16::MAX)
            .clamp(least, 110.max(least))
    }

    /// The rows the list has in `r`, the box drawn: those inside its borders, less the
    /// reason's, at least one.
    fn list_rows(&self, r: Rect) -> usize {
        let reason = self.reason_rows(usize::from(r.width.saturating_sub(2)));
        usize::from(r.height.saturating_sub(2))
            .saturating_sub(reason)
            .max(1)
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let r = self.area(area);
        clear(r, buf);
        let rows = self.list_rows(r);
        let (above, below) = self.out_of_sight(rows);
        let mut block = more_hints(pane_block(&self.title, true, t), above, below, t);
        if !self.typed.is_empty() {
            block = block.title_bottom(Line::styled(format!(" find: {} ", self.typed), t.title()));
        } else if self.items.iter().any(|it| it.name.is_some()) {
            block = block.title_bottom(Line::styled(
                format!(" type {} to jump ", self.jump_to),
                t.dim(),
            ));
        }
        let inner = block.inner(r);
        block.render(r, buf);
        let w = usize::from(inner.width);
        let mut lines = self.lines(rows, w, t);
        lines.resize(rows, Line::default());
        lines.extend(self.reason_lines(w, t));
        draw_lines(&lines, inner, buf);
    }

    /// A refused line as the list writes it, before it is cut: its mark, its label, its reason.
    fn refused_text(mark: &str, label: &str, why: &str) -> String {
        format!("{mark}⊘ {label} — {why}")
    }

    /// The selected line's reason in full, as it is written under the list.
    fn reason_text(why: &str, w: usize) -> Vec<String> {
        // Wrapped in the cells after the mark, so a first word too long for a row (a long
        // name) still starts on the mark's row.
        wrap(why, w.saturating_sub(2), 0)
            .into_iter()
            .enumerate()
            .map(|(i, l)| format!("{}{l}", if i == 0 { "⊘ " } else { "  " }))
            .collect()
    }

    /// The selected line's whole reason wrapped to `w` cells, to write under the list when the
    /// list cuts it; else nothing.
    fn selected_reason(&self, w: usize) -> Vec<String> {
        match self.items.get(self.selected) {
            Some(Item {
                refusal: Some(why),
                label,
                ..
            }) if crate::text::shown_len(&Self::refused_text("  ", label, why)) > w => {
                Self::reason_text(why, w)
            }
            _ => Vec::new(),
        }
    }

    /// The rows under a list `w` cells wide for the selected line's whole reason: as many as it
    /// takes, none when the list does not cut it.
    pub fn reason_rows(&self, w: usize) -> usize {
        self.selected_reason(w).len()
    }

    /// What goes in those rows.
    pub fn reason_lines(&self, w: usize, t: Theme) -> Vec<Line<'static>> {
        self.selected_reason(w)
            .into_iter()
            .map(|l| Line::styled(l, t.dim()))
            .collect()
    }

    /// The lines of a list of `rows` rows out of sight above and below it, as [`Self::lines`]
    /// shows it.
    pub fn out_of_sight(&self, rows: usize) -> (usize, usize) {
        let skip = (self.selected + 1).saturating_sub(rows);
        (skip, self.items.len().saturating_sub(skip + rows))
    }

    /// The rows of the list that fit, keeping the selection in view; refusals dimmed with
    /// their reason.
    pub fn lines(&self, rows: usize, w: usize, t: Theme) -> Vec<Line<'static>> {
        let skip = (self.selected + 1).saturating_sub(rows);
        self.items
            .iter()
            .enumerate()
            .skip(skip)
            .take(rows)
            .map(|(i, it)| {
                let mark = if i == self.selected { "▶ " } else { "  " };
                let (text, mut style) = match &it.refusal {
                    Some(why) => (Self::refused_text(mark, &it.label, why), t.dim()),
                    None => (format!("{mark}{}", it.label), t.base()),
                };
                if i == self.selected {
                    style = style.patch(t.current());
                }
                Line::styled(cut(&text, w), style)
            })
            .collect()
    }
}
