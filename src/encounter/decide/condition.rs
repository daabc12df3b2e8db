//! Downed and condition monitors: the GM's toggle, damage and healing.

use super::{Draft, Outcome};
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, Release};
use crate::encounter::model::{Combatant, CombatantId, DownCause, Track};

impl Draft<'_> {
    /// A Downed character's pending reserve lapses, and a turn it is taking ends with it (its
    /// delays come now, as for one removed), as does a narration it is giving: it is no longer
    /// shown acting.
    pub(super) fn down(&mut self, c: &Combatant, cause: DownCause) {
        self.emit(Event::Downed { who: c.id, cause });
        self.release(c, Release::Downed);
        self.narration_leaves(c.id);
        if let Some(turn) = self.now().turn().copied().filter(|t| t.who == c.id) {
            let anchor = self.end_turn(turn);
            self.advance(Some(anchor));
        }
    }

    pub(super) fn set_downed(&mut self, who: CombatantId, downed: bool) -> Outcome {
        let c = self.present(who)?;
        match (downed, c.downed) {
            (true, Some(cause)) => Err(RuleError::AlreadyDowned {
                who: c.name,
                cause: cause.label(),
            }),
            (true, None) => {
                self.down(&c, DownCause::Gm);
                Ok(())
            }
            (false, None) => Err(RuleError::NotDowned { who: c.name }),
            (false, Some(DownCause::PhysicalFull)) => Err(RuleError::DownedByMonitor {
                who: c.name,
                track: "Physical",
            }),
            (false, Some(DownCause::StunFull)) => Err(RuleError::DownedByMonitor {
                who: c.name,
                track: "Stun",
            }),
            // No healing in the 2097 text: the GM brings a character up (first aid, a medkit),
            // unless a 2097 injury kills or sends it to the ER.
            (false, Some(DownCause::Gm | DownCause::Injury)) => {
                // A save from before a full monitor took over the cause: the monitor still holds.
                if let Some(track) = self.full_track(&c) {
                    return Err(RuleError::DownedByMonitor {
                        who: c.name,
                        track: track.label(),
                    });
                }
                self.first_aid_2097(&c)?;
                self.emit(Event::Revived { who });
                Ok(())
            }
        }
    }

    fn monitor(&self, c: &Combatant, track: Track) -> Result<u8, RuleError> {
        let (attribute, name) = match track {
            Track::Physical => (c.sheet.body, "Body"),
            Track::Stun => (c.sheet.willpower, "Willpower"),
        };
        attribute
            .map(|a| self.rules.monitor_boxes(a))
            .ok_or(RuleError::NoMonitor {
                who: c.name.clone(),
                track: track.label(),
                attribute: name,
            })
    }

    /// Whether `c`'s damage fills its `track` monitor (one it has).
    fn is_full(&self, c: &Combatant, track: Track) -> bool {
        self.monitor(c, track)
            .is_ok_and(|m| c.damage.on(track) >= m)
    }

    /// A monitor `c`'s damage fills, Physical first.
    fn full_track(&self, c: &Combatant) -> Option<Track> {
        [Track::Physical, Track::Stun]
            .into_iter()
            .find(|&t| self.is_full(c, t))
    }

    /// What keeps `who` Downed now that the cause it had is gone: a full monitor, else a 2097
    /// injury first aid has not tended (or cannot); nothing, and it is back up.
    pub(super) fn lift(&mut self, who: CombatantId) {
        let Some(c) = self.now().get(who).cloned() else {
            return;
        };
        let holds = match self.full_track(&c) {
            Some(track) => Some(Self::full_cause(track)),
            None => self.injury_holds_2097(&c).then_some(DownCause::Injury),
        };
        match holds {
            None => self.emit(Event::Revived { who }),
            Some(cause) if c.downed != Some(cause) => self.emit(Event::Downed { who, cause }),
            Some(_) => {}
        }
    }

    fn full_cause(track: Track) -> DownCause {
        match track {
            Track::Physical => DownCause::PhysicalFull,
            Track::Stun => DownCause::StunFull,
        }
    }

    pub(super) fn damage(&mut self, who: CombatantId, track: Track, boxes: i32) -> Outcome {
        let c = self.present(who)?;
        let boxes = Self::check_range("damage", boxes, self.rules.limits.damage_boxes)?;
        let max = self.monitor(&c, track)?;
        let taken = c.damage.on(track);
        let applied = (boxes as u8).min(max.saturating_sub(taken));
        self.emit(Event::Damaged {
            who,
            track,
            boxes: applied,
        });
        if taken.saturating_add(applied) >= max {
            match c.downed {
                None => self.down(&c, Self::full_cause(track)),
                // Downed by the GM or an injury, now by a full monitor too: first aid (`up`) no
                // longer brings it up, healing does (and then the injury may still hold it).
                Some(DownCause::Gm | DownCause::Injury) => self.emit(Event::Downed {
                    who,
                    cause: Self::full_cause(track),
                }),
                Some(DownCause::PhysicalFull | DownCause::StunFull) => {}
            }
        }
        Ok(())
    }

    /// After an edit of Body or Willpower: a monitor the damage now fills downs the character
    /// (as damage filling it would); one that no longer is full brings it back (as healing would).
    pub(super) fn settle_monitors(&mut self, who: CombatantId) {
        let Some(c) = self.now().get(who).cloned() else {
            return;
        };
        let full = self.full_track(&c).map(Self::full_cause);
        match (c.downed, full) {
            (None, Some(cause)) => self.down(&c, cause),
            (Some(DownCause::Gm | DownCause::Injury), Some(cause)) => {
                self.emit(Event::Downed { who, cause });
            }
            // The monitor that held it is no longer full: whatever else holds it, or up.
            (Some(DownCause::PhysicalFull), _) if !self.is_full(&c, Track::Physical) => {
                self.lift(who);
            }
            (Some(DownCause::StunFull), _) if !self.is_full(&c, Track::Stun) => self.lift(who),
            _ => {}
        }
    }

    pub(super) fn heal(&mut self, who: CombatantId, track: Track, boxes: i32) -> Outcome {
        let c = self.present(who)?;
        let boxes = Self::check_range("healing", boxes, self.rules.limits.damage_boxes)?;
        let max = self.monitor(&c, track)?;
        let taken = c.damage.on(track);
        if taken == 0 {
            return Err(RuleError::NothingToHeal {
                who: c.name,
                track: track.label(),
            });
        }
        let healed = (boxes as u8).min(taken);
        self.emit(Event::Healed {
            who,
            track,
            boxes: healed,
        });
        if c.downed == Some(Self::full_cause(track)) && taken - healed < max {
            self.lift(who);
        }
        Ok(())
    }
}
