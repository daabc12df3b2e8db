//! One history: the state is a fold of its entries; undo and redo move along it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::command::Command;
use super::decide::Draft;
use super::error::RuleError;
use super::event::Event;
use super::model::State;
use super::system::System;
use crate::catalogue::Catalogue;
use crate::rules::{Dice, HouseRules};

/// One GM command as it was given, and what it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The command in the command language, for the log and for undo messages.
    pub text: String,
    pub events: Vec<Event>,
    /// Part of the step of the entry before it: a line the GM typed once (a roster sheet and
    /// its gear) made several entries, and one undo or redo takes them all. Older saves have
    /// none, every entry a step of its own.
    #[serde(default, skip_serializing_if = "is_false")]
    pub joined: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde hands a reference
fn is_false(b: &bool) -> bool {
    !*b
}

/// How often a copy of the state is kept, so undo replays at most this many entries.
const CHECKPOINT_EVERY: usize = 64;

/// An encounter: the rule system and house rules it runs by, its history, and the state that
/// history folds to.
#[derive(Debug, Clone)]
pub struct Encounter {
    /// Chosen at creation, never changed: the commands it takes depend on it.
    system: System,
    rules: Arc<HouseRules>,
    catalogue: Arc<Catalogue>,
    state: State,
    /// Entries before the loaded ones, left on disk: a save opens from its end (see
    /// `save::file::open`). `history`, `cursor` and the checkpoints count from there.
    base: usize,
    history: Vec<Entry>,
    /// Entries `..cursor` are applied; the rest can be redone.
    cursor: usize,
    /// `checkpoints[k]` is the state after `k * CHECKPOINT_EVERY` loaded entries
    /// (`checkpoints[0]`: the state after the `base` entries not loaded).
    checkpoints: Vec<State>,
    /// Stamped anew on every change of the state or the history (see [`Encounter::revision`]).
    revision: u64,
}

/// A stamp no other change in this process has: two encounters never share one either.
fn stamp() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A query that dry-runs commands rolls no dice: these answer if asked.
struct NoDice;

impl Dice for NoDice {
    fn roll(&mut self, _sides: u8) -> u8 {
        1
    }
}

impl Encounter {
    /// A new encounter under the default system (SR5).
    pub fn new(rules: Arc<HouseRules>, catalogue: Arc<Catalogue>) -> Self {
        Self::for_system(System::default(), rules, catalogue)
    }

    /// A new encounter under `system`.
    pub fn for_system(system: System, rules: Arc<HouseRules>, catalogue: Arc<Catalogue>) -> Self {
        Self {
            system,
            rules,
            catalogue,
            state: system.empty_state(),
            base: 0,
            history: Vec::new(),
            cursor: 0,
            checkpoints: vec![system.empty_state()],
            revision: stamp(),
        }
    }

    /// Changes whenever the state or the history does (a command, undo, redo, earlier entries
    /// loaded), and only then: a view drawn at one revision is the view of any moment with the
    /// same revision.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// An encounter of which only the end of the history is loaded: `base` entries, left on
    /// disk, lead to `base_state`; `history` follows them, `..cursor` of it applied. The caller
    /// vouches for `base_state` (a save's snapshot; [`Encounter::prepend`] loads the rest).
    pub fn from_tail(
        system: System,
        rules: Arc<HouseRules>,
        catalogue: Arc<Catalogue>,
        base: usize,
        base_state: State,
        history: Vec<Entry>,
        cursor: usize,
    ) -> Self {
        let mut enc = Self::for_system(system, rules, catalogue);
        enc.base = base;
        enc.checkpoints = vec![base_state];
        enc.cursor = cursor.min(history.len());
        enc.history = history;
        enc.state = enc.replay(enc.cursor);
        enc
    }

    /// How many entries before [`Encounter::history`] are not loaded (0: all are).
    pub fn base(&self) -> usize {
        self.base
    }

    /// Puts the `base` entries left on disk in front of the history (`earlier` must be them,
    /// leading to the state they were vouched for), so that undo and the log reach them.
    /// Refused, changing nothing, when their number is not `base`.
    pub fn prepend(&mut self, mut earlier: Vec<Entry>) -> Result<(), String> {
        if earlier.len() != self.base {
            return Err(format!(
                "{} earlier entries given for the {} not loaded",
                earlier.len(),
                self.base
            ));
        }
        let n = earlier.len();
        earlier.append(&mut self.history);
        self.history = earlier;
        self.cursor += n;
        self.base = 0;
        self.checkpoints = vec![self.system.empty_state()];
        self.state = self.replay(self.cursor);
        self.revision = stamp();
        Ok(())
    }

    /// Rebuilds an encounter from a saved history, replaying `history[..cursor]`.
    pub fn from_history(
        system: System,
        rules: Arc<HouseRules>,
        catalogue: Arc<Catalogue>,
        history: Vec<Entry>,
        cursor: usize,
    ) -> Self {
        Self::from_tail(
            system,
            rules,
            catalogue,
            0,
            system.empty_state(),
            history,
            cursor,
        )
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// The state before the first entry (a system's slice of state is there from the start).
    pub fn empty_state(&self) -> State {
        self.system.empty_state()
    }

    pub fn system(&self) -> System {
        self.system
    }

    pub fn rules(&self) -> &HouseRules {
        &self.rules
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// The house rules and the catalogue as the encounter shares them.
    pub fn shared(&self) -> (&Arc<HouseRules>, &Arc<Catalogue>) {
        (&self.rules, &self.catalogue)
    }

    /// Every entry, including those undone and waiting for redo.
    pub fn history(&self) -> &[Entry] {
        &self.history
    }

    /// How many entries are applied.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The state after the first `n` entries, from the nearest checkpoint.
    pub fn state_after(&self, n: usize) -> State {
        let n = n.min(self.history.len());
        let k = (n / CHECKPOINT_EVERY).min(self.checkpoints.len() - 1);
        let mut state = self.checkpoints[k].clone();
        for entry in &self.history[k * CHECKPOINT_EVERY..n] {
            for e in &entry.events {
                state.apply(e, &self.rules);
            }
        }
        state
    }

    /// The entries that make the current state.
    pub fn applied(&self) -> &[Entry] {
        &self.history[..self.cursor]
    }

    pub fn can_undo(&self) -> bool {
        self.cursor > 0
    }

    pub fn can_redo(&self) -> bool {
        self.cursor < self.history.len()
    }

    /// Checks a command against the rules and says what would happen; changes nothing.
    pub fn decide(&self, command: Command, dice: &mut dyn Dice) -> Result<Vec<Event>, RuleError> {
        let mut draft = Draft::new(self.system, &self.state, &self.rules, &self.catalogue)
            .with_history(self.applied());
        draft.command(command, dice)?;
        Ok(draft.finish())
    }

    /// Whether a command would be allowed now, and if not, why. Rolls nothing.
    pub fn check(&self, command: Command) -> Result<(), RuleError> {
        self.preview(command).map(|_| ())
    }

    /// What a command would do now, without rolling (any die it needs shows 1); changes nothing.
    pub fn preview(&self, command: Command) -> Result<Vec<Event>, RuleError> {
        self.decide(command, &mut NoDice)
    }

    /// Applies one event to the state (not to the history). Never fails.
    pub fn apply(&mut self, event: &Event) {
        self.state.apply(event, &self.rules);
        self.revision = stamp();
    }

    /// Decides a command and, if the rules allow it, records and applies it; clears redo.
    ///
    /// `describe` writes the entry's text from the command and the state before it; the engine
    /// knows no command language, so the caller hands it in (`lang::execute` is the usual way).
    pub fn execute(
        &mut self,
        command: Command,
        dice: &mut dyn Dice,
        describe: impl FnOnce(&Command, &State) -> String,
    ) -> Result<&Entry, RuleError> {
        let text = describe(&command, &self.state);
        let events = self.decide(command, dice)?;
        Ok(self.record(Entry {
            text,
            events,
            joined: false,
        }))
    }

    /// Appends an entry already decided, dropping anything that could have been redone.
    fn record(&mut self, entry: Entry) -> &Entry {
        self.revision = stamp();
        self.history.truncate(self.cursor);
        self.checkpoints
            .truncate(self.cursor / CHECKPOINT_EVERY + 1);
        for e in &entry.events {
            self.state.apply(e, &self.rules);
        }
        self.history.push(entry);
        self.cursor += 1;
        if self.cursor.is_multiple_of(CHECKPOINT_EVERY) {
            self.checkpoints.push(self.state.clone());
        }
        &self.history[self.cursor - 1]
    }

    /// The state after the first `upto` entries, from the nearest checkpoint.
    fn replay(&mut self, upto: usize) -> State {
        let k = (upto / CHECKPOINT_EVERY).min(self.checkpoints.len().saturating_sub(1));
        // Checkpoints are built lazily on a fresh load: fill in the ones below `upto`.
        let mut state = self.checkpoints[k].clone();
        let mut at = k * CHECKPOINT_EVERY;
        while at < upto {
            for e in &self.history[at].events {
                state.apply(e, &self.rules);
            }
            at += 1;
            if at.is_multiple_of(CHECKPOINT_EVERY)
                && self.checkpoints.len() == at / CHECKPOINT_EVERY
            {
                self.checkpoints.push(state.clone());
            }
        }
        state
    }

    /// Where `n` undos from the cursor lead: each takes an entry and those joined to it.
    fn undo_target(&self, n: usize) -> usize {
        let mut at = self.cursor;
        for _ in 0..n {
            if at == 0 {
                break;
            }
            at -= 1;
            while at > 0 && self.history[at].joined {
                at -= 1;
            }
        }
        at
    }

    /// Where `n` redos from the cursor lead: each takes an entry and those joined to it.
    fn redo_target(&self, n: usize) -> usize {
        let mut at = self.cursor;
        for _ in 0..n {
            if at == self.history.len() {
                break;
            }
            at += 1;
            while at < self.history.len() && self.history[at].joined {
                at += 1;
            }
        }
        at
    }

    /// How many steps undo can take back: the loaded ones, and each entry not loaded (as many
    /// or more than its steps).
    pub fn undo_steps(&self) -> usize {
        self.base + steps(&self.history[..self.cursor])
    }

    /// How many steps redo can bring back.
    pub fn redo_steps(&self) -> usize {
        steps(&self.history[self.cursor..])
    }

    /// Whether the next undo reaches the entries left on disk: then they are loaded first
    /// ([`Encounter::prepend`]).
    pub fn undo_needs_earlier(&self) -> bool {
        self.base > 0
            && self.undo_target(1) == 0
            && (self.cursor == 0 || self.history.first().is_some_and(|e| e.joined))
    }

    /// Marks the entries recorded since the cursor was `from` as one step with the first of
    /// them: one line typed, one undo.
    pub fn join_since(&mut self, from: usize) {
        let to = self.cursor.min(self.history.len());
        for entry in self.history.iter_mut().take(to).skip(from + 1) {
            entry.joined = true;
        }
        self.revision = stamp();
    }

    /// Undoes up to `n` steps (a command, or the entries of one line); returns the entries
    /// undone, latest first.
    pub fn undo(&mut self, n: usize) -> Vec<&Entry> {
        let target = self.undo_target(n);
        let undone = self.cursor - target;
        if undone == 0 {
            return Vec::new();
        }
        self.state = self.replay(target);
        self.cursor = target;
        self.revision = stamp();
        self.history[target..target + undone].iter().rev().collect()
    }

    /// Redoes up to `n` undone steps with their recorded events: no dice are rolled again.
    pub fn redo(&mut self, n: usize) -> Vec<&Entry> {
        let target = self.redo_target(n);
        let from = self.cursor;
        if target > from {
            self.revision = stamp();
        }
        for i in from..target {
            for e in &self.history[i].events {
                self.state.apply(e, &self.rules);
            }
            self.cursor = i + 1;
            if self.cursor.is_multiple_of(CHECKPOINT_EVERY)
                && self.checkpoints.len() == self.cursor / CHECKPOINT_EVERY
            {
                self.checkpoints.push(self.state.clone());
            }
        }
        self.history[from..target].iter().collect()
    }

    /// The state rebuilt by replaying every applied event (from nothing, or from the state
    /// the entries not loaded lead to).
    pub fn replayed(&self) -> State {
        let mut state = self.checkpoints[0].clone();
        for entry in self.applied() {
            for e in &entry.events {
                state.apply(e, &self.rules);
            }
        }
        state
    }
}

/// How many steps the entries make: each one not joined to the one before begins one.
fn steps(entries: &[Entry]) -> usize {
    entries
        .iter()
        .enumerate()
        .filter(|(i, e)| *i == 0 || !e.joined)
        .count()
}
