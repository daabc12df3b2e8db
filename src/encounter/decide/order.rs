//! Changing initiative: a character moves before or after another and skips its turn.

use super::{Draft, Outcome};
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, Skipped};
use crate::encounter::model::{CombatantId, PassMark, Relative, TurnKind};

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
        // One who joined this pass with its slot gone by has no turn left in it, nor has it
        // acted: the skipped turn is taken at the pass's end (our ruling), as `advance` does.
        if !t.mark.still_to_act() && t.mark != PassMark::Joined {
            // The chosen character has acted: the turn is lost, the place changes at once, and
            // the turn ends here, so delays waiting on it come now.
            self.expire_turn_statuses(turn.serial);
            self.emit(Event::InitiativeChanged {
                who,
                relative,
                target,
                skipped: Skipped::Lost,
            });
            self.advance(Some(who));
            return Ok(());
        }
        // The skipped turn waits for the chosen character's real turn; refuse a circle of waits.
        let mut link = t.waits;
        for _ in 0..self.now().combatants.len() {
            let Some(w) = link else { break };
            if w.target == who {
                return Err(RuleError::WaitsInCircle {
                    who: c.name,
                    target: t.name,
                });
            }
            link = self.now().get(w.target).and_then(|x| x.waits);
        }
        // The deferred turn is the same turn taken later: what ends with it (anyone's `until
        // turn`) ends when it is taken, as it keeps its serial.
        self.emit(Event::TurnDeferred {
            who,
            relative,
            target,
        });
        self.advance(None);
        Ok(())
    }
}
