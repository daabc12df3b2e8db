//! The rule system an encounter runs under, and the one gate that says which commands it takes.
//!
//! A system is chosen when the encounter is created and kept in its save. Nothing else in the
//! engine asks which system runs: code branches on what the state holds. To add a system's own
//! commands, add `Command::Sr5(Sr5Command)` (or `Sr2097`, `Anarchy`) and give it
//! `Family::Own(System::Sr5)` in [`Command::family`]; [`System::accepts`] needs no change.

pub mod anarchy;
pub mod sr5;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub mod sr2097;

use super::command::Command;
use super::error::RuleError;
use super::model::State;

/// A rule system. Saves write it as its word (`sr5`, `sr2097`, `anarchy`); a save written before
/// systems existed has none and runs `sr5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    /// Shadowrun, Fifth Edition: the initiative-pass machine with SR5's dice.
    #[default]
    Sr5,
    /// Shadowrun 2097: the initiative-pass machine with 2d10 success checks.
    Sr2097,
    /// Shadowrun: Anarchy: narration turns and plot points.
    Anarchy,
}

impl System {
    pub const ALL: [System; 3] = [System::Sr5, System::Sr2097, System::Anarchy];

    /// The word the command line and the save use.
    pub fn word(self) -> &'static str {
        match self {
            System::Sr5 => "sr5",
            System::Sr2097 => "sr2097",
            System::Anarchy => "anarchy",
        }
    }

    /// The name a person reads.
    pub fn name(self) -> &'static str {
        match self {
            System::Sr5 => "SR5",
            System::Sr2097 => "Shadowrun 2097",
            System::Anarchy => "Shadowrun: Anarchy",
        }
    }

    /// Whether this system plays in initiative passes (else in narration turns): what the
    /// screen and the reports show before anything has happened.
    pub fn plays_in_passes(self) -> bool {
        Family::Passes.systems().contains(&self)
    }

    /// What one go round the table is called: a round of initiative passes, an Anarchy turn
    /// (whose narrations are what a turn is elsewhere). What the screen, `show` and the recap
    /// say the encounter ended in.
    pub fn round_word(self) -> &'static str {
        if self.plays_in_passes() {
            "round"
        } else {
            "turn"
        }
    }

    /// Whether this system takes the command; if not, a sentence naming the systems that do.
    /// The one place in the engine where a system is named.
    pub fn accepts(self, command: &Command) -> Result<(), RuleError> {
        command.family().admits(self, command.verb())?;
        match command.fire_mode() {
            Some(mode) if !self.fires_in_modes() => Err(RuleError::FireModesOfSr5 {
                system: self,
                mode: mode.to_string(),
            }),
            _ => Ok(()),
        }
    }

    /// Whether this system's initiative is a sum of d6s (Shadowrun 2097): typed in as its dice,
    /// its ties counted in dice. SR5's is hits on a pool. The one answer the sheet's wording, the
    /// roll and its forms ask.
    pub fn sums_initiative_dice(self) -> bool {
        self == System::Sr2097
    }

    /// Whether a firing action fires in a mode (its rounds, its recoil): SR5's. Shadowrun
    /// 2097's burst is extra dice of its damage roll.
    pub fn fires_in_modes(self) -> bool {
        self == System::Sr5
    }

    /// Whether an Action Phase allows one attack action (more with Multiple Attacks): SR5's
    /// actions rule. Shadowrun 2097 limits a turn by its IP alone.
    pub fn limits_attacks_per_phase(self) -> bool {
        self == System::Sr5
    }
}

impl System {
    /// Gives a state saved before this system had a slice of state of its own (a save made by
    /// an older srtrack) that slice, empty, as [`System::empty_state`] has it.
    pub fn own_slices(self, state: &mut State) {
        // A state saved before it knew its system says none: it is this one.
        state.system = self;
        if self == System::Sr2097 && state.sr2097.is_none() {
            state.sr2097 = Some(sr2097::Sr2097State::default());
        }
    }

    /// The state an encounter under this system starts from: a system with a slice of state of
    /// its own has it there from the start, so the rest of the engine branches on the state.
    pub fn empty_state(self) -> State {
        State {
            system: self,
            sr2097: (self == System::Sr2097).then(sr2097::Sr2097State::default),
            ..State::default()
        }
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that names no rule system.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a rule system: use sr5, sr2097 or anarchy")]
pub struct UnknownSystem(pub String);

impl FromStr for System {
    type Err = UnknownSystem;

    fn from_str(word: &str) -> Result<Self, Self::Err> {
        let word = word.trim();
        Self::ALL
            .into_iter()
            .find(|s| s.word().eq_ignore_ascii_case(word))
            .ok_or_else(|| UnknownSystem(word.to_string()))
    }
}

/// Which systems a command belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// What every system shares: combatants, Downed, damage, statuses, ending.
    Shared,
    /// The initiative-pass machine (rolls, passes, turns, IP, delays, readies, changes of
    /// initiative): SR5 and SR 2097 play in it; Anarchy plays in narration turns.
    Passes,
    /// One system's own commands.
    Own(System),
}

impl Family {
    /// The systems that take this family's commands.
    pub fn systems(self) -> &'static [System] {
        match self {
            Family::Shared => &System::ALL,
            Family::Passes => &[System::Sr5, System::Sr2097],
            Family::Own(System::Sr5) => &[System::Sr5],
            Family::Own(System::Sr2097) => &[System::Sr2097],
            Family::Own(System::Anarchy) => &[System::Anarchy],
        }
    }

    /// Whether a table of `system` takes this family's `verb`; if not, the sentence naming the
    /// systems that do. The engine's commands ([`System::accepts`]) and the language's
    /// questions (`why`, the odds) are refused here, in one sentence.
    pub fn admits(self, system: System, verb: &'static str) -> Result<(), RuleError> {
        let owners = self.systems();
        if owners.contains(&system) {
            Ok(())
        } else {
            Err(RuleError::OtherSystem {
                verb,
                owners: owners.to_vec(),
                system,
                forms: Vec::new(),
            })
        }
    }
}

/// A value of a character's sheet that `add` and `edit` take (beside its name and side).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetField {
    Intuition,
    Reaction,
    Edge,
    /// The initiative dice modifier.
    DiceModifier,
    /// Extra starting IP.
    IpBonus,
    Body,
    Willpower,
    /// A group's one initiative roll.
    SharedRoll,
}

impl SheetField {
    /// The fields only the initiative-pass machine plays with: the initiative roll
    /// (Intuition + Reaction + the dice modifier, a group's shared roll) and the IP.
    fn of_the_passes(self) -> bool {
        matches!(
            self,
            SheetField::Intuition
                | SheetField::Reaction
                | SheetField::DiceModifier
                | SheetField::IpBonus
                | SheetField::SharedRoll
        )
    }
}

impl System {
    /// Whether this system plays with that field of the sheet: a system of initiative passes
    /// with all of them; Anarchy (it narrates at its seat, no initiative) with Edge, and the
    /// Body and Willpower of its Physical and Stun tracks. What the add and edit forms ask and
    /// what `add` requires, one answer.
    pub fn uses(self, field: SheetField) -> bool {
        self.plays_in_passes() || !field.of_the_passes()
    }
}

/// "SR5", "SR5 and Shadowrun 2097", "A, B and C".
pub(crate) fn list(systems: &[System]) -> String {
    match systems {
        [] => String::new(),
        [one] => one.name().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(|s| s.name()).collect();
            format!("{} and {}", rest.join(", "), last.name())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_parse_back_to_their_system() {
        for s in System::ALL {
            assert_eq!(s.word().parse::<System>(), Ok(s));
            assert_eq!(s.word().to_uppercase().parse::<System>(), Ok(s));
        }
        assert_eq!(
            "sr4".parse::<System>().unwrap_err().to_string(),
            "\"sr4\" is not a rule system: use sr5, sr2097 or anarchy"
        );
    }

    #[test]
    fn saves_write_the_word() {
        assert_eq!(ron::to_string(&System::Sr2097).unwrap(), "sr2097");
        assert_eq!(ron::from_str::<System>("anarchy").unwrap(), System::Anarchy);
    }

    /// One gate for the engine's commands and the language's questions (`why`, the odds): a
    /// family admits its systems' tables, and refuses the others in the same sentence.
    #[test]
    fn a_family_admits_its_systems_and_names_them_to_the_others() {
        assert_eq!(Family::Shared.admits(System::Anarchy, "add"), Ok(()));
        assert_eq!(Family::Passes.admits(System::Sr2097, "why"), Ok(()));
        assert_eq!(
            Family::Passes
                .admits(System::Anarchy, "why")
                .unwrap_err()
                .to_string(),
            "`why` is a command of SR5 and Shadowrun 2097; this encounter runs Shadowrun: Anarchy"
        );
        assert_eq!(
            Family::Own(System::Sr2097)
                .admits(System::Sr5, "odds2097")
                .unwrap_err()
                .to_string(),
            "`odds2097` is a command of Shadowrun 2097; this encounter runs SR5"
        );
        let start = Command::Start;
        assert_eq!(
            System::Anarchy.accepts(&start),
            start.family().admits(System::Anarchy, start.verb())
        );
    }

    /// Given each system's empty state, when asked whether its initiative is summed d6s, then
    /// only Shadowrun 2097's is, the system whose state holds 2097's slice.
    #[test]
    fn only_2097_sums_its_initiative_dice() {
        for s in System::ALL {
            assert_eq!(
                s.empty_state().system.sums_initiative_dice(),
                s == System::Sr2097,
                "{s}"
            );
            assert_eq!(s.sums_initiative_dice(), s.empty_state().sr2097.is_some());
        }
    }

    #[test]
    fn lists_read_as_prose() {
        assert_eq!(list(&[System::Sr5]), "SR5");
        assert_eq!(
            list(&[System::Sr5, System::Sr2097]),
            "SR5 and Shadowrun 2097"
        );
        assert_eq!(
            list(&System::ALL),
            "SR5, Shadowrun 2097 and Shadowrun: Anarchy"
        );
    }
}
