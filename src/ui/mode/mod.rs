//! The UI modes: which room has the keys (`Mode`), what a room sees of the engine (`Ctx`), and
//! what it asks `App` to do next (`Outcome`).
//!
//! A room holds its state, `open`, `update(&mut self, Action, &Ctx) -> Outcome` and its popup's
//! `render`. It never changes the encounter: it may ask the engine why a command would be refused
//! (`Ctx::refusal`), and it hands the command to `App` in an `Outcome`.

pub mod check_form;
pub mod choose;
pub mod command_line;
pub mod damage_form;
pub mod find;
pub mod form;
pub mod help;
pub mod help_screen;
pub mod picker;
pub mod plot_points;
pub mod test_form;
pub mod tracker;

use super::action::Action;
use super::keymap::ModeKind;
use crate::catalogue::Catalogue;
use crate::encounter::{CombatantId, Command, Encounter, Event, RuleError, State};
use crate::roster::Roster;

/// The room that has the keys. Closed on purpose: a match over it names every room.
#[derive(Debug, Clone)]
pub enum Mode {
    /// No popup: the panes have the keys.
    Tracker,
    Help(help::State),
    Command(command_line::State),
    Picker(picker::State),
    Form(form::State),
    Choose(choose::State),
    /// A Shadowrun 2097 success check with its live odds.
    CheckForm(check_form::State),
    /// A Shadowrun 2097 damage roll, through the target's armor.
    DamageForm(damage_form::State),
    /// Anarchy's Plot Point menu.
    PlotPoints(plot_points::State),
    /// `/`: a name typed on the status line moves the order pane's selection.
    Find(find::State),
    /// SR5: a test or a step of an attack chain, with live odds.
    TestForm(test_form::State),
}

impl Mode {
    /// A key for the room that has the keys. The tracker's state is passed in: it lives in
    /// `App`, beside the mode, so that it outlives every popup.
    pub fn update(&mut self, tracker: &mut tracker::State, action: Action, ctx: &Ctx) -> Outcome {
        match self {
            Mode::Tracker => tracker.update(action, ctx),
            Mode::Help(h) => h.update(action, ctx),
            Mode::Command(c) => c.update(action, ctx),
            Mode::Picker(p) => p.update(action, ctx),
            Mode::Form(f) => f.update(action, ctx),
            Mode::Choose(c) => c.update(action, ctx),
            Mode::CheckForm(f) => f.update(action, ctx),
            Mode::DamageForm(f) => f.update(action, ctx),
            Mode::PlotPoints(p) => p.update(action, ctx),
            Mode::Find(f) => f.update(action, ctx),
            Mode::TestForm(f) => f.update(action, ctx),
        }
    }

    /// Whether the room's end may change the fight (a read-only screen opens none such): not
    /// the tracker, the command line (it refuses a change itself), find, or help over those.
    pub fn changes_the_fight(&self) -> bool {
        match self {
            Mode::Tracker | Mode::Command(_) | Mode::Find(_) => false,
            Mode::Help(h) => h.back.changes_the_fight(),
            _ => true,
        }
    }

    pub fn kind(&self) -> ModeKind {
        match self {
            Mode::Tracker => ModeKind::Tracker,
            Mode::Help(_) => ModeKind::Help,
            Mode::Command(_) => ModeKind::Command,
            Mode::Picker(p) if matches!(p.purpose, picker::Purpose::Ready { .. }) => {
                ModeKind::ReadyPicker
            }
            Mode::Picker(p) if p.purpose == picker::Purpose::Interrupt => ModeKind::InterruptPicker,
            Mode::Picker(_) => ModeKind::Picker,
            // The 2097 forms and SR5's test form take the form's keys.
            Mode::Form(_) | Mode::CheckForm(_) | Mode::DamageForm(_) | Mode::TestForm(_) => {
                ModeKind::Form
            }
            Mode::Choose(_) => ModeKind::Choose,
            Mode::PlotPoints(_) => ModeKind::PlotPoints,
            Mode::Find(_) => ModeKind::Find,
        }
    }

    /// Whether the focused part of the room is a line of text, so that a paste goes into it:
    /// the command line, a find, the picker's filter, a form's text field (not a toggle, not a
    /// menu, where text would be read as keys).
    pub fn takes_text(&self) -> bool {
        let text_field = |fields: &[form::Field], focus: usize| {
            fields
                .get(focus)
                .is_some_and(|f| matches!(f.value, form::Value::Text { .. }))
        };
        match self {
            Mode::Command(_) | Mode::Find(_) | Mode::Picker(_) => true,
            Mode::Form(f) => text_field(&f.fields, f.focus),
            Mode::CheckForm(f) => text_field(&f.fields, f.focus),
            Mode::DamageForm(f) => text_field(&f.fields, f.focus),
            Mode::TestForm(f) => text_field(&f.fields, f.focus),
            Mode::Tracker | Mode::Help(_) | Mode::Choose(_) | Mode::PlotPoints(_) => false,
        }
    }

    /// The room that follows a command this room ran: `then` as the room asked, unless the
    /// command leaves an SR5 attack waiting for its next step.
    #[must_use]
    pub fn after_run(&self, then: Mode, ctx: &Ctx) -> Mode {
        let next = match self {
            Mode::TestForm(f) => f.after_run(ctx).unwrap_or(then),
            _ => then,
        };
        // A form offered after the command (an attack after its action) was made before it
        // ran: what the engine says of it is asked again of the state the command left.
        match next {
            Mode::TestForm(mut f) => {
                f.refresh(ctx);
                Mode::TestForm(f)
            }
            other => other,
        }
    }

    /// The engine refused the command the room asked for; the room stays as it was.
    pub fn refused(&mut self, why: &str) {
        match self {
            Mode::Form(f) => f.refused(why),
            Mode::CheckForm(f) => f.refused(why),
            Mode::DamageForm(f) => f.refused(why),
            // The line stays open: the reason shows above it while the GM mends it.
            Mode::Command(c) => c.refused(why),
            Mode::TestForm(f) => f.refused(why),
            // The reason is on the status line.
            Mode::Tracker
            | Mode::Help(_)
            | Mode::Picker(_)
            | Mode::Choose(_)
            | Mode::Find(_)
            | Mode::PlotPoints(_) => {}
        }
    }
}

/// What a room asks `App` to do after a key.
#[derive(Debug)]
pub enum Outcome {
    /// The room stays open (its own state may have changed).
    Stay,
    /// Back to the tracker.
    Close,
    /// Another room takes the keys.
    Open(Mode),
    /// Run a command through the engine. Done: open `then` (the tracker if `None`). Refused:
    /// the room stays as it is and the reason goes to the status line.
    Run { cmd: Command, then: Option<Mode> },
    /// Bring roster sheets in as one (each `add`, then its gear): all, or none if one line is
    /// refused. Done: open `then` (the tracker if `None`); refused: as for `Run`.
    Bring {
        brings: Vec<crate::roster::Bring>,
        then: Option<Mode>,
    },
    /// Undo this many commands, then back to the tracker.
    Undo(usize),
    /// Redo this many commands, then back to the tracker.
    Redo(usize),
    /// News for the status line; the room stays open.
    Say(String),
    /// The room's answer for the status line; back to the tracker.
    Answer(String),
    /// A refusal of the room's own (nothing to pick, a bad value): the status line, and stay.
    Fail(String),
    /// Put the order pane's selection here; the room stays or closes.
    Select(tracker::Selection, After),
}

/// Whether a room stays open after what it asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    Stay,
    Close,
}

impl Outcome {
    /// Run a command, then back to the tracker.
    pub fn run(cmd: Command) -> Self {
        Outcome::Run { cmd, then: None }
    }
}

/// A list's selection after Up or Down, kept inside the list.
pub fn step(selected: usize, len: usize, action: Action) -> usize {
    match action {
        Action::Up => selected.saturating_sub(1),
        Action::Down => (selected + 1).min(len.saturating_sub(1)),
        _ => selected,
    }
}

/// The combatants as the order pane lists them: the order, then anyone not yet in it.
pub fn roster(s: &State) -> Vec<CombatantId> {
    s.roster()
}

/// Where a name typed to jump leads, from `from` on (wrapping): the first name it starts (any
/// case, spaces ignored), else the first holding it, else the first with its letters in order
/// ("g3" finds "Ganger 3").
pub fn find_name<'a>(
    names: impl IntoIterator<Item = &'a str>,
    typed: &str,
    from: usize,
) -> Option<usize> {
    // Without emoji joiners and selectors, as names are kept (`text::unjoined`), whether the
    // letters were typed, pasted or the name came from an older save.
    let squash = |s: &str| -> String {
        crate::text::unjoined(s)
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let typed = squash(typed);
    if typed.is_empty() {
        return None;
    }
    let names: Vec<String> = names.into_iter().map(squash).collect();
    let in_order = |name: &str| {
        let mut rest = name.chars();
        typed.chars().all(|t| rest.any(|c| c == t))
    };
    let tests: [&dyn Fn(&str) -> bool; 3] = [
        &|n: &str| n.starts_with(&typed),
        &|n: &str| n.contains(&typed),
        &in_order,
    ];
    let n = names.len();
    tests
        .iter()
        .find_map(|test| (0..n).map(|k| (from + k) % n).find(|&i| test(&names[i])))
}

/// What a room sees of the engine: read-only.
pub struct Ctx<'a> {
    pub enc: &'a Encounter,
    /// The combatants as the order pane lists them.
    pub roster: Vec<CombatantId>,
    /// The combatant selected in the order pane.
    pub selected: Option<CombatantId>,
    /// The combatants marked in the order pane, present ones only, in the order marked.
    pub marks: Vec<CombatantId>,
    /// The screen's size (a room pages by it).
    pub screen: (u16, u16),
    /// The lines `PgUp`/`PgDn` move the tracker's focused pane by: its rows in sight less one,
    /// so the line at its edge stays in sight (as `less` pages); App measures it.
    pub page: usize,
    /// The sheets kept between fights, when the screen has a data directory.
    pub sheets: Option<&'a Roster>,
}

impl<'a> Ctx<'a> {
    /// What the rooms see, with the order pane as the tracker's state has it.
    pub fn new(enc: &'a Encounter, tracker: &tracker::State) -> Self {
        let roster = roster(enc.state());
        let selected = tracker.selected(enc.state(), &roster);
        let marks = tracker
            .marks
            .iter()
            .copied()
            .filter(|id| roster.contains(id))
            .collect();
        Self {
            enc,
            roster,
            selected,
            marks,
            screen: (0, 0),
            page: 1,
            sheets: None,
        }
    }

    /// The same, for a screen of this size.
    #[must_use]
    pub fn on_screen(mut self, size: (u16, u16)) -> Self {
        self.screen = size;
        self
    }

    pub fn state(&self) -> &'a State {
        self.enc.state()
    }

    pub fn catalogue(&self) -> &'a Catalogue {
        self.enc.catalogue()
    }

    /// The character whose turn it is, or who narrates.
    pub fn actor(&self) -> Option<CombatantId> {
        self.enc.state().acting()
    }

    /// Who damage, healing and statuses aim at: the marked characters, or else the selected one.
    pub fn targets(&self) -> Vec<CombatantId> {
        if self.marks.is_empty() {
            self.selected.into_iter().collect()
        } else {
            self.marks.clone()
        }
    }

    /// Why the engine would refuse a command, asked without rolling (to grey out a choice):
    /// another system's command in the command line's sentence, this table's forms in it.
    pub fn refusal(&self, cmd: Command) -> Option<String> {
        self.preview(cmd).err()
    }

    /// The engine's refusal of a command as the error it is, for a list that tells one kind of
    /// refusal from another; [`Ctx::said`] words it as [`Ctx::refusal`] does.
    pub fn refused(&self, cmd: Command) -> Option<RuleError> {
        self.enc.preview(cmd).err()
    }

    /// A refusal in the screen's words: this table's forms in it.
    pub fn said(e: RuleError) -> String {
        crate::lang::synopses::with_forms(e).to_string()
    }

    /// What a command would do, asked without rolling (a list shows where a move would lead).
    pub fn preview(&self, cmd: Command) -> Result<Vec<Event>, String> {
        self.enc.preview(cmd).map_err(Self::said)
    }
}

#[cfg(test)]
mod tests;
