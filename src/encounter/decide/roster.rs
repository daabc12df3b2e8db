//! Combatants joining, changing and leaving: names, sheets, groups.

use super::{Draft, Outcome};
use crate::encounter::command::{AddCombatant, SheetInput};
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, Release};
use unicode_normalization::UnicodeNormalization as _;

use crate::encounter::model::{
    CombatantId, GroupId, PassMark, Sheet, Side, TurnKind, Visibility, same_name,
};

impl Draft<'_> {
    fn sheet(&self, input: &SheetInput) -> Result<Sheet, RuleError> {
        let l = &self.rules.limits;
        let byte = |v: i32| u8::try_from(v).unwrap_or(u8::MAX);
        let body = input
            .body
            .map(|b| Self::check_range("Body", b, l.body).map(byte))
            .transpose()?;
        let willpower = input
            .willpower
            .map(|w| Self::check_range("Willpower", w, l.willpower).map(byte))
            .transpose()?;
        Ok(Sheet {
            intuition: byte(Self::check_range(
                "Intuition",
                input.intuition,
                l.intuition,
            )?),
            reaction: byte(Self::check_range("Reaction", input.reaction, l.reaction)?),
            edge: byte(Self::check_range("Edge", input.edge, l.edge)?),
            dice_modifier: i8::try_from(Self::check_range(
                "initiative dice modifier",
                input.dice_modifier,
                l.dice_modifier,
            )?)
            .unwrap_or(0),
            ip_bonus: byte(Self::check_range(
                "starting IP bonus",
                input.ip_bonus,
                l.ip_bonus,
            )?),
            body,
            willpower,
        })
    }

    /// Names are kept in NFC, so names that look the same are the same (see `same_name`), and
    /// with one space between words: `Big  Joe` typed unquoted reads as `Big Joe`, so two names
    /// apart only by their spacing would be one the GM cannot tell apart or type.
    fn check_name(&mut self, name: &str, except: Option<CombatantId>) -> Result<String, RuleError> {
        let name: String = crate::text::unjoined(name).trim().nfc().collect();
        if crate::text::holds_control(&name) {
            return Err(RuleError::ControlCharacter { field: "name" });
        }
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        let len = name.chars().count();
        let range = self.rules.limits.name_chars;
        if !range.contains(i32::try_from(len).unwrap_or(i32::MAX)) {
            return Err(RuleError::NameLength {
                name,
                len,
                min: range.min,
                max: range.max,
            });
        }
        // Before "taken": a name that looks like another for a character drawn as nothing is
        // told so, not that the other has it. (A save from before these rules is checked
        // for a taken name apart, see `save::validate`.)
        if let Some(c) = crate::text::first_invisible(&name) {
            return Err(RuleError::InvisibleCharacter {
                field: "name",
                code: u32::from(c),
            });
        }
        if let Some(c) = crate::text::leading_mark(&name) {
            return Err(RuleError::LeadingMark {
                field: "name",
                code: u32::from(c),
            });
        }
        let state = self.now();
        let taken = state
            .present()
            .any(|c| Some(c.id) != except && same_name(&c.name, &name))
            || state.groups.iter().any(|g| same_name(&g.name, &name));
        if taken {
            return Err(RuleError::NameTaken { name });
        }
        Ok(name)
    }

    pub(super) fn add(&mut self, add: &AddCombatant) -> Outcome {
        let sheet = self.sheet(&add.sheet)?;
        let base = add.name.trim().to_string();
        let first_id = self.now().combatants.len();
        match add.count {
            // Nothing to share a roll with: refused rather than kept as a word that does nothing.
            None if add.shared_roll => Err(RuleError::SharedAlone { name: base })?,
            None => {
                let name = self.check_name(&base, None)?;
                self.emit(Event::CombatantAdded {
                    id: CombatantId(first_id as u32),
                    name,
                    side: add.side,
                    sheet,
                    group: None,
                });
            }
            Some(count) => {
                let count = Self::check_range("group size", count, self.rules.limits.group_size)?;
                // The group's own name must be free too: `roll Ganger` names the group.
                let group_name = self.check_name(&base, None)?;
                // The longest member's name is the group's and its number: said of the
                // group's name, which is what the GM typed.
                let suffix = format!(" {count}");
                let len = group_name.chars().count();
                let max = self.rules.limits.name_chars.max;
                let room = max - i32::try_from(suffix.chars().count()).unwrap_or(max);
                if i32::try_from(len).unwrap_or(i32::MAX) > room {
                    return Err(RuleError::GroupNameLength {
                        name: group_name,
                        len,
                        suffix,
                        max: room,
                    });
                }
                let mut names = Vec::new();
                for n in 1..=count {
                    names.push(
                        self.check_name(&crate::encounter::member_name(&group_name, n), None)?,
                    );
                }
                let group = GroupId(self.now().groups.len() as u32);
                self.emit(Event::GroupFormed {
                    id: group,
                    name: group_name,
                    shared_roll: add.shared_roll,
                });
                for (i, name) in names.into_iter().enumerate() {
                    self.emit(Event::CombatantAdded {
                        id: CombatantId((first_id + i) as u32),
                        name,
                        side: add.side,
                        sheet,
                        group: Some(group),
                    });
                }
            }
        }
        if add.hidden {
            let added = first_id..self.now().combatants.len();
            for id in added {
                self.emit(Event::VisibilityChanged {
                    who: CombatantId(id as u32),
                    visibility: Visibility::Hidden,
                });
            }
        }
        self.seat_players();
        Ok(())
    }

    pub(super) fn edit(
        &mut self,
        who: CombatantId,
        name: Option<String>,
        side: Option<Side>,
        input: &SheetInput,
    ) -> Outcome {
        let c = self.present(who)?;
        let sheet = self.sheet(input)?;
        // A rating below what is burned would leave Edge the maximum no longer allows.
        let burned = self.now().edge_burned(who);
        if sheet.edge < burned {
            return Err(RuleError::EdgeBelowBurned {
                who: c.name,
                edge: sheet.edge,
                burned,
            });
        }
        let name = match name {
            // The name kept as written: an older save's name alike another's once skin tones
            // are left out stays as it is; only a new name is checked.
            Some(n) if n.trim() == c.name => c.name.clone(),
            Some(n) => self.check_name(&n, Some(who))?,
            None => c.name.clone(),
        };
        // Before the fight the pool shown is the one the sheet starts with.
        let ip = matches!(self.now().phase, crate::encounter::Phase::Setup)
            .then(|| self.rules.starting_pool(sheet.ip_bonus));
        self.emit(Event::CombatantEdited {
            id: who,
            name,
            side: side.unwrap_or(c.side),
            sheet,
            ip,
        });
        self.settle_monitors(who);
        self.seat_players();
        Ok(())
    }

    pub(super) fn remove(&mut self, who: CombatantId, reason: Option<&str>) -> Outcome {
        let c = self.present(who)?;
        let reason = match reason.map(str::trim).filter(|r| !r.is_empty()) {
            Some(r) => Some(RuleError::check_text(
                "reason",
                r,
                self.rules.limits.text_chars,
            )?),
            None => None,
        };
        self.release(&c, Release::Removed);
        self.narration_leaves(who);
        self.drop_attacks_of(who);
        let turn = self.now().turn().copied();
        self.emit(Event::CombatantRemoved {
            id: who,
            reason: reason.filter(|r| !r.is_empty()),
        });
        // A skipped turn still waiting is never taken: what ends with it ends now.
        if let PassMark::Deferred { turn: skipped } = c.mark {
            self.expire_turn_statuses(skipped);
        }
        if let Some(t) = turn.filter(|t| t.who == who) {
            // Its turn ends with it: any delay waiting on that turn comes now.
            let anchor = match t.kind {
                TurnKind::Delayed { trigger } => trigger,
                TurnKind::Own | TurnKind::Resumed => who,
            };
            self.expire_turn_statuses(t.serial);
            self.advance(Some(anchor));
        }
        Ok(())
    }
}
