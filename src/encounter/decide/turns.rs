//! Walking the order: ending turns, delays' sub-turns, passes and rounds.

use super::{Draft, Outcome};
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, Release, StatusEnded};
use crate::encounter::model::{
    Combatant, CombatantId, PassMark, Relative, Reserve, State, StatusEnd, Turn, TurnKind, Waiting,
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
    pub(super) fn end_turn(&mut self, turn: Turn) -> CombatantId {
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

    /// Walks to the next turn: delays and skipped turns waiting on `anchor`'s turn end, then
    /// the next in the order, through pass and round ends. Stops with no turn if nobody can act.
    /// Other families call it when a turn ends their way (removed, Downed, initiative changed).
    pub(super) fn advance(&mut self, mut anchor: Option<CombatantId>) {
        // Skipped turns placed on this walk: taken next, even when a boosted turn (SR 2097)
        // jumped ahead of someone earlier in the order.
        let mut placed: Vec<CombatantId> = Vec::new();
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
                // The sub-turns were part of `a`'s turn; now those waiting for its end move.
                placed.extend(self.take_places(a, Relative::After));
                anchor = None;
            }
            if !self.now().anyone_can_act() {
                return;
            }
            let state = self.now();
            // A skipped turn just placed comes first; one still waiting is not taken at its old
            // place.
            let in_order = || state.order.iter().filter_map(|id| state.get(*id));
            let next = in_order()
                .find(|c| {
                    placed.contains(&c.id)
                        && matches!(c.mark, PassMark::Deferred { .. })
                        && c.waits.is_none()
                })
                .or_else(|| {
                    in_order().find(|c| {
                        c.mark.still_to_act()
                            && c.waits.is_none()
                            && (c.is_present() || awaited(state, c.id))
                    })
                })
                .cloned();
            // A boost of initiative (SR 2097) may put someone else still to act ahead of it; a
            // tie it won is told as its turn starts.
            let (next, tie) = match next {
                Some(c) if c.mark == PassMark::Waiting && c.is_present() && !c.is_downed() => {
                    match Self::boosted_ahead(state, &c)
                        .and_then(|(id, tie)| Some((state.get(id)?.clone(), tie)))
                    {
                        Some((boosted, tie)) => (Some(boosted), tie),
                        None => (Some(c), None),
                    }
                }
                other => (other, None),
            };
            // Those waiting for this turn's start go first, at their new place before it.
            if let Some(c) = &next {
                let moved = self.take_places(c.id, Relative::Before);
                if !moved.is_empty() {
                    placed.extend(moved);
                    continue;
                }
            }
            match next {
                Some(c) if !c.is_present() || c.is_downed() => {
                    self.emit(Event::TurnSkipped { who: c.id });
                    // A skipped turn never taken ends here, and what ends with it.
                    if let PassMark::Deferred { turn } = c.mark {
                        self.expire_turn_statuses(turn);
                    }
                    anchor = Some(c.id);
                }
                Some(c) if matches!(c.mark, PassMark::Deferred { .. }) => {
                    self.emit(Event::TurnResumed { who: c.id });
                    return;
                }
                Some(c) => {
                    if let Some(tie) = tie {
                        self.emit(Event::Sr2097(tie));
                    }
                    self.lapse_ready(&c);
                    self.emit(Event::TurnStarted {
                        who: c.id,
                        ip_gained: self.rules.ip_per_turn,
                    });
                    return;
                }
                // A skipped turn whose chosen character has no turn left in the pass is taken
                // at the pass's end rather than lost.
                None => {
                    let moved = self.take_all_places();
                    if moved.is_empty() {
                        self.end_pass();
                    }
                    placed.extend(moved);
                }
            }
        }
    }

    /// Skipped turns waiting for `target`'s turn to start (`Before`) or end (`After`) take
    /// their new place; they come next. Those that did.
    fn take_places(&mut self, target: CombatantId, relative: Relative) -> Vec<CombatantId> {
        self.take_places_where(|w| w.target == target && w.relative == relative)
    }

    fn take_all_places(&mut self) -> Vec<CombatantId> {
        self.take_places_where(|_| true)
    }

    /// The waiting skipped turns `pick` chooses move to their new places, first declared first.
    /// One whose holder has left moves too when someone waits on it: its slot passes there.
    fn take_places_where(&mut self, pick: impl Fn(&Waiting) -> bool) -> Vec<CombatantId> {
        let state = self.now();
        let mut waiting: Vec<(u64, CombatantId, Waiting)> = state
            .all()
            .filter(|c| c.is_present() || awaited(state, c.id))
            .filter_map(|c| c.waits.filter(&pick).map(|w| (w.since, c.id, w)))
            .collect();
        waiting.sort_unstable_by_key(|(since, who, _)| (*since, *who));
        for (_, who, w) in &waiting {
            self.emit(Event::PlaceChanged {
                who: *who,
                relative: w.relative,
                target: w.target,
            });
        }
        waiting.into_iter().map(|(_, who, _)| who).collect()
    }

    /// At the start of the holder's next turn unfired readies lapse: the IP go back to the pool,
    /// unless a new round began since, when they were lost with the old round's pool.
    fn lapse_ready(&mut self, c: &Combatant) {
        let Some(reserve @ Reserve::Ready { ip, .. }) = &c.reserve else {
            return;
        };
        let (returned, why) = if self.of_an_earlier_round(reserve) {
            (0, Release::NextTurnNewRound)
        } else {
            (*ip, Release::NextTurn)
        };
        self.emit(Event::ReserveReleased {
            who: c.id,
            returned,
            why,
        });
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
        for c in state.present() {
            for s in c.statuses.iter().filter(|s| s.end == StatusEnd::EndOfRound) {
                ended.push((c.id, s.name.clone()));
            }
        }
        for (who, name) in ended {
            self.emit(Event::StatusEnded {
                who,
                name,
                why: StatusEnded::RoundEnded,
            });
        }
        // Delays lapsed with the pass; a ready outlives the round until its holder's next turn.
        self.emit(Event::RoundStarted {
            round: fight.round + 1,
        });
    }
}

/// Whether a present character waits on `id`'s turn (a delay it triggers, a skipped turn to be
/// taken at it), directly or through those who left while their own skipped turns waited: a
/// removed character's slot still passes then, so that the waits on it come there.
fn awaited(state: &State, id: CombatantId) -> bool {
    let mut targets = vec![id];
    let mut i = 0;
    while let Some(&target) = targets.get(i) {
        for c in state.all() {
            let waits_on = c.waits.is_some_and(|w| w.target == target);
            if c.is_present() {
                let delays_on = matches!(
                    c.reserve,
                    Some(Reserve::Delay { trigger: Some(t), .. }) if t == target
                );
                if waits_on || delays_on {
                    return true;
                }
            } else if waits_on && !targets.contains(&c.id) {
                targets.push(c.id);
            }
        }
        i += 1;
    }
    false
}
