//! Several characters at once (a grenade, an area spell, a buff on the team): each one is
//! decided as if alone, on the state the ones before it left, and one refusal refuses them all.

use super::{Draft, Outcome};
use crate::encounter::command::Each;
use crate::encounter::error::RuleError;
use crate::encounter::model::CombatantId;

impl Draft<'_> {
    pub(super) fn for_each(&mut self, who: &[CombatantId], each: &Each) -> Outcome {
        if who.is_empty() {
            return Err(RuleError::NoTargets);
        }
        for (i, id) in who.iter().enumerate() {
            if who[..i].contains(id) {
                let name = self.present(*id)?.name;
                return Err(RuleError::TargetTwice { who: name });
            }
        }
        for &id in who {
            match each {
                Each::Damage { track, boxes } => self.damage(id, *track, *boxes)?,
                Each::Heal { track, boxes } => self.heal(id, *track, *boxes)?,
                Each::AddStatus { text, until } => self.add_status(id, text, *until)?,
                Each::ClearStatus { name } => self.clear_status(id, name)?,
            }
        }
        Ok(())
    }
}
