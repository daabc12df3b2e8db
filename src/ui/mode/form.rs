//! A form: labelled one-line inputs for a command, each value checked in its field as it is typed.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};
use tui_input::Input;

use super::{Ctx, Mode, Outcome, choose, picker};
use crate::encounter::system::sr2097::Sr2097Command;
use crate::encounter::{
    AddCombatant, CombatantId, Command, RollTarget, SheetInput, Side, StatusUntil, Track,
};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::view::{centered, input_spans, pane_block};

/// What the form is for, and for whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Add,
    Edit(CombatantId),
    TypedRoll(CombatantId),
    /// A roll typed in as its dice (a Shadowrun 2097 initiative).
    TypedDice(CombatantId),
    Delay(CombatantId),
    Ready(CombatantId),
    Damage(CombatantId),
    Heal(CombatantId),
    Status(CombatantId),
}

/// One labelled input, with the reason its value is refused, if it is.
#[derive(Debug, Clone)]
pub struct Field {
    pub label: &'static str,
    pub hint: &'static str,
    pub input: Input,
    pub error: Option<String>,
}

#[derive(Debug, Clone)]
pub struct State {
    pub title: String,
    pub purpose: Purpose,
    pub fields: Vec<Field>,
    pub focus: usize,
    /// The engine's refusal of the whole form, when no field is to blame.
    pub error: Option<String>,
}

/// Enter on a form of the 2097 rooms: the command runs, or its reason goes in the field to blame.
pub(super) fn confirm(
    fields: &mut [Field],
    focus: &mut usize,
    cmd: Result<Command, (usize, String)>,
) -> Outcome {
    for fl in fields.iter_mut() {
        fl.error = None;
    }
    match cmd {
        Ok(cmd) => Outcome::run(cmd),
        Err((i, e)) => {
            if let Some(fl) = fields.get_mut(i) {
                fl.error = Some(e);
                *focus = i;
            }
            Outcome::Stay
        }
    }
}

/// A form's last line: the engine's refusal, or the keys (Enter `does`).
pub(super) fn last_line(error: Option<&str>, does: &str, app: &App) -> Line<'static> {
    match error {
        Some(e) => Line::styled(format!("✗ {e}"), app.theme.error()),
        None => Line::styled(
            format!("Enter: {does}  Tab: next field  Esc: cancel"),
            app.theme.dim(),
        ),
    }
}

/// Dice faces typed as numbers apart ("7 3", "7,3"); `None` when the field is empty.
pub(super) fn parse_faces(field: &Field) -> Result<Option<Vec<i32>>, String> {
    let v = field.input.value().trim();
    if v.is_empty() {
        return Ok(None);
    }
    v.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse::<i32>()
                .map_err(|_| format!("\"{w}\" is not a die's face"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

pub(super) fn parse_num(field: &Field, required: bool) -> Result<Option<i32>, String> {
    let v = field.input.value().trim();
    if v.is_empty() {
        return if required {
            Err("required".into())
        } else {
            Ok(None)
        };
    }
    v.parse::<i32>()
        .map(Some)
        .map_err(|_| format!("\"{v}\" is not a whole number"))
}

pub(super) fn field(label: &'static str, hint: &'static str, value: &str) -> Field {
    Field {
        label,
        hint,
        input: Input::new(value.to_string()),
        error: None,
    }
}

impl State {
    pub fn open(purpose: Purpose, ctx: &Ctx) -> Self {
        let s = ctx.state();
        let name = |id: CombatantId| s.name(id).to_string();
        let (title, fields) = match purpose {
            Purpose::Add => (
                "Add a combatant or a group".to_string(),
                vec![
                    field("Name", "unique; a group's members get numbers", ""),
                    field("Side", "pc or npc", "npc"),
                    field("Count", "empty for one; N for a group of N", ""),
                    field("Intuition", "", "3"),
                    field("Reaction", "", "3"),
                    field("Edge", "", "0"),
                    field("Dice mod", "initiative dice modifier", "0"),
                    field("IP bonus", "extra starting IP", "0"),
                    field("Body", "for the Physical monitor", ""),
                    field("Willpower", "for the Stun monitor", ""),
                    field("Shared roll", "y: the group rolls once", "n"),
                ],
            ),
            Purpose::Edit(id) => {
                let c = s.get(id);
                let v = |f: &dyn Fn(&crate::encounter::Sheet) -> String| {
                    c.map(|c| f(&c.sheet)).unwrap_or_default()
                };
                (
                    format!("Edit {}", name(id)),
                    vec![
                        field("Name", "", &name(id)),
                        field(
                            "Side",
                            "pc or npc",
                            c.map_or("npc", |c| if c.side == Side::Pc { "pc" } else { "npc" }),
                        ),
                        field("Intuition", "", &v(&|s| s.intuition.to_string())),
                        field("Reaction", "", &v(&|s| s.reaction.to_string())),
                        field("Edge", "", &v(&|s| s.edge.to_string())),
                        field("Dice mod", "", &v(&|s| s.dice_modifier.to_string())),
                        field("IP bonus", "", &v(&|s| s.ip_bonus.to_string())),
                        field(
                            "Body",
                            "",
                            &v(&|s| s.body.map(|b| b.to_string()).unwrap_or_default()),
                        ),
                        field(
                            "Willpower",
                            "",
                            &v(&|s| s.willpower.map(|b| b.to_string()).unwrap_or_default()),
                        ),
                    ],
                )
            }
            Purpose::TypedRoll(id) => (
                format!("Type in {}'s initiative roll", name(id)),
                vec![
                    field("Hits", "hits rolled at the table", ""),
                    field("Glitch", "y if it glitched", "n"),
                ],
            ),
            Purpose::TypedDice(id) => (
                format!("Type in {}'s initiative dice", name(id)),
                vec![field("Dice", "the d6s rolled at the table, e.g. 3 5", "")],
            ),
            Purpose::Delay(id) => (
                format!("Delay: {} holds IP", name(id)),
                vec![field("IP", "IP to hold back", "")],
            ),
            Purpose::Ready(id) => (
                format!("Ready: {} waits for a trigger", name(id)),
                vec![
                    field("Trigger", "when … (free text)", ""),
                    field("IP", "empty: the actions' cost", ""),
                ],
            ),
            Purpose::Damage(id) | Purpose::Heal(id) => (
                format!(
                    "{} {}",
                    if matches!(purpose, Purpose::Damage(_)) {
                        "Damage"
                    } else {
                        "Heal"
                    },
                    name(id)
                ),
                vec![
                    field("Boxes", "", "1"),
                    field("Track", "p(hysical) or s(tun)", "p"),
                ],
            ),
            Purpose::Status(id) => (
                format!("Add a status to {}", name(id)),
                vec![
                    field("Status", "a name from the rules, or free text", ""),
                    field("Until", "turn, next, round, never (empty: rules)", ""),
                ],
            ),
        };
        Self {
            title,
            purpose,
            fields,
            focus: 0,
            error: None,
        }
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => return Outcome::Close,
            Action::NextField | Action::PrevField => {
                edit_fields(&mut self.fields, &mut self.focus, action);
            }
            Action::Input(_) => {
                edit_fields(&mut self.fields, &mut self.focus, action);
                self.error = None;
                // Live check of the field being typed in (an empty field is fine while typing).
                if let Err((i, e)) = self.command()
                    && i == self.focus
                    && !e.starts_with("required")
                {
                    self.fields[i].error = Some(e);
                }
            }
            Action::Confirm => return self.submit(ctx),
            _ => {}
        }
        Outcome::Stay
    }

    /// Enter: a bad value stays in its field; a delay goes on to its trigger, a ready to its
    /// actions; anything else is run.
    fn submit(&mut self, ctx: &Ctx) -> Outcome {
        for fl in &mut self.fields {
            fl.error = None;
        }
        let cmd = match self.command() {
            Ok(c) => c,
            Err((i, e)) => {
                if let Some(fl) = self.fields.get_mut(i) {
                    fl.error = Some(e);
                    self.focus = i;
                }
                return Outcome::Stay;
            }
        };
        match (self.purpose, cmd) {
            (Purpose::Delay(who), Command::Delay { ip, .. }) => {
                // A delay needs its trigger character: first check the IP, then choose.
                let delay = |trigger| Command::Delay { who, ip, trigger };
                if let Some(e) = ctx.refusal(delay(None)) {
                    self.fields[0].error = Some(e.clone());
                    return Outcome::Fail(e);
                }
                let s = ctx.state();
                let mut items = vec![choose::Item::run(
                    "(no trigger yet: name it later)".into(),
                    delay(None),
                    ctx,
                )];
                for &t in &ctx.roster {
                    if t != who {
                        let label = format!("after {}", s.name(t));
                        items.push(choose::Item::run(label, delay(Some(t)), ctx));
                    }
                }
                let list = choose::State::open("Delay until after whom?".into(), items);
                Outcome::Open(Mode::Choose(list))
            }
            (Purpose::Ready(who), Command::Ready { ip, trigger, .. }) => {
                let purpose = picker::Purpose::Ready {
                    trigger,
                    ip,
                    chosen: Vec::new(),
                };
                Outcome::Open(Mode::Picker(picker::State::open(who, purpose, ctx)))
            }
            (_, cmd) => Outcome::run(cmd),
        }
    }

    /// The engine refused the form's command: its reason goes in the field it names, if it names
    /// one, else under the form.
    pub fn refused(&mut self, why: &str) {
        let lower = why.to_lowercase();
        let at = self
            .fields
            .iter()
            .position(|fl| lower.starts_with(&fl.label.to_lowercase()))
            .or_else(|| {
                lower
                    .starts_with("the name")
                    .then(|| self.fields.iter().position(|fl| fl.label == "Name"))
                    .flatten()
            });
        match at {
            Some(i) => {
                self.fields[i].error = Some(why.to_string());
                self.focus = i;
            }
            None => self.error = Some(why.to_string()),
        }
    }

    /// The form's command, or the field to blame and why.
    fn command(&self) -> Result<Command, (usize, String)> {
        let num = |i: usize, req: bool| parse_num(&self.fields[i], req).map_err(|e| (i, e));
        let text = |i: usize| self.fields[i].input.value().trim().to_string();
        let yes = |i: usize| matches!(text(i).to_lowercase().as_str(), "y" | "yes");
        let side = |i: usize| match text(i).to_lowercase().as_str() {
            "pc" => Ok(Side::Pc),
            "npc" | "" => Ok(Side::Npc),
            other => Err((i, format!("\"{other}\": type pc or npc"))),
        };
        let track = |i: usize| match text(i).to_lowercase().chars().next() {
            Some('s') => Ok(Track::Stun),
            Some('p') | None => Ok(Track::Physical),
            Some(_) => Err((i, "type p (Physical) or s (Stun)".to_string())),
        };
        let or = |v: Option<i32>, d: i32| v.unwrap_or(d);
        Ok(match self.purpose {
            Purpose::Add => {
                if text(0).is_empty() {
                    return Err((0, "required".into()));
                }
                Command::Add(AddCombatant {
                    name: text(0),
                    side: side(1)?,
                    count: num(2, false)?,
                    sheet: SheetInput {
                        intuition: or(num(3, true)?, 3),
                        reaction: or(num(4, true)?, 3),
                        edge: or(num(5, false)?, 0),
                        dice_modifier: or(num(6, false)?, 0),
                        ip_bonus: or(num(7, false)?, 0),
                        body: num(8, false)?,
                        willpower: num(9, false)?,
                    },
                    shared_roll: yes(10),
                })
            }
            Purpose::Edit(who) => Command::Edit {
                who,
                name: Some(text(0)).filter(|n| !n.is_empty()),
                side: Some(side(1)?),
                sheet: SheetInput {
                    intuition: or(num(2, true)?, 3),
                    reaction: or(num(3, true)?, 3),
                    edge: or(num(4, false)?, 0),
                    dice_modifier: or(num(5, false)?, 0),
                    ip_bonus: or(num(6, false)?, 0),
                    body: num(7, false)?,
                    willpower: num(8, false)?,
                },
            },
            Purpose::TypedRoll(id) => Command::Roll {
                target: RollTarget::One(id),
                typed: Some((or(num(0, true)?, 0), yes(1))),
            },
            Purpose::TypedDice(id) => {
                let dice = parse_faces(&self.fields[0])
                    .map_err(|e| (0, e))?
                    .ok_or((0, "required".to_string()))?;
                Command::Sr2097(Sr2097Command::Initiative {
                    target: RollTarget::One(id),
                    dice,
                })
            }
            Purpose::Delay(who) => Command::Delay {
                who,
                ip: or(num(0, true)?, 0),
                trigger: None,
            },
            Purpose::Ready(who) => {
                if text(0).is_empty() {
                    return Err((0, "required: what the character waits for".into()));
                }
                Command::Ready {
                    who,
                    ip: num(1, false)?,
                    trigger: text(0),
                    actions: Vec::new(),
                }
            }
            Purpose::Damage(who) => Command::Damage {
                who,
                boxes: or(num(0, true)?, 0),
                track: track(1)?,
            },
            Purpose::Heal(who) => Command::Heal {
                who,
                boxes: or(num(0, true)?, 0),
                track: track(1)?,
            },
            Purpose::Status(who) => {
                if text(0).is_empty() {
                    return Err((0, "required".into()));
                }
                let until = match text(1).to_lowercase().as_str() {
                    "" => None,
                    "turn" => Some(StatusUntil::ThisTurn),
                    "next" => Some(StatusUntil::NextTurn),
                    "round" => Some(StatusUntil::Round),
                    "never" => Some(StatusUntil::Never),
                    other => {
                        return Err((1, format!("\"{other}\": turn, next, round or never")));
                    }
                };
                Command::AddStatus {
                    who,
                    text: text(0),
                    until,
                }
            }
        })
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let footer = last_line(self.error.as_deref(), "submit", app);
        draw(
            &self.title,
            &self.fields,
            self.focus,
            vec![footer],
            app,
            area,
            buf,
        );
    }
}

/// Draws a form's popup: its fields, each with its error or hint, then the footer lines.
pub(super) fn draw(
    title: &str,
    fields: &[Field],
    focus: usize,
    footer: Vec<Line<'static>>,
    app: &App,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = app.theme;
    let h = (fields.len() + footer.len()) as u16 + 2;
    let r = centered(area, 76, h);
    Clear.render(r, buf);
    let block = pane_block(title, true, t);
    let inner = block.inner(r);
    block.render(r, buf);
    let input_w = (inner.width as usize).saturating_sub(14).min(24);
    let mut lines = field_lines(fields, focus, input_w, t);
    lines.extend(footer);
    Paragraph::new(lines).render(inner, buf);
}

/// Tab and Shift-Tab move between a form's fields; typing edits the focused one (and clears
/// its refusal).
pub(super) fn edit_fields(fields: &mut [Field], focus: &mut usize, action: Action) {
    let n = fields.len().max(1);
    match action {
        Action::NextField => *focus = (*focus + 1) % n,
        Action::PrevField => *focus = (*focus + n - 1) % n,
        Action::Input(req) => {
            if let Some(fl) = fields.get_mut(*focus) {
                fl.input.handle(req);
                fl.error = None;
            }
        }
        _ => {}
    }
}

/// A form's fields, one line each: label, input (the cursor in the focused one), and the hint
/// or the reason the value is refused.
pub(super) fn field_lines(
    fields: &[Field],
    focus: usize,
    input_w: usize,
    t: crate::ui::theme::Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (i, fl) in fields.iter().enumerate() {
        let focused = i == focus;
        let mut spans = vec![Span::styled(
            format!("{}{:<11} ", if focused { "▶" } else { " " }, fl.label),
            if focused { t.title() } else { t.base() },
        )];
        if focused {
            spans.extend(input_spans(&fl.input, input_w, t));
        } else {
            spans.push(Span::raw(fl.input.value().to_string()));
        }
        let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        spans.push(Span::raw(" ".repeat((13 + input_w).saturating_sub(used))));
        match &fl.error {
            Some(e) => spans.push(Span::styled(format!(" ✗ {e}"), t.error())),
            None => spans.push(Span::styled(format!(" {}", fl.hint), t.dim())),
        }
        lines.push(Line::from(spans));
    }
    lines
}
