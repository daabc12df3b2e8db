//! Initiative: rolling or typing in the tests, ordering at the start, slotting in who joins later.

use super::{Draft, Outcome};
use crate::encounter::command::RollTarget;
use crate::encounter::error::RuleError;
use crate::encounter::event::Event;
use crate::encounter::model::{Combatant, CombatantId, Phase, Side, State, Unit};
use crate::rules::Dice;
use crate::rules::initiative::{self, InitiativeRoll, OrderKey};

impl Draft<'_> {
    /// The units a roll target covers: groups sharing a roll are one unit.
    fn roll_units(&mut self, target: RollTarget, in_fight: bool) -> Result<Vec<Unit>, RuleError> {
        let state = self.now();
        let unit_of = |c: &Combatant| match c.group.and_then(|g| state.groups.get(g.0 as usize)) {
            Some(g) if g.shared_roll => Unit::Group(g.id),
            _ => Unit::One(c.id),
        };
        let mut units: Vec<Unit> = Vec::new();
        // A roll named outright may be rolled again before the fight; one rolled for everyone
        // never replaces a roll already made (a player's roll typed in from the table above all).
        let pick = |c: &Combatant| !in_fight || c.initiative.is_none();
        match target {
            RollTarget::All | RollTarget::Npcs => {
                let mut wanted = 0;
                for c in state.present() {
                    if target == RollTarget::All || c.side == Side::Npc {
                        wanted += 1;
                        let u = unit_of(c);
                        if c.initiative.is_none() && !units.contains(&u) {
                            units.push(u);
                        }
                    }
                }
                if units.is_empty() {
                    return Err(RuleError::NothingToRoll(match (wanted, in_fight) {
                        (0, _) if target == RollTarget::Npcs => "there are no NPCs",
                        (0, _) => "add combatants first",
                        (_, true) => {
                            "everyone has initiative already; it holds for the whole fight"
                        }
                        (_, false) => {
                            "everyone has a roll already: `roll NAME` rolls one again before the fight starts"
                        }
                    }));
                }
            }
            RollTarget::One(id) => {
                let c = state.get(id).ok_or(RuleError::UnknownCombatant(id.0))?;
                if !c.is_present() {
                    return Err(RuleError::Removed {
                        who: c.name.clone(),
                    });
                }
                if let Unit::Group(g) = unit_of(c) {
                    return Err(RuleError::SharesGroupRoll {
                        who: c.name.clone(),
                        group: state.groups[g.0 as usize].name.clone(),
                    });
                }
                if !pick(c) {
                    return Err(RuleError::AlreadyRolled {
                        names: vec![c.name.clone()],
                    });
                }
                units.push(Unit::One(id));
            }
            RollTarget::Group(g) => {
                let group = state
                    .groups
                    .get(g.0 as usize)
                    .ok_or(RuleError::UnknownCombatant(g.0))?;
                let members: Vec<&Combatant> = group
                    .members
                    .iter()
                    .filter_map(|id| state.get(*id))
                    .filter(|c| c.is_present())
                    .collect();
                let rolled: Vec<String> = members
                    .iter()
                    .filter(|c| !pick(c))
                    .map(|c| c.name.clone())
                    .collect();
                if !rolled.is_empty() {
                    return Err(RuleError::AlreadyRolled { names: rolled });
                }
                if members.is_empty() {
                    return Err(RuleError::NothingToRoll(
                        "every member of the group is gone",
                    ));
                }
                if group.shared_roll {
                    units.push(Unit::Group(g));
                } else {
                    units.extend(members.iter().map(|c| Unit::One(c.id)));
                }
            }
        }
        Ok(units)
    }

    pub(super) fn members(state: &State, unit: Unit) -> Vec<CombatantId> {
        match unit {
            Unit::One(id) => vec![id],
            Unit::Group(g) => state
                .groups
                .get(g.0 as usize)
                .map(|g| {
                    g.members
                        .iter()
                        .copied()
                        .filter(|id| state.get(*id).is_some_and(Combatant::is_present))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    pub(super) fn roll(
        &mut self,
        target: RollTarget,
        typed: Option<(i32, bool)>,
        dice: &mut dyn Dice,
    ) -> Outcome {
        // A 2097 encounter rolls a sum of d6s.
        let summed = self.now().system.sums_initiative_dice();
        if summed && typed.is_some() {
            return Err(crate::rules::sr2097::Sr2097Error::HitsIn2097 {
                die: self.rules.sr2097.initiative.die,
            }
            .into());
        }
        self.roll_each(
            target,
            typed.is_some(),
            dice,
            |draft, c, dice| match typed {
                // Hits typed in are the table's own roll, on the pool srtrack would roll: the
                // wounds off, so the tie steps see the pool rolled, whoever rolled it.
                Some((hits, glitched)) => draft.typed_roll(c, hits, glitched),
                None if summed => Ok(Self::summed_roll(&draft.rules.sr2097, &c.sheet, dice)),
                None => Ok(InitiativeRoll::rolled(
                    c.initiative_pool(draft.rules),
                    &draft.rules.dice,
                    dice,
                )),
            },
        )
    }

    /// One initiative per unit of the target, made by `make` from the unit's first member (rolled or
    /// typed in; `one`: a typed roll is for one unit), slotting in whoever joins mid-fight.
    pub(super) fn roll_each(
        &mut self,
        target: RollTarget,
        one: bool,
        dice: &mut dyn Dice,
        mut make: impl FnMut(&Self, &Combatant, &mut dyn Dice) -> Result<InitiativeRoll, RuleError>,
    ) -> Outcome {
        let in_fight = match &self.now().phase {
            Phase::Setup => false,
            Phase::Fight(_) => true,
            // The gate keeps initiative rolls out of a narration game.
            Phase::Narration(_) => return Err(RuleError::NotStarted),
            Phase::Ended { .. } => return Err(RuleError::Ended),
        };
        let units = self.roll_units(target, in_fight)?;
        if one && units.len() != 1 {
            return Err(RuleError::TypedNeedsOne);
        }
        for unit in units {
            let members = Self::members(self.now(), unit);
            let Some(first) = members.first().and_then(|id| self.now().get(*id)).cloned() else {
                continue;
            };
            let roll = make(self, &first, dice)?;
            self.emit(Event::InitiativeRolled {
                who: members.clone(),
                roll,
            });
            if in_fight {
                self.slot(unit, &members, dice);
            }
        }
        Ok(())
    }

    fn typed_roll(
        &self,
        c: &Combatant,
        hits: i32,
        glitched: bool,
    ) -> Result<InitiativeRoll, RuleError> {
        let (base, pool) = (c.sheet.pool(), c.initiative_pool(self.rules));
        if hits > i32::from(pool) && pool < base {
            return Err(RuleError::HitsAboveWoundedPool {
                who: c.name.clone(),
                hits,
                pool,
                base,
            });
        }
        if hits < 0 || hits > i32::from(pool) {
            return Err(RuleError::HitsAbovePool { hits, pool });
        }
        if glitched {
            // The fewest ones that glitch: more than num/den of the dice.
            let d = &self.rules.dice;
            let min_ones = usize::from(pool) * usize::from(d.glitch_more_than_num)
                / usize::from(d.glitch_more_than_den)
                + 1;
            if pool == 0 || hits as usize + min_ones > usize::from(pool) {
                return Err(RuleError::GlitchImpossible { hits, pool });
            }
        }
        Ok(InitiativeRoll::typed(pool, hits as u8, glitched))
    }

    /// A combatant who joins mid-fight takes its place by the same rules.
    fn slot(&mut self, unit: Unit, members: &[CombatantId], dice: &mut dyn Dice) {
        let sides = self.rules.dice.sides;
        let state = self.now();
        let Some(key) = members
            .first()
            .and_then(|id| state.get(*id))
            .and_then(|c| state.order_key(c))
        else {
            return;
        };
        // The entrants as the tie steps saw them: a group sharing a roll is one (at its first
        // member's place), and whoever changed initiative stands where it chose, not by its
        // score, so the newcomer is not compared with it.
        let mut existing: Vec<(Unit, OrderKey, CombatantId)> = Vec::new();
        for c in state.ordered().filter(|c| c.moved.is_none()) {
            let Some(k) = state.order_key(c) else {
                continue;
            };
            let u = state.unit_of(c);
            if !existing.iter().any(|(x, _, _)| *x == u) {
                existing.push((u, k, c.id));
            }
        }
        let keys: Vec<(Unit, OrderKey)> = existing.iter().map(|(u, k, _)| (*u, *k)).collect();
        let (index, rolloffs) = initiative::slot(key, unit, &keys, sides, dice);
        let at = match existing.get(index) {
            Some((_, _, id)) => state.position(*id).unwrap_or(state.order.len()),
            None => state.order.len(),
        };
        // The slot has gone by if anyone after it has had, or is having, its turn this pass.
        let slot_passed = state.order[at..]
            .iter()
            .filter_map(|id| state.get(*id))
            .any(|c| !c.mark.still_to_act());
        self.emit(Event::Slotted {
            who: members.to_vec(),
            at,
            rolloffs,
            slot_passed,
        });
    }

    pub(super) fn start(&mut self, dice: &mut dyn Dice) -> Outcome {
        if !matches!(self.now().phase, Phase::Setup) {
            return Err(RuleError::AlreadyStarted);
        }
        let sides = self.rules.dice.sides;
        let state = self.now();
        if state.present().next().is_none() {
            return Err(RuleError::NoCombatants);
        }
        let missing: Vec<String> = state
            .present()
            .filter(|c| c.initiative.is_none())
            .map(|c| c.name.clone())
            .collect();
        if !missing.is_empty() {
            return Err(RuleError::MissingInitiative { names: missing });
        }
        if state.present().all(Combatant::is_downed) {
            return Err(RuleError::NoOneCanAct);
        }
        let mut entrants: Vec<(Unit, OrderKey)> = Vec::new();
        for c in state.present() {
            let unit = state.unit_of(c);
            if let Some(key) = state.order_key(c)
                && !entrants.iter().any(|(u, _)| *u == unit)
            {
                entrants.push((unit, key));
            }
        }
        let (units, rolloffs) = initiative::order(&entrants, sides, dice);
        let order = units
            .into_iter()
            .flat_map(|u| Self::members(state, u))
            .collect();
        self.emit(Event::FightStarted { order, rolloffs });
        self.emit(Event::RoundStarted { round: 1 });
        self.advance(None);
        Ok(())
    }
}
