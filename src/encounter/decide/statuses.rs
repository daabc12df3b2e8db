//! Lasting effects the GM adds and clears by hand.

use super::{Draft, Outcome};
use crate::encounter::command::StatusUntil;
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, StatusEnded};
use crate::encounter::model::{ActiveStatus, CombatantId, StatusEnd};
use crate::encounter::system::sr5::Sr5Error;

impl Draft<'_> {
    pub(super) fn add_status(
        &mut self,
        who: CombatantId,
        text: &str,
        until: Option<StatusUntil>,
    ) -> Outcome {
        let c = self.present(who)?;
        let text = text.trim();
        if text.is_empty() {
            return Err(RuleError::EmptyStatus);
        }
        let text = RuleError::check_text("status text", text, self.rules.limits.text_chars)?;
        let name = self
            .rules
            .status(&text)
            .map_or_else(|| text.clone(), |d| d.name.clone());
        if c.status(&name).is_some() {
            return Err(RuleError::StatusHeld { who: c.name, name });
        }
        let end = match until {
            Some(StatusUntil::ThisTurn) => {
                let serial = self.now().turn_serial().ok_or(RuleError::NoTurnNow)?;
                StatusEnd::EndOfTurn { serial }
            }
            Some(StatusUntil::NextTurn) => StatusEnd::EndOfNextTurn,
            Some(StatusUntil::Round) => StatusEnd::EndOfRound,
            Some(StatusUntil::Never) => StatusEnd::UntilCleared,
            None => self.status_end(&name),
        };
        self.emit(Event::StatusStarted {
            who,
            status: ActiveStatus {
                name,
                end,
                stacks: 1,
            },
        });
        Ok(())
    }

    pub(super) fn clear_status(&mut self, who: CombatantId, name: &str) -> Outcome {
        let c = self.present(who)?;
        let Some(status) = c.status(name.trim()) else {
            // A Dodge, Block or Parry waiting for its defense shows beside the statuses, so the
            // GM may take it for one: say what it is and how to take it back.
            if let Some(action) = self.now().sr5.kit(who).and_then(|k| {
                k.defense_adds
                    .iter()
                    .find(|a| a.eq_ignore_ascii_case(name.trim()))
            }) {
                return Err(Sr5Error::DefenseAddNotStatus {
                    who: c.name,
                    action: action.clone(),
                }
                .into());
            }
            return Err(RuleError::NoSuchStatus {
                who: c.name,
                name: name.trim().to_string(),
            });
        };
        self.emit(Event::StatusEnded {
            who,
            name: status.name.clone(),
            why: StatusEnded::Gm,
        });
        Ok(())
    }
}
