//! The tracker: no popup, the panes have the keys. Its state (focus, selection, log scroll)
//! outlives every popup, so `App` keeps it beside the mode; the panes in `view/` draw it.

use super::{
    Ctx, Mode, Outcome, check_form, choose, command_line, damage_form, form, picker, step,
    test_form,
};
use crate::encounter::system::sr2097::{EdgeCommand, Sr2097Command};
use crate::encounter::{
    ActionChoice, Combatant, CombatantId, Command, Phase, Relative, Reserve, RollTarget, Timing,
};
use crate::ui::action::Action;

/// Which pane j/k and PgUp/PgDn move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pane {
    #[default]
    Order,
    Log,
}

#[derive(Debug, Clone, Default)]
pub struct State {
    pub focus: Pane,
    /// Index into the roster (`App::roster`).
    pub selected: usize,
    /// Lines scrolled back from the bottom of the log.
    pub log_scroll: usize,
}

impl State {
    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Up | Action::Down => {
                match self.focus {
                    Pane::Order => self.selected = step(self.selected, ctx.roster.len(), action),
                    // Up goes back in the log: further from its bottom.
                    Pane::Log if action == Action::Up => self.log_scroll += 1,
                    Pane::Log => self.log_scroll = self.log_scroll.saturating_sub(1),
                }
                Outcome::Stay
            }
            Action::PageUp => {
                self.log_scroll += 10;
                Outcome::Stay
            }
            Action::PageDown => {
                self.log_scroll = self.log_scroll.saturating_sub(10);
                Outcome::Stay
            }
            Action::FocusNext => {
                self.focus = match self.focus {
                    Pane::Order => Pane::Log,
                    Pane::Log => Pane::Order,
                };
                Outcome::Stay
            }
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
            Action::Next => Outcome::run(Command::Next),
            Action::End => Outcome::run(Command::End),
            Action::Add => open_form(form::Purpose::Add, ctx),
            Action::Edit => on_selected(ctx, |id| open_form(form::Purpose::Edit(id), ctx)),
            // A 2097 initiative is typed in as its dice.
            Action::TypeRoll if ctx.state().sr2097.is_some() => {
                on_selected(ctx, |id| open_form(form::Purpose::TypedDice(id), ctx))
            }
            Action::TypeRoll => on_selected(ctx, |id| open_form(form::Purpose::TypedRoll(id), ctx)),
            Action::Check => on_selected(ctx, |id| {
                Outcome::Open(Mode::CheckForm(check_form::State::open(id, ctx)))
            }),
            Action::DamageRoll => on_selected(ctx, |id| {
                Outcome::Open(Mode::DamageForm(damage_form::State::open(id, ctx)))
            }),
            Action::EdgeMenu => on_selected(ctx, |id| choose_edge_2097(id, ctx)),
            Action::Damage => on_selected(ctx, |id| open_form(form::Purpose::Damage(id), ctx)),
            Action::Heal => on_selected(ctx, |id| open_form(form::Purpose::Heal(id), ctx)),
            Action::AddStatus => on_selected(ctx, |id| open_form(form::Purpose::Status(id), ctx)),
            Action::Test => on_selected(ctx, |id| test_form::State::test(id, ctx)),
            Action::AttackStep => test_form::State::pending_step(ctx).map_or_else(
                || {
                    Outcome::Fail(
                        "no attack waits for its next step: spend an attack action (Enter) to start one"
                            .into(),
                    )
                },
                Outcome::Open,
            ),
            Action::Delay if selected_delay_unnamed(ctx) => choose_delay_trigger(ctx),
            Action::Delay => on_actor(ctx, |id| open_form(form::Purpose::Delay(id), ctx)),
            Action::Ready => on_actor(ctx, |id| open_form(form::Purpose::Ready(id), ctx)),
            Action::Remove => on_selected(ctx, |who| {
                Outcome::run(Command::Remove { who, reason: None })
            }),
            Action::Edge => on_selected(ctx, |who| Outcome::run(Command::UseEdge { who })),
            Action::ToggleDowned => on_selected(ctx, |who| {
                let downed = !ctx.state().get(who).is_some_and(Combatant::is_downed);
                Outcome::run(Command::SetDowned { who, downed })
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
            Action::Fire => on_selected(ctx, |who| choose_fire(who, ctx)),
            Action::Move => on_selected(ctx, |who| choose_move(who, ctx)),
            Action::ClearStatus => on_selected(ctx, |who| choose_clear(who, ctx)),
            _ => Outcome::Stay,
        }
    }
}

/// What to do with the selected combatant, or why there is none.
fn on_selected(ctx: &Ctx, then: impl FnOnce(CombatantId) -> Outcome) -> Outcome {
    match ctx.selected {
        Some(id) => then(id),
        None => Outcome::Fail("nobody to choose: add combatants first (a)".into()),
    }
}

/// What to do with the character whose turn it is, or why nobody has one.
fn on_actor(ctx: &Ctx, then: impl FnOnce(CombatantId) -> Outcome) -> Outcome {
    if let Some(id) = ctx.actor() {
        return then(id);
    }
    let why = match ctx.state().phase {
        Phase::Setup => "the fight has not started yet: roll (r), then start (s)",
        Phase::Ended { .. } => "the encounter has ended: undo (u) to go back to it",
        Phase::Fight(_) => "nobody has a turn: everyone is Downed",
    };
    Outcome::Fail(why.into())
}

fn open_form(purpose: form::Purpose, ctx: &Ctx) -> Outcome {
    Outcome::Open(Mode::Form(form::State::open(purpose, ctx)))
}

fn choose_interrupter(ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    let items = ctx
        .roster
        .iter()
        .map(|&id| choose::Item {
            label: s.name(id).to_string(),
            choice: choose::Choice::InterruptBy(id),
            refusal: None,
        })
        .collect();
    choose::offer(
        "Interrupt: who?".into(),
        items,
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

fn choose_delay_trigger(ctx: &Ctx) -> Outcome {
    let Some(who) = ctx.selected else {
        return Outcome::Stay;
    };
    let s = ctx.state();
    let items = ctx
        .roster
        .iter()
        .filter(|t| **t != who)
        .map(|&trigger| {
            choose::Item::run(
                format!("after {}", s.name(trigger)),
                Command::NameDelayTrigger { who, trigger },
                ctx,
            )
        })
        .collect();
    let name = s.name(who);
    choose::offer(
        format!("{name}'s delay: after whom?"),
        items,
        "nobody else to wait for",
    )
}

fn choose_fire(who: CombatantId, ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    let mut items = Vec::new();
    if let Some(Reserve::Ready { triggers, .. }) = s.get(who).and_then(|c| c.reserve.as_ref()) {
        for (i, t) in triggers.iter().enumerate() {
            for timing in [Timing::Before, Timing::After] {
                let label = format!("{} the trigger: when {}", timing.word(), t.text);
                items.push(choose::Item::run(
                    label,
                    Command::FireReady {
                        who,
                        trigger: i,
                        timing,
                    },
                    ctx,
                ));
            }
        }
    }
    let name = s.name(who);
    choose::offer(
        format!("Fire {name}'s ready"),
        items,
        &format!("{name} has no armed ready trigger"),
    )
}

fn choose_move(who: CombatantId, ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    let mut items = Vec::new();
    for &target in &ctx.roster {
        if target == who {
            continue;
        }
        for relative in [Relative::Before, Relative::After] {
            let label = format!("{} {}", relative.word(), s.name(target));
            items.push(choose::Item::run(
                label,
                Command::ChangeInitiative {
                    who,
                    relative,
                    target,
                },
                ctx,
            ));
        }
    }
    let name = s.name(who);
    choose::offer(
        format!("Move {name} in the order"),
        items,
        "nobody else in the order",
    )
}

fn choose_clear(who: CombatantId, ctx: &Ctx) -> Outcome {
    let s = ctx.state();
    let items = s
        .get(who)
        .map(|c| {
            c.statuses
                .iter()
                .map(|st| {
                    let name = st.name.clone();
                    choose::Item::run(name.clone(), Command::ClearStatus { who, name }, ctx)
                })
                .collect()
        })
        .unwrap_or_default();
    let name = s.name(who);
    choose::offer(
        format!("Clear a status of {name}"),
        items,
        &format!("{name} has no status to clear"),
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
    items.extend([
        choose::Item::run(
            "burn Edge: survive a life-threatening injury".into(),
            edge(EdgeCommand::Burn),
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
        format!("{}: {}", c.name, crate::report::sr2097::edge_text(s, c))
    });
    choose::offer(format!("Edge of {name}"), items, "no Edge to use")
}
