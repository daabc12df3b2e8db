//! Walking the order: ending turns, delays' sub-turns, passes and rounds.

use super::{Draft, Outcome};
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, Release, StatusEnded};
use crate::encounter::model::{
    Combatant, CombatantId, PassMark, Reserve, StatusEnd, Turn, TurnKind,
};

impl Draft<'_> {
    pub(super) fn next(&mut self) -> Outcome {
        let fight = self.fight()?;
        if !self.now().anyone_can_act() {
            return Err(RuleError::NoOneCanAct);
        }
        let anchor = fight.turn.map(|t| self.end_turn(t));
        self.advance(anchor);
        Ok(())
    }

    /// Ends the turn in progress; returns whose turn's end may trigger delays.
    fn end_turn(&mut self, turn: Turn) -> CombatantId {
        self.expire_turn_statuses(turn.serial);
        self.emit(Event::TurnEnded { who: turn.who });
        match turn.kind {
            TurnKind::Delayed { trigger } => {
                if let Some(c) = self.now().get(turn.who).cloned() {
                    self.release(&c, Release::SubTurnEnded);
                }
                trigger
            }
            TurnKind::Own | TurnKind::Resumed => turn.who,
        }
    }

    /// Walks to the next turn: delays triggered by `anchor`'s turn end, then the next in the
    /// order, through pass and round ends. Stops with no turn if nobody can act.
    pub(super) fn advance(&mut self, mut anchor: Option<CombatantId>) {
        loop {
            if let Some(a) = anchor {
                let state = self.now();
                let delayer = state.ordered().find(|c| {
                    !c.is_downed() && matches!(c.reserve, Some(Reserve::Delay { trigger: Some(t), .. }) if t == a)
                });
                if let Some(d) = delayer.map(|c| c.id) {
                    self.emit(Event::DelayTurnStarted { who: d, trigger: a });
                    return;
                }
                anchor = None;
            }
            if !self.now().anyone_can_act() {
                return;
            }
            let state = self.now();
            let awaited = |id: CombatantId| {
                state.present().any(|c| {
                    matches!(c.reserve, Some(Reserve::Delay { trigger: Some(t), .. }) if t == id)
                })
            };
            let next = state
                .order
                .iter()
                .filter_map(|id| state.get(*id))
                .find(|c| c.mark.still_to_act() && (c.is_present() || awaited(c.id)))
                .cloned();
            // A boost of initiative (SR 2097) may put someone else still to act ahead of it.
            let next = match next {
                Some(c) if c.mark == PassMark::Waiting && c.is_present() && !c.is_downed() => {
                    Self::boosted_ahead(state, &c)
                        .and_then(|id| state.get(id))
                        .cloned()
                        .or(Some(c))
                }
                other => other,
            };
            match next {
                Some(c) if !c.is_present() || c.is_downed() => {
                    self.emit(Event::TurnSkipped { who: c.id });
                    anchor = Some(c.id);
                }
                Some(c) if c.mark == PassMark::Deferred => {
                    self.emit(Event::TurnResumed { who: c.id });
                    return;
                }
                Some(c) => {
                    if matches!(c.reserve, Some(Reserve::Ready { .. })) {
                        self.release(&c, Release::NextTurn);
                    }
                    self.emit(Event::TurnStarted {
                        who: c.id,
                        ip_gained: self.rules.ip_per_turn,
                    });
                    return;
                }
                None => self.end_pass(),
            }
        }
    }

    fn end_pass(&mut self) {
        let Ok(fight) = self.fight() else { return };
        // A delay whose trigger never came lapses with the pass.
        let lapsed: Vec<Combatant> = self
            .now()
            .present()
            .filter(|c| matches!(c.reserve, Some(Reserve::Delay { .. })))
            .cloned()
            .collect();
        for c in &lapsed {
            self.release(c, Release::PassEnded);
        }
        if fight.pass < self.rules.passes_per_round {
            self.emit(Event::PassStarted {
                pass: fight.pass + 1,
            });
            return;
        }
        let state = self.now();
        let mut ended = Vec::new();
        let mut reserved = Vec::new();
        for c in state.present() {
            for s in c.statuses.iter().filter(|s| s.end == StatusEnd::EndOfRound) {
                ended.push((c.id, s.name.clone()));
            }
            if c.reserve.is_some() {
                reserved.push(c.id);
            }
        }
        for (who, name) in ended {
            self.emit(Event::StatusEnded {
                who,
                name,
                why: StatusEnded::RoundEnded,
            });
        }
        // Reserved IP are lost with the pool when the round ends.
        for who in reserved {
            self.emit(Event::ReserveReleased {
                who,
                returned: 0,
                why: Release::RoundEnded,
            });
        }
        self.emit(Event::RoundStarted {
            round: fight.round + 1,
        });
    }
}
