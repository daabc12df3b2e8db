//! What the players' view shows: the GM hides characters from it and reveals them again.

use super::{Draft, Outcome};
use crate::encounter::error::RuleError;
use crate::encounter::event::Event;
use crate::encounter::model::{CombatantId, Visibility};

impl Draft<'_> {
    pub(super) fn set_visibility(
        &mut self,
        who: &[CombatantId],
        visibility: Visibility,
    ) -> Outcome {
        self.distinct_targets(who)?;
        for &id in who {
            let c = self.present(id)?;
            if c.visibility == visibility {
                return Err(match visibility {
                    Visibility::Hidden => RuleError::AlreadyHidden { who: c.name },
                    Visibility::Shown => RuleError::NotHidden { who: c.name },
                });
            }
            self.emit(Event::VisibilityChanged {
                who: id,
                visibility,
            });
        }
        Ok(())
    }
}
