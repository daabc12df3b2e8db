//! What one Action Phase allows: one attack action (SR5; Shadowrun 2097 counts IP alone), and an
//! action to go with each Call a Shot or Multiple Attacks.
//!
//! An Action Phase is the character turn under way, counted as the 5 IP cap counts it: the
//! character's own turn (or the one it resumes), or the trigger's turn its delayed IP are spent in.

use super::{Draft, Outcome};
use crate::catalogue::{ActionDef, AttackRole, Restriction};
use crate::encounter::error::RuleError;
use crate::encounter::model::{ActionUse, Combatant};

/// What may still follow an action in its Action Phase.
#[derive(Clone, Copy)]
pub(super) enum Then<'a> {
    /// Whatever `have` IP still pay for (an action taken with `act`).
    Any { have: u8 },
    /// Only these: the rest of a ready's list, all it will do when it fires.
    Only(&'a [ActionUse]),
}

impl Draft<'_> {
    fn role(&self, name: &str) -> Option<AttackRole> {
        self.catalogue.get(name).and_then(|d| d.attack)
    }

    /// The catalogue actions `c` took in this Action Phase.
    pub(super) fn taken(&mut self, c: &Combatant) -> Vec<String> {
        self.now().taken_in_turn(c.id).map(str::to_string).collect()
    }

    /// Attack actions `c` may still take in this Action Phase, after `action`: one, and one more
    /// for each action that allows another (Multiple Attacks), less those taken.
    fn attacks_left(&self, taken: &[String], action: &ActionUse) -> usize {
        if !self.system.limits_attacks_per_phase() {
            return usize::MAX;
        }
        let count = |role| {
            taken
                .iter()
                .map(String::as_str)
                .chain(action.name.as_deref())
                .filter(|n| self.role(n) == Some(role))
                .count()
        };
        (1 + count(AttackRole::OneMore)).saturating_sub(count(AttackRole::Attack))
    }

    /// A second attack action in one Action Phase is refused unless an action that allows
    /// another (Multiple Attacks) was taken in it; `taken`: the actions taken in it before.
    pub(super) fn one_attack(
        &self,
        c: &Combatant,
        action: &ActionUse,
        taken: &[String],
    ) -> Outcome {
        let Some(name) = action.name.as_deref() else {
            return Ok(());
        };
        if self.role(name) != Some(AttackRole::Attack) {
            return Ok(());
        }
        let before = ActionUse {
            name: None,
            ..action.clone()
        };
        if self.attacks_left(taken, &before) > 0 {
            return Ok(());
        }
        let earlier = taken
            .iter()
            .filter(|n| self.role(n) == Some(AttackRole::Attack))
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        Err(RuleError::AttackTaken {
            who: c.name.clone(),
            earlier,
            more: self.one_more(),
        })
    }

    /// The name of the action that allows another attack action (Multiple Attacks).
    fn one_more(&self) -> String {
        self.catalogue
            .actions()
            .iter()
            .find(|d| d.attack == Some(AttackRole::OneMore))
            .map_or_else(
                || "an action that allows it".to_string(),
                |d| d.name.clone(),
            )
    }

    /// An action that goes with others (Call a Shot, Multiple Attacks) goes with one taken in
    /// this Action Phase (`taken`) that no earlier one of its kind went with, or with one `c`
    /// can still take after it: with `act`, the IP it would have left (`have` less the cost)
    /// and the turn's cap leave room for the cheapest; in a ready, one later in its list. An
    /// attack action must still be allowed.
    pub(super) fn goes_with(
        &mut self,
        c: &Combatant,
        action: &ActionUse,
        restrictions: &[Restriction],
        taken: &[String],
        then: Then<'_>,
    ) -> Outcome {
        let Some(name) = action.name.as_deref() else {
            return Ok(());
        };
        for r in restrictions {
            let Restriction::CombineWith(with) = r else {
                continue;
            };
            let count = |names: &[String]| {
                taken
                    .iter()
                    .filter(|t| names.iter().any(|n| n.eq_ignore_ascii_case(t)))
                    .count()
            };
            let partners = count(with);
            let same = count(&[name.to_string()]);
            let listed = with.join(", ");
            if partners > same {
                continue;
            }
            if same > partners {
                return Err(RuleError::CombineWaiting {
                    who: c.name.clone(),
                    action: name.to_string(),
                    with: listed,
                });
            }
            let attacks_left = self.attacks_left(taken, action);
            let allowed = |d: &ActionDef| d.attack != Some(AttackRole::Attack) || attacks_left > 0;
            let have = match then {
                Then::Any { have } => have,
                Then::Only(rest) => {
                    let later = rest.iter().filter_map(|a| a.name.as_deref()).any(|n| {
                        with.iter().any(|w| w.eq_ignore_ascii_case(n))
                            && self.catalogue.get(n).is_some_and(allowed)
                    });
                    if later {
                        continue;
                    }
                    return Err(RuleError::ReadyLacksPartner {
                        who: c.name.clone(),
                        action: name.to_string(),
                        with: listed,
                    });
                }
            };
            let cheapest = with
                .iter()
                .filter_map(|n| self.catalogue.get(n))
                .filter(|d| allowed(d))
                .filter_map(|d| d.ip_cost(self.rules, None))
                .min();
            let ip_left = have.saturating_sub(action.cost);
            let spent = self.now().spent_in_turn(c.id).saturating_add(action.cost);
            let cap = self.rules.turn_spend_cap;
            let why = match cheapest {
                None => format!("another attack action needs {} first", self.one_more()),
                Some(p) if p > ip_left => {
                    format!("{ip_left} IP would be left, the cheapest costs {p}")
                }
                Some(p) if spent.saturating_add(p) > cap => format!(
                    "{spent} of the {cap} IP a turn allows would be spent, the cheapest costs {p}"
                ),
                Some(_) => continue,
            };
            return Err(RuleError::NothingToCombine {
                who: c.name.clone(),
                action: name.to_string(),
                with: listed,
                why,
            });
        }
        Ok(())
    }
}
