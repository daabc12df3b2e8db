//! The tracker: no popup, the panes have the keys. Its state (focus, selection, marks, scrolls)
//! outlives every popup, so `App` keeps it beside the mode; the panes in `view/` draw it.

use super::{
    Ctx, Mode, Outcome, check_form, choose, command_line, damage_form, find, form, picker,
    plot_points, step, test_form,
};
use crate::catalogue::ActionKind;
use crate::encounter::system::anarchy::AnarchyCommand;
use crate::encounter::system::sr2097::{EdgeCommand, Sr2097Command};
use crate::encounter::{
    ActionChoice, Combatant, CombatantId, Command, Each, Event, Phase, Relative, Reserve,
    RollTarget, RuleError, Skipped, State as Fight, Timing, Visibility,
};
use crate::ui::action::Action;
use crate::ui::keymap;

/// Which pane j/k and PgUp/PgDn move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Pane {
    /// The initiative order, or an Anarchy table's seats.
    #[default]
    Order,
    /// An Anarchy table's narration turn, beside its seats.
    Narration,
    Status,
    Log,
}

impl Pane {
    /// The pane `Tab` goes to, in the screen's order: the narration pane only where the
    /// encounter plays in narrations (it is drawn there alone).
    #[must_use]
    pub fn next(self, narrating: bool) -> Self {
        match self {
            Pane::Order if narrating => Pane::Narration,
            Pane::Order | Pane::Narration => Pane::Status,
            Pane::Status => Pane::Log,
            Pane::Log => Pane::Order,
        }
    }
}

/// Whether the screen shows an encounter's narration (Anarchy's seats and turn) in place of
/// the initiative order and the IP grid.
pub fn narrates(enc: &crate::encounter::Encounter) -> bool {
    enc.state().narration().is_some() || !enc.system().plays_in_passes()
}

/// Which character the order pane's selection is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Selection {
    /// The character whose turn it is, whoever that becomes: where the screen opens, and where
    /// Esc brings it back.
    #[default]
    Actor,
    /// Where the GM put it: it stays on that character whatever runs, as long as it is present.
    On(CombatantId),
    /// The actor a key acted on while the selection followed: kept there though that key ends
    /// the turn, so the next key (`h`, `z` again to undo) hits the same character. Passing the
    /// turn (`n`) follows the actor again; Esc does too.
    Kept(CombatantId),
}

impl Selection {
    /// The selection once a key has acted on `id`, the selected character: a following one
    /// stops there; one the GM put stays put.
    #[must_use]
    pub fn keep(self, id: CombatantId) -> Self {
        match self {
            Selection::Actor => Selection::Kept(id),
            put => put,
        }
    }

    /// The selection once the GM passes the turn: a kept one follows the actor again.
    #[must_use]
    pub fn pass(self) -> Self {
        match self {
            Selection::Kept(_) => Selection::Actor,
            put => put,
        }
    }
}

#[derive(Debug, Clone, Hash, Default)]
pub struct State {
    pub focus: Pane,
    pub selection: Selection,
    /// Characters marked for the next damage, healing or status, in the order marked.
    pub marks: Vec<CombatantId>,
    /// Lines scrolled back from the bottom of the log.
    pub log_scroll: usize,
    /// Lines scrolled down from the top of the status pane.
    pub status_scroll: usize,
    /// Lines scrolled down from the top of the narration pane.
    pub narration_scroll: usize,
}

impl State {
    /// The selected character: where the GM put it if it is still present, else the actor
    /// (whose turn it is, or who narrates), else the first in the roster.
    pub fn selected(&self, state: &Fight, roster: &[CombatantId]) -> Option<CombatantId> {
        let actor = state.acting();
        match self.selection {
            Selection::On(id) | Selection::Kept(id) if roster.contains(&id) => Some(id),
            _ => actor
                .filter(|a| roster.contains(a))
                .or_else(|| roster.first().copied()),
        }
    }

    fn move_selection(&mut self, ctx: &Ctx, by: Action, times: usize) {
        let at = ctx
            .selected
            .and_then(|id| ctx.roster.iter().position(|x| *x == id))
            .unwrap_or(0);
        let mut to = at;
        for _ in 0..times {
            to = step(to, ctx.roster.len(), by);
        }
        if let Some(id) = ctx.roster.get(to) {
            self.selection = Selection::On(*id);
        }
    }

    fn scroll(&mut self, ctx: &Ctx, up: bool, lines: usize) {
        match self.focus {
            Pane::Order => {
                let by = if up { Action::Up } else { Action::Down };
                self.move_selection(ctx, by, lines);
            }
            // The status and narration panes scroll down from their top; App keeps them
            // inside their lines.
            Pane::Narration if up => {
                self.narration_scroll = self.narration_scroll.saturating_sub(lines);
            }
            Pane::Narration => self.narration_scroll += lines,
            Pane::Status if up => self.status_scroll = self.status_scroll.saturating_sub(lines),
            Pane::Status => self.status_scroll += lines,
            // Up goes back in the log: further from its bottom.
            Pane::Log if up => self.log_scroll += lines,
            Pane::Log => self.log_scroll = self.log_scroll.saturating_sub(lines),
        }
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        // An ended encounter opens no form or picker whose every line it would refuse.
        if keymap::Uses::of(ctx.state()) == keymap::Uses::Ended
            && !keymap::Uses::Ended.serve(action)
        {
            return Outcome::Fail(ENDED.into());
        }
        match action {
            Action::Up | Action::Down => {
                self.scroll(ctx, action == Action::Up, 1);
                Outcome::Stay
            }
            Action::PageUp | Action::PageDown => {
                self.scroll(ctx, action == Action::PageUp, ctx.page);
                Outcome::Stay
            }
            Action::FocusNext => {
                self.focus = self.focus.next(narrates(ctx.enc));
                Outcome::Stay
            }
            Action::Cancel => {
                self.selection = Selection::Actor;
                Outcome::Stay
            }
            Action::Mark => on_selected(&mut self.selection, ctx, |id| {
                if let Some(at) = self.marks.iter().position(|m| *m == id) {
                    self.marks.remove(at);
                } else {
                    self.marks.push(id);
                }
                Outcome::Stay
            }),
            Action::UnmarkAll => {
                self.marks.clear();
                Outcome::Stay
            }
            Action::Find => Outcome::Open(Mode::Find(find::State::open(self.selection))),
            Action::CommandLine => Outcome::Open(Mode::Command(command_line::State::default())),
            Action::Undo => Outcome::Undo(1),
            Action::Redo => Outcome::Redo(1),
            Action::RollAll => Outcome::run(Command::Roll {
                target: RollTarget::All,
                typed: None,
            }),
            Action::RollNpcs => Outcome::run(Command::Roll {
                target: RollTarget::Npcs,
                typed: None,
            }),
            Action::Start => Outcome::run(Command::Start),
            // Before the fight, the keys that start it: the engine's sentence names commands.
            Action::Next if matches!(ctx.state().phase, Phase::Setup) => {
                Outcome::Fail(NOT_STARTED.into())
            }
            Action::Next => {
                self.selection = self.selection.pass();
                Outcome::run(Command::Next)
            }
            Action::End => Outcome::run(Command::End),
            Action::Add => open_form(form::Purpose::Add, ctx),
            Action::Edit => on_selected(&mut self.selection, ctx, |id| open_form(form::Purpose::Edit(id), ctx)),
            Action::TypeRoll => on_selected(&mut self.selection, ctx, |id| type_roll(id, ctx)),
            Action::Check => on_selected(&mut self.selection, ctx, |id| {
                Outcome::Open(Mode::CheckForm(check_form::State::open(id, ctx)))
            }),
            Action::DamageRoll => on_selected(&mut self.selection, ctx, |id| {
                Outcome::Open(Mode::DamageForm(damage_form::State::open(id, ctx)))
            }),
            Action::EdgeMenu => on_selected(&mut self.selection, ctx, |id| choose_edge_2097(id, ctx)),
            Action::Damage => on_targets(&mut self.selection, ctx, |who| match form::damage_refusal(&who, ctx) {
                Some(why) => Outcome::Fail(why),
                None => open_form(form::Purpose::Damage(who), ctx),
            }),
            Action::Heal => on_targets(&mut self.selection, ctx, |who| open_form(form::Purpose::Heal(who), ctx)),
            Action::AddStatus => on_targets(&mut self.selection, ctx, |who| open_form(form::Purpose::Status(who), ctx)),
            Action::ClearStatus => on_targets(&mut self.selection, ctx, |who| choose_clear(&who, ctx)),
            Action::Test => on_selected(&mut self.selection, ctx, |id| test_form::State::test(id, ctx)),
            Action::AttackStep => test_form::State::resume(ctx).map_or_else(
                || {
                    Outcome::Fail(
                        "no attack waits for its next step: spend an attack action (Enter) to start one"
                            .into(),
                    )
                },
                Outcome::Open,
            ),
            Action::Delay if selected_delay_unnamed(ctx) => choose_delay_trigger(ctx),
            Action::Delay => on_actor(ctx, |who| {
                let probe = Command::Delay {
                    who,
                    ip: 0,
                    trigger: None,
                };
                declarable(probe, ctx, |e| matches!(e, RuleError::ReserveTooSmall))
                    .unwrap_or_else(|| open_form(form::Purpose::Delay(who), ctx))
            }),
            Action::Ready => on_actor(ctx, |who| {
                let probe = Command::Ready {
                    who,
                    ip: None,
                    trigger: String::new(),
                    actions: Vec::new(),
                };
                declarable(probe, ctx, |e| matches!(e, RuleError::EmptyTrigger))
                    .unwrap_or_else(|| open_form(form::Purpose::Ready(who), ctx))
            }),
            Action::Remove => on_selected(&mut self.selection, ctx, |who| {
                Outcome::run(Command::Remove { who, reason: None })
            }),
            Action::Edge => on_selected(&mut self.selection, ctx, |who| Outcome::run(Command::UseEdge { who })),
            Action::ToggleDowned => on_selected(&mut self.selection, ctx, |who| {
                let downed = !ctx.state().get(who).is_some_and(Combatant::is_downed);
                Outcome::run(Command::SetDowned { who, downed })
            }),
            Action::ToggleHidden => on_targets(&mut self.selection, ctx, |who| {
                let hidden = |id: &CombatantId| ctx.state().get(*id).is_some_and(Combatant::is_hidden);
                // All hidden: show them again; else hide those still shown.
                let (who, visibility) = if who.iter().all(hidden) {
                    (who, Visibility::Shown)
                } else {
                    (who.into_iter().filter(|id| !hidden(id)).collect(), Visibility::Hidden)
                };
                Outcome::run(Command::SetVisibility { who, visibility })
            }),
            Action::Act => on_actor(ctx, |who| {
                let p = picker::State::open(who, picker::Purpose::Spend, ctx);
                Outcome::Open(Mode::Picker(p))
            }),
            Action::SpendType(kind) => on_actor(ctx, |who| {
                Outcome::run(Command::SpendAction {
                    who,
                    action: ActionChoice::Type(kind),
                })
            }),
            Action::Interrupt => choose_interrupter(ctx),
            Action::Fire => choose_fire(ctx),
            Action::Move => on_selected(&mut self.selection, ctx, |who| choose_move(who, ctx)),
            Action::Narrate => {
                self.selection = self.selection.pass();
                Outcome::run(Command::Anarchy(AnarchyCommand::Narrate { who: None }))
            }
            Action::NarrateSelected => on_selected(&mut self.selection, ctx, |who| {
                Outcome::run(Command::Anarchy(AnarchyCommand::Narrate { who: Some(who) }))
            }),
            Action::PlotPoints => on_selected(&mut self.selection, ctx, |who| {
                Outcome::Open(Mode::PlotPoints(plot_points::State::open(who, ctx)))
            }),
            Action::AnarchyTest => on_selected(&mut self.selection, ctx, |who| {
                // A glitch die bought (Live Dangerously) must go with the test: the line
                // carries it, the pools typed before it.
                if ctx.state().narration().is_some_and(|n| n.has_glitch_die(who)) {
                    type_before(ctx, "atest", who, "glitchdie")
                } else {
                    type_for(ctx, "atest", who)
                }
            }),
            Action::Cooldown => on_selected(&mut self.selection, ctx, |who| type_for(ctx, "cooldown", who)),
            // Refused at the key with the engine's sentence (no test open to Edge, no Edge);
            // else the command line, for the table's dice (`dice A B`) or Enter to roll them.
            Action::EdgeAfter => on_selected(&mut self.selection, ctx, |who| {
                let probe = Command::Anarchy(AnarchyCommand::EdgeAfter { who, dice: None });
                match ctx.refusal(probe) {
                    Some(why) => Outcome::Fail(why),
                    None => type_line(ctx, "edge", who, "after "),
                }
            }),
            _ => Outcome::Stay,
        }
    }
}

/// The form that types in (or rolls) the selected character's initiative; refused at the key
/// with the engine's reason when no roll could be taken (mid-fight, a roll holds for the fight).
fn type_roll(id: CombatantId, ctx: &Ctx) -> Outcome {
    let target = roll_target(ctx.state(), id);
    if let Some(why) = ctx.refusal(Command::Roll {
        target,
        typed: None,
    }) {
        return Outcome::Fail(why);
    }
    // An initiative summed from d6s (Shadowrun 2097) is typed in as its dice.
    if ctx.state().system.sums_initiative_dice() {
        open_form(form::Purpose::InitiativeDice(target), ctx)
    } else {
        open_form(form::Purpose::Initiative(target), ctx)
    }
}

/// What a roll for this character rolls: its group when the group shares one roll.
pub fn roll_target(s: &Fight, id: CombatantId) -> RollTarget {
    match s
        .get(id)
        .and_then(|c| c.group)
        .and_then(|g| s.groups.get(g.0 as usize))
    {
        Some(g) if g.shared_roll => RollTarget::Group(g.id),
        _ => RollTarget::One(id),
    }
}

/// Why a key of the fight does nothing before it starts, in keys.
const NOT_STARTED: &str = "the fight has not started yet: roll (r), then start (s)";

/// Why an ended encounter takes no key but reading and undoing.
pub const ENDED: &str = "the encounter has ended: undo (u) to go back to it";

/// What to do with the selected combatant, or why there is none. A key that acts on the
/// selection keeps it on that character (see [`Selection::Kept`]).
fn on_selected(
    selection: &mut Selection,
    ctx: &Ctx,
    then: impl FnOnce(CombatantId) -> Outcome,
) -> Outcome {
    match ctx.selected {
        Some(id) => {
            *selection = selection.keep(id);
            then(id)
        }
        None => Outcome::Fail("nobody to choose: add combatants first (a)".into()),
    }
}

/// What to do with the marked characters (or the selected one), or why there is nobody. The
/// selection is kept as [`on_selected`] keeps it.
fn on_targets(
    selection: &mut Selection,
    ctx: &Ctx,
    then: impl FnOnce(Vec<CombatantId>) -> Outcome,
) -> Outcome {
    match ctx.targets() {
        who if who.is_empty() => Outcome::Fail("nobody to choose: add combatants first (a)".into()),
        who => {
            if let Some(id) = ctx.selected {
                *selection = selection.keep(id);
            }
            then(who)
        }
    }
}

/// What to do with the character whose turn it is, or why nobody has one.
fn on_actor(ctx: &Ctx, then: impl FnOnce(CombatantId) -> Outcome) -> Outcome {
    if let Some(id) = ctx.actor() {
        return then(id);
    }
    let why = match ctx.state().phase {
        Phase::Setup => NOT_STARTED,
        Phase::Ended { .. } => ENDED,
        Phase::Fight(_) => "nobody has a turn: everyone is Downed",
        Phase::Narration(_) => "an Anarchy table has narrations, not turns: narrate (n)",
    };
    Outcome::Fail(why.into())
}

/// The command line, with `VERB NAME ` typed for the GM to finish.
fn type_for(ctx: &Ctx, verb: &str, who: CombatantId) -> Outcome {
    type_line(ctx, verb, who, "")
}

/// The command line with `VERB NAME TAIL` typed.
fn type_line(ctx: &Ctx, verb: &str, who: CombatantId, tail: &str) -> Outcome {
    let name = crate::lang::quote(ctx.state().name(who));
    Outcome::Open(Mode::Command(command_line::State {
        input: tui_input::Input::new(format!("{verb} {name} {tail}")),
        note: None,
    }))
}

/// The command line with `VERB NAME  AFTER` typed, the cursor before `AFTER`.
fn type_before(ctx: &Ctx, verb: &str, who: CombatantId, after: &str) -> Outcome {
    let name = crate::lang::quote(ctx.state().name(who));
    let head = format!("{verb} {name} ");
    let at = head.chars().count();
    Outcome::Open(Mode::Command(command_line::State {
        input: tui_input::Input::new(format!("{head} {after}")).with_cursor(at),
        note: None,
    }))
}

/// A delay or ready the engine refuses before its values (the actor holds the other, is
/// Downed, has answered a trigger this turn) is refused at the key, with the command's own
/// sentence: the form would only lead to it. `probe` has no values; `unfilled` is the engine's
/// refusal of that, the first about the values: past every check of the character.
fn declarable(probe: Command, ctx: &Ctx, unfilled: fn(&RuleError) -> bool) -> Option<Outcome> {
    match ctx.enc.check(probe) {
        Err(e) if !unfilled(&e) => Some(Outcome::Fail(e.to_string())),
        _ => None,
    }
}

fn open_form(purpose: form::Purpose, ctx: &Ctx) -> Outcome {
    Outcome::Open(Mode::Form(form::State::open(purpose, ctx)))
}

/// Why `who` could take no interrupt now (Downed, no IP), asked of the engine; `None` if it can.
/// Too few IP for the cheapest interrupt bars every one of them, so that is the reason given
/// then, rather than the first interrupt's own (Block's "only against melee attacks").
fn interrupt_refusal(who: CombatantId, ctx: &Ctx) -> Option<String> {
    let mut first = None;
    let mut cheapest: Option<u8> = None;
    let mut short: Option<(u8, RuleError)> = None;
    for def in ctx.catalogue().actions() {
        let ActionKind::Interrupt { initiative } = def.kind else {
            continue;
        };
        if let Some(cost) = ctx.enc.rules().interrupt_ip(initiative) {
            cheapest = Some(cheapest.map_or(cost, |c| c.min(cost)));
        }
        let cmd = Command::SpendAction {
            who,
            action: ActionChoice::Named {
                name: def.name.clone(),
                as_type: None,
                mode: None,
            },
        };
        // One interrupt the engine allows: the character can interrupt.
        let why = ctx.refused(cmd)?;
        if let Some(need) = why.ip_short()
            && short.as_ref().is_none_or(|(n, _)| need < *n)
        {
            short = Some((need, why.clone()));
        }
        first.get_or_insert(why);
    }
    match short {
        Some((need, why)) if Some(need) == cheapest => Some(Ctx::said(why)),
        _ => first.map(Ctx::said),
    }
}

fn choose_interrupter(ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    let items: Vec<choose::Item> = ctx
        .roster
        .iter()
        .map(|&id| {
            choose::Item::new(s.name(id).to_string(), choose::Choice::InterruptBy(id))
                .named(s.name(id))
                .refused(interrupt_refusal(id, ctx))
        })
        .collect();
    // The list opens on the selected character, whoever it is: the GM aimed there already.
    let at = ctx
        .selected
        .and_then(|id| ctx.roster.iter().position(|x| *x == id));
    choose::offer_at(
        "Interrupt: who?".into(),
        items,
        at,
        "nobody to interrupt with: add combatants first (a)",
    )
}

/// Whether the selected character holds a delay whose trigger is not named yet.
fn selected_delay_unnamed(ctx: &Ctx) -> bool {
    ctx.selected
        .and_then(|id| ctx.state().get(id))
        .and_then(Combatant::delay)
        .is_some_and(|(_, trigger)| trigger.is_none())
}

/// The characters a delay may wait on, one line each, refused ones greyed with the reason.
pub fn delay_triggers(
    who: CombatantId,
    ctx: &Ctx,
    cmd: impl Fn(CombatantId) -> Command,
) -> Vec<choose::Item> {
    let s = ctx.state();
    ctx.roster
        .iter()
        .filter(|t| **t != who)
        .map(|&t| choose::Item::run(format!("after {}", s.name(t)), cmd(t), ctx).named(s.name(t)))
        .collect()
}

fn choose_delay_trigger(ctx: &Ctx) -> Outcome {
    let Some(who) = ctx.selected else {
        return Outcome::Stay;
    };
    let items = delay_triggers(who, ctx, |trigger| Command::NameDelayTrigger {
        who,
        trigger,
    });
    let name = ctx.state().name(who);
    choose::offer(
        format!("{name}'s delay: after whom?"),
        items,
        "nobody else to wait for",
    )
}

/// Every armed ready trigger, the selected character's first: one line for each way to fire it.
fn choose_fire(ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    let mut holders: Vec<CombatantId> = ctx.roster.clone();
    if let Some(sel) = ctx.selected
        && let Some(at) = holders.iter().position(|x| *x == sel)
    {
        holders.remove(at);
        holders.insert(0, sel);
    }
    let mut items = Vec::new();
    for who in holders {
        let Some(Reserve::Ready { triggers, .. }) = s.get(who).and_then(|c| c.reserve.as_ref())
        else {
            continue;
        };
        for (i, t) in triggers.iter().enumerate() {
            for timing in [Timing::Before, Timing::After] {
                let label = format!(
                    "{}: when {} — {} the trigger",
                    s.name(who),
                    t.text,
                    timing.word()
                );
                let cmd = Command::FireReady {
                    who,
                    trigger: i,
                    timing,
                };
                // A ready that fires an attack action goes on to its attack chain (SR5).
                let attacks = t.actions.iter().any(|a| {
                    a.name
                        .as_deref()
                        .is_some_and(|n| ctx.enc.rules().sr5.attack_action(n).is_some())
                });
                let item = if attacks {
                    choose::Item::attack(label, cmd, ctx)
                } else {
                    choose::Item::run(label, cmd, ctx)
                };
                items.push(item.named(s.name(who)));
            }
        }
    }
    choose::offer(
        "Fire a ready".into(),
        items,
        "nobody holds an armed ready trigger",
    )
}

/// The places `who` could move to, one line each: before the first, between two neighbours,
/// after the last. Between two, the command is the one the engine says keeps the skipped turn
/// (after the one before if it is still to act, else before the next one).
fn choose_move(who: CombatantId, ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    let order: Vec<CombatantId> = s.ordered().map(|c| c.id).collect();
    let Some(at) = order.iter().position(|x| *x == who) else {
        return Outcome::Fail(format!("{} is not in the initiative order", s.name(who)));
    };
    let others: Vec<CombatantId> = order.iter().copied().filter(|x| *x != who).collect();
    let mut items = Vec::new();
    for gap in 0..=others.len() {
        // The gap `who` stands in now is no move.
        if gap == at {
            continue;
        }
        let before = gap.checked_sub(1).map(|i| others[i]);
        let after = others.get(gap).copied();
        let mut options = Vec::new();
        if let Some(a) = before {
            options.push(Command::ChangeInitiative {
                who,
                relative: Relative::After,
                target: a,
            });
        }
        if let Some(b) = after {
            options.push(Command::ChangeInitiative {
                who,
                relative: Relative::Before,
                target: b,
            });
        }
        let previews: Vec<(Command, Result<Vec<Event>, String>)> = options
            .into_iter()
            .map(|c| (c.clone(), ctx.preview(c)))
            .collect();
        let keeps = |r: &Result<Vec<Event>, String>| {
            r.as_ref().is_ok_and(|evs| {
                evs.iter().any(|e| {
                    matches!(
                        e,
                        Event::TurnDeferred { .. }
                            | Event::InitiativeChanged {
                                skipped: Skipped::Deferred,
                                ..
                            }
                    )
                })
            })
        };
        let pick = previews
            .iter()
            .find(|(_, r)| keeps(r))
            .or_else(|| previews.iter().find(|(_, r)| r.is_ok()))
            .or_else(|| previews.first());
        let Some((cmd, result)) = pick.cloned() else {
            continue;
        };
        let place = match (before, after) {
            (Some(a), Some(b)) => format!("after {} (before {})", s.name(a), s.name(b)),
            (Some(a), None) => format!("after {}, last", s.name(a)),
            (None, Some(b)) => format!("first, before {}", s.name(b)),
            (None, None) => continue,
        };
        let kept = keeps(&result);
        // One who joined this pass has no turn left in it: the turn comes at the pass's end.
        let joined = matches!(&cmd, Command::ChangeInitiative { target, .. }
            if s.joined_this_pass(*target));
        let (label, refusal) = match result {
            Ok(_) if kept && joined => (
                format!("{place}: the turn is taken at the pass's end"),
                None,
            ),
            Ok(_) if kept => (format!("{place}: the turn is taken there"), None),
            Ok(_) => (format!("{place}: the turn is lost this pass"), None),
            Err(why) => (place, Some(why)),
        };
        let key = before.or(after).map_or("", |id| s.name(id));
        items.push(
            choose::Item::new(label, choose::Choice::Run(cmd))
                .named(key)
                .refused(refusal),
        );
    }
    let name = s.name(who);
    choose::offer(
        format!("Move {name} in the order"),
        items,
        "nobody else in the order",
    )
}

fn choose_clear(who: &[CombatantId], ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    // Every status any of them holds, once, cleared from each one holding it.
    let mut names: Vec<String> = Vec::new();
    for c in who.iter().filter_map(|id| s.get(*id)) {
        for st in &c.statuses {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(&st.name)) {
                names.push(st.name.clone());
            }
        }
    }
    let items = names
        .into_iter()
        .map(|name| {
            let holders: Vec<CombatantId> = who
                .iter()
                .copied()
                .filter(|id| s.get(*id).is_some_and(|c| c.status(&name).is_some()))
                .collect();
            let label = if who.len() > 1 {
                let held: Vec<&str> = holders.iter().map(|id| s.name(*id)).collect();
                format!("{name} ({})", held.join(", "))
            } else {
                name.clone()
            };
            let cmd = Command::aimed(holders, Each::ClearStatus { name: name.clone() });
            choose::Item::run(label, cmd, ctx).named(&name)
        })
        .collect();
    let whom = names_of(who, s);
    choose::offer(
        format!("Clear a status of {whom}"),
        items,
        &format!("{whom}: no status to clear"),
    )
}

/// Shadowrun 2097's uses of Edge for a character, each greyed out with the engine's reason.
fn choose_edge_2097(who: CombatantId, ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    let edge = |edge| Command::Sr2097(Sr2097Command::Edge { who, edge });
    let mut items = vec![choose::Item::run(
        "boost initiative: +2d6 for the next turn".into(),
        edge(EdgeCommand::Boost { dice: None }),
        ctx,
    )];
    let injuries = s
        .sr2097
        .as_ref()
        .map(|x| x.sheet(who).injuries.clone())
        .unwrap_or_default();
    let dying = s
        .sr2097
        .as_ref()
        .and_then(|x| x.sheet(who).dying_of(ctx.enc.rules().sr2097.edge.burn_at));
    for (i, inj) in injuries.iter().enumerate() {
        items.push(choose::Item::run(
            format!(
                "lessen injury {}: {} ({} damage), one step down",
                i + 1,
                inj.severity.word(),
                inj.damage
            ),
            edge(EdgeCommand::Lessen {
                injury: Some(i + 1),
            }),
            ctx,
        ));
    }
    if injuries.is_empty() {
        // Shown refused, with the engine's reason, as every use it refuses.
        items.push(choose::Item::run(
            "lessen injury: one step down".into(),
            edge(EdgeCommand::Lessen { injury: None }),
            ctx,
        ));
    }
    items.extend([
        choose::Item::run(
            // The injury a burn saves (the latest the character is dying of), named as the log
            // will name it.
            match dying {
                Some(at) => format!("burn Edge: survive injury {}", at + 1),
                None => "burn Edge: survive a life-threatening injury".into(),
            },
            edge(EdgeCommand::Burn { injury: None }),
            ctx,
        ),
        choose::Item::run("award 1 Edge".into(), edge(EdgeCommand::Award(1)), ctx),
        choose::Item::run("long rest: +1 Edge".into(), edge(EdgeCommand::Rest), ctx),
        choose::Item::run(
            "between scenarios: all Edge back".into(),
            edge(EdgeCommand::Scenario),
            ctx,
        ),
    ]);
    let name = s.get(who).map_or_else(String::new, |c| {
        format!(
            "{}: {}",
            crate::ui::view::cut(&c.name, crate::ui::view::MENU_NAME_CELLS),
            crate::report::sr2097::edge_text(s, c)
        )
    });
    // The GM nearly always spends on what just happened: the menu opens on the injury the
    // character is dying of, else the latest (injury N is line N, after the boost), when it can
    // be lessened; else on the first line that can be taken.
    let at = dying
        .map(|d| d + 1)
        .or((!injuries.is_empty()).then_some(injuries.len()))
        .filter(|&i| items.get(i).is_some_and(|it| it.refusal.is_none()));
    choose::offer_at(format!("Edge of {name}"), items, at, "no Edge to use")
}

/// Names for a title: "Ana", or "3 marked: Ana, Jinx, Rook".
pub fn names_of(who: &[CombatantId], s: &Fight) -> String {
    let names: Vec<&str> = who.iter().map(|id| s.name(*id)).collect();
    match names.as_slice() {
        [one] => (*one).to_string(),
        many => format!("{} marked: {}", many.len(), many.join(", ")),
    }
}
