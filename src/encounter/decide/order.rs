//! Changing initiative: a character moves before or after another and skips its turn.

use super::{Draft, Outcome};
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, Skipped};
use crate::encounter::model::{CombatantId, Relative, TurnKind};

impl Draft<'_> {
    pub(super) fn change_initiative(
        &mut self,
        who: CombatantId,
        relative: Relative,
        target: CombatantId,
    ) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
        let turn = self.now().turn().copied();
        let Some(turn) = turn.filter(|t| t.who == who && t.kind == TurnKind::Own && !t.acted)
        else {
            return Err(RuleError::ChangeNotAtStart { who: c.name });
        };
        if target == who {
            return Err(RuleError::TargetIsSelf { who: c.name });
        }
        let t = self.present(target)?;
        if self.now().position(target).is_none() {
            return Err(RuleError::NotInOrder { who: t.name });
        }
        let skipped = if t.mark.still_to_act() {
            Skipped::Deferred
        } else {
            Skipped::Lost
        };
        self.expire_turn_statuses(turn.serial);
        self.emit(Event::InitiativeChanged {
            who,
            relative,
            target,
            skipped,
        });
        // A lost turn ends here, so delays waiting on it come now; a deferred one ends later.
        self.advance((skipped == Skipped::Lost).then_some(who));
        Ok(())
    }
}
