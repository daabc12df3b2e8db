//! The action picker: filter, groups, engine refusals, and the list a ready is building.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use tui_input::Input;

use super::{Ctx, Mode, Outcome, choose, step, test_form};
use crate::catalogue::{ActionDef, ActionGroup, ActionKind, Effect, Restriction};
use crate::encounter::{ActionChoice, CombatantId, Command, Encounter, Event, RuleError};
use crate::rules::ActionType;
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::view::{clear, cut, draw_lines, input_spans, more_hints, padded, pane_block};

/// What the picker is choosing for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    Spend,
    Interrupt,
    /// Actions for a ready: spent from the reserve when the trigger fires.
    Ready {
        trigger: String,
        ip: Option<i32>,
        chosen: Vec<ActionChoice>,
    },
}

/// One line of the picker: a catalogue action and why it cannot be taken now, if it cannot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub index: usize,
    pub refusal: Option<String>,
    /// Refused alone in a ready, but Ctrl-N may add it: what it goes with may follow it.
    pub more: bool,
    pub recent: bool,
}

#[derive(Debug, Clone)]
pub struct State {
    pub who: CombatantId,
    pub purpose: Purpose,
    pub query: Input,
    /// `None` is All.
    pub group: Option<ActionGroup>,
    pub items: Vec<Item>,
    pub selected: usize,
}

impl State {
    pub fn open(who: CombatantId, purpose: Purpose, ctx: &Ctx) -> Self {
        let mut p = Self {
            who,
            purpose,
            query: Input::default(),
            // Interrupts are listed by their type, not their group: Full Matrix Defense (Matrix)
            // and Evasive Driving (Chase) are interrupts too.
            group: None,
            items: Vec::new(),
            selected: 0,
        };
        p.refilter(ctx);
        p
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            // Esc always cancels: a ready with actions chosen is not declared.
            Action::Cancel => Outcome::Close,
            Action::Up | Action::Down => {
                self.selected = step(self.selected, self.items.len(), action);
                Outcome::Stay
            }
            Action::NextGroup | Action::PrevGroup if self.purpose != Purpose::Interrupt => {
                self.step_group(action == Action::NextGroup);
                self.selected = 0;
                self.refilter(ctx);
                Outcome::Stay
            }
            Action::Input(req) => {
                self.query.handle(req);
                self.selected = 0;
                self.refilter(ctx);
                Outcome::Stay
            }
            // Adding more is a ready's: elsewhere the key is not bound (`ModeKind::ReadyPicker`).
            Action::AddMore if !matches!(self.purpose, Purpose::Ready { .. }) => Outcome::Stay,
            Action::Confirm | Action::AddMore => {
                // A list asked from here (a fire mode, a type) comes back here on Esc.
                let back = self.clone();
                match self.confirm(action, ctx) {
                    Outcome::Open(Mode::Choose(list)) => {
                        Outcome::Open(Mode::Choose(list.back_to(back)))
                    }
                    other => other,
                }
            }
            Action::Declare => self.declare_chosen(),
            _ => Outcome::Stay,
        }
    }

    /// Ctrl-D: declares the ready with the actions chosen so far.
    fn declare_chosen(&self) -> Outcome {
        match &self.purpose {
            Purpose::Ready {
                trigger,
                ip,
                chosen,
            } if !chosen.is_empty() => {
                Outcome::run(declare(self.who, trigger, *ip, chosen.clone()))
            }
            Purpose::Ready { .. } => Outcome::Fail(
                "no action chosen yet: Ctrl-N adds one, Enter adds one and declares".into(),
            ),
            Purpose::Spend | Purpose::Interrupt => Outcome::Stay,
        }
    }

    fn step_group(&mut self, forward: bool) {
        let all: Vec<Option<ActionGroup>> = std::iter::once(None)
            .chain(ActionGroup::ALL.iter().copied().map(Some))
            .collect();
        let at = all.iter().position(|g| *g == self.group).unwrap_or(0);
        let n = all.len();
        self.group = all[if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        }];
    }

    /// Enter spends (or declares the ready with this action too); Ctrl-N adds it to a ready and
    /// goes on choosing.
    fn confirm(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        let Some(item) = self.items.get(self.selected) else {
            return Outcome::Fail("no action matches: change the filter".into());
        };
        // A line marked ⊘ is taken neither way (but added to a ready when what it goes with may
        // follow it): its reason, and the picker stays as it was.
        if let Some(why) = &item.refusal
            && !(item.more && action == Action::AddMore)
        {
            return Outcome::Fail(why.clone());
        }
        let index = item.index;
        let def = &ctx.catalogue().actions()[index];
        let choice = choice_for(def);
        let Purpose::Ready {
            trigger,
            ip,
            chosen,
        } = &mut self.purpose
        else {
            if def.kind.asks_type() {
                return choose_type(self.who, &def.name, ctx);
            }
            let who = self.who;
            if let Some(modes) = choose_mode(&def.name, ctx, |label, choice| {
                choose::Item::attack(
                    label,
                    Command::SpendAction {
                        who,
                        action: choice,
                    },
                    ctx,
                )
            }) {
                return modes;
            }
            // An attack action goes on to its attack chain (SR5), offered.
            return Outcome::Run {
                cmd: Command::SpendAction {
                    who: self.who,
                    action: choice,
                },
                then: test_form::State::attack_offer(self.who, &def.name, ctx),
            };
        };
        if action == Action::AddMore {
            // A firing action with fire modes asks its mode, then comes back here to go on.
            let (who, trigger, ip, so_far) = (self.who, trigger.clone(), *ip, chosen.clone());
            if let Some(modes) = choose_mode(&def.name, ctx, |label, choice| {
                let mut actions = so_far.clone();
                actions.push(choice);
                let refusal = ctx.refusal(declare(who, &trigger, ip, actions.clone()));
                choose::Item::new(
                    label,
                    choose::Choice::MoreForReady {
                        who,
                        trigger: trigger.clone(),
                        ip,
                        chosen: actions,
                    },
                )
                .refused(refusal)
            }) {
                return modes;
            }
            chosen.push(choice);
            self.query = Input::default();
            self.refilter(ctx);
            return Outcome::Stay;
        }
        // A firing action with fire modes asks its mode; the mode chosen declares the ready.
        let who = self.who;
        if let Some(modes) = choose_mode(&def.name, ctx, |label, choice| {
            let mut actions = chosen.clone();
            actions.push(choice);
            choose::Item::run(label, declare(who, trigger, *ip, actions), ctx)
        }) {
            return modes;
        }
        // Chosen so far plus this one; a refusal leaves the list as it was.
        let mut actions = chosen.clone();
        actions.push(choice);
        Outcome::run(declare(self.who, trigger, *ip, actions))
    }

    /// Recomputes the picker lines and asks the engine which ones it would refuse.
    fn refilter(&mut self, ctx: &Ctx) {
        let cat = ctx.catalogue();
        let mut hits: Vec<usize> = cat
            .search(self.query.value(), self.group)
            .into_iter()
            .map(|h| h.index)
            .collect();
        if self.purpose == Purpose::Interrupt {
            hits.retain(|&i| matches!(cat.actions()[i].kind, ActionKind::Interrupt { .. }));
        }
        let recent = recent_actions(ctx.enc, self.who);
        let mut items: Vec<Item> = hits
            .into_iter()
            .map(|index| {
                let def = &cat.actions()[index];
                let refused = |choice: ActionChoice| {
                    let cmd = match &self.purpose {
                        Purpose::Spend | Purpose::Interrupt => Command::SpendAction {
                            who: self.who,
                            action: choice,
                        },
                        Purpose::Ready {
                            trigger,
                            ip,
                            chosen,
                        } => {
                            let mut actions = chosen.clone();
                            actions.push(choice);
                            declare(self.who, trigger, *ip, actions)
                        }
                    };
                    ctx.refused(cmd)
                };
                let first = refused(choice_for(def));
                // Refused in a ready only for want of what goes with it: Ctrl-N may add it.
                let more = matches!(first, Some(RuleError::ReadyLacksPartner { .. }));
                // A Variable or Special action is refused only if no type of its list can be
                // taken (the list greys out those that cannot): as a Simple action first.
                let refusal = first
                    .filter(|_| {
                        !def.kind.asks_type()
                            || ActionType::ALL.iter().all(|t| {
                                refused(ActionChoice::Named {
                                    name: def.name.clone(),
                                    as_type: Some(*t),
                                    mode: None,
                                })
                                .is_some()
                            })
                    })
                    .map(Ctx::said);
                let recent = recent
                    .iter()
                    .any(|r| r.eq_ignore_ascii_case(&cat.actions()[index].name));
                Item {
                    index,
                    refusal,
                    more,
                    recent,
                }
            })
            .collect();
        // Recent actions first, in the order they were last used; the rest keep the search order.
        items.sort_by_key(|it| {
            if it.recent {
                recent
                    .iter()
                    .position(|r| r.eq_ignore_ascii_case(&cat.actions()[it.index].name))
                    .unwrap_or(0)
            } else {
                usize::MAX
            }
        });
        self.selected = self.selected.min(items.len().saturating_sub(1));
        self.items = items;
    }
}

/// The command declaring a ready with these actions.
fn declare(
    who: CombatantId,
    trigger: &str,
    ip: Option<i32>,
    actions: Vec<ActionChoice>,
) -> Command {
    Command::Ready {
        who,
        ip,
        trigger: trigger.to_string(),
        actions,
    }
}

/// The catalogue actions this character spent lately, latest first.
fn recent_actions(enc: &Encounter, who: CombatantId) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // A bounded look back: recent means this fight's last few hundred commands.
    for entry in enc.applied().iter().rev().take(300) {
        for ev in entry.events.iter().rev() {
            if let Event::ActionSpent { who: w, action, .. } = ev
                && *w == who
                && let Some(n) = &action.name
                && !out.contains(n)
            {
                out.push(n.clone());
            }
        }
        if out.len() >= 5 {
            break;
        }
    }
    out
}

fn choice_for(def: &ActionDef) -> ActionChoice {
    ActionChoice::Named {
        name: def.name.clone(),
        // The engine needs a type for Variable and Special actions; Simple is asked first,
        // and the GM may pick another from the type list.
        as_type: def.kind.asks_type().then_some(ActionType::Simple),
        mode: None,
    }
}

/// The type list for a Variable or Special action: which type the GM takes it as this time.
fn choose_type(who: CombatantId, name: &str, ctx: &Ctx) -> Outcome {
    let items = ActionType::ALL
        .iter()
        .map(|t| {
            choose::Item::run(
                format!("as a {} action", t.label()),
                Command::SpendAction {
                    who,
                    action: ActionChoice::Named {
                        name: name.to_string(),
                        as_type: Some(*t),
                        mode: None,
                    },
                },
                ctx,
            )
            .named(t.label())
        })
        .collect();
    Outcome::Open(Mode::Choose(choose::State::open(
        format!("{name}: which type this time?"),
        items,
    )))
}

/// The fire modes of a firing action that has them (Fire Gun), each with its rounds from the
/// rules, as `line` makes it of its label and the action in that mode (greyed out where the
/// engine would refuse it: too few rounds left); `None` for others, and at a table whose
/// system fires in no modes.
fn choose_mode(
    name: &str,
    ctx: &Ctx,
    line: impl Fn(String, ActionChoice) -> choose::Item,
) -> Option<Outcome> {
    if !ctx.enc.system().fires_in_modes() {
        return None;
    }
    let attack = ctx.enc.rules().sr5.attack_action(name)?;
    if attack.modes.is_empty() {
        return None;
    }
    let items = attack
        .modes
        .iter()
        .map(|m| {
            line(
                format!(
                    "{}: {}",
                    m.mode,
                    crate::encounter::system::sr5::n_rounds(m.rounds)
                ),
                ActionChoice::Named {
                    name: name.to_string(),
                    as_type: None,
                    mode: Some(m.mode.clone()),
                },
            )
            // Typing the mode's name (`b`, `BF`) jumps to it.
            .named(&m.mode)
        })
        .collect();
    Some(Outcome::Open(Mode::Choose(
        choose::State::open(format!("{name}: which fire mode?"), items).jumping_to("a mode"),
    )))
}

// ---- drawing ----

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

impl State {
    /// Drawn over the whole body, not as a popup over the panes.
    // t, s, r, h, w: theme, state, rectangle, height, width, as in the panes.
    #[allow(clippy::many_single_char_names)]
    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let s = app.state();
        let r = area;
        clear(r, buf);
        let who = s.name(self.who);
        let title = match &self.purpose {
            Purpose::Spend => format!("{who}: spend an action"),
            Purpose::Interrupt => format!("{who}: interrupt"),
            Purpose::Ready {
                trigger, chosen, ..
            } => {
                format!("{who}: ready when {trigger} ({} chosen)", chosen.len())
            }
        };
        let block = pane_block(&title, true, t);
        let inner = block.inner(r);
        // Interrupts are listed by their type, not their group: no bar of groups to move.
        let grouped = self.purpose != Purpose::Interrupt;
        let [filter, groups, body] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(u16::from(grouped)),
            Constraint::Min(0),
        ])
        .areas(inner);
        let mut f = vec![Span::styled("filter: ", t.title())];
        f.extend(input_spans(
            &self.query,
            filter.width.saturating_sub(8) as usize,
            t,
        ));
        Paragraph::new(Line::from(f)).render(filter, buf);
        if grouped {
            let mut g = Vec::new();
            for grp in std::iter::once(None).chain(ActionGroup::ALL.iter().copied().map(Some)) {
                let label = grp.map_or("All", ActionGroup::label);
                g.push(if grp == self.group {
                    Span::styled(format!("[{label}]"), t.current())
                } else {
                    Span::styled(format!(" {label} "), t.dim())
                });
            }
            Paragraph::new(Line::from(g)).render(groups, buf);
        }
        let cat = app.enc.catalogue();
        // The list is as wide as its lines: the longest name, type and cost, then the reasons
        // as far as the detail panel (which shows the selected line's reason whole) leaves room.
        let name_w = self
            .items
            .iter()
            .map(|it| crate::text::shown_len(&cat.actions()[it.index].name))
            .max()
            .unwrap_or(0)
            .max(12);
        // The line and a gap before the detail panel.
        let line_w = name_w + 22;
        let reason_w = self
            .items
            .iter()
            .filter_map(|it| it.refusal.as_ref().map(|r| crate::text::shown_len(r) + 2))
            .max()
            .unwrap_or(0);
        let beside = body.width >= 100;
        let [list, detail] = if beside {
            let most = usize::from(body.width).saturating_sub(36);
            let want = (line_w + reason_w).min(most).max(line_w.min(most));
            Layout::horizontal([
                Constraint::Length(u16::try_from(want).unwrap_or(u16::MAX)),
                Constraint::Min(0),
            ])
            .areas(body)
        } else {
            Layout::vertical([Constraint::Min(0), Constraint::Length(5)]).areas(body)
        };
        let h = list.height as usize;
        // A cell's gap before the detail panel beside the list.
        let w = usize::from(list.width).saturating_sub(usize::from(beside));
        let skip = (self.selected + 1).saturating_sub(h);
        let below = self.items.len().saturating_sub(skip + h);
        more_hints(block, skip, below, t).render(r, buf);
        let name_w = name_w.min(w.saturating_sub(20).max(8));
        let mut lines = Vec::new();
        for (i, it) in self.items.iter().enumerate().skip(skip).take(h) {
            let def = &cat.actions()[it.index];
            let mark = if i == self.selected { "▶" } else { " " };
            let recent = if it.recent { "★" } else { " " };
            let refused = if it.refusal.is_some() { "⊘" } else { " " };
            let mut text = format!(
                "{mark}{recent}{refused}{} {:<9} {:>3} IP",
                padded(&def.name, name_w),
                def.kind.label(),
                cost(app, def)
            );
            // The reason a line is dimmed, where there is room for it.
            if let Some(why) = &it.refusal
                && w > crate::text::shown_len(&text) + 12
            {
                text.push_str("  ");
                text.push_str(why);
            }
            let mut style = if it.refusal.is_some() {
                t.dim()
            } else {
                t.base()
            };
            if i == self.selected {
                style = style.patch(t.current());
            }
            lines.push(Line::styled(cut(&text, w), style));
        }
        if self.items.is_empty() {
            lines.push(Line::styled("no action matches", t.dim()));
        }
        draw_lines(&lines, list, buf);
        let mut d: Vec<Line> = Vec::new();
        if let Some(it) = self.items.get(self.selected) {
            let def = &cat.actions()[it.index];
            let rules = app.enc.rules();
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
                // A bow's arrows or a mount's belt are not the gun in hand's rounds (README).
                let counted = rules
                    .sr5
                    .attack_action(&def.name)
                    .is_none_or(|attack| attack.firearm);
                let not = if counted { "" } else { " (not counted)" };
                d.push(Line::from(format!("Ammunition: {a}{not}")));
            }
            d.push(Line::from(def.summary.clone()));
            // What a stacked status the action uses adds to it, when the character holds one.
            if let Some(Effect::Uses(status)) = &def.effect
                && let Some(held) = s.get(self.who).and_then(|c| c.status(status))
            {
                d.push(Line::styled(
                    format!("{} with {} +{}", def.name, held.name, held.stacks),
                    t.ok(),
                ));
            }
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
        if let Purpose::Ready { chosen, .. } = &self.purpose
            && !chosen.is_empty()
        {
            let names: Vec<String> = chosen
                .iter()
                .map(|c| match c {
                    ActionChoice::Named { name, .. } => name.clone(),
                    ActionChoice::Type(t) => format!("{} action", t.label()),
                })
                .collect();
            d.push(Line::from(format!(
                "chosen so far: {} (Enter adds this one and declares; Ctrl-D declares these)",
                names.join(", ")
            )));
        }
        // The GM's own catalogue may say anything: what is drawn is escaped.
        crate::ui::view::escape_lines(&mut d);
        Paragraph::new(d)
            .wrap(Wrap { trim: true })
            .render(detail, buf);
    }
}
