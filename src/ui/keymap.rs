//! The one keymap table: dispatch, the key bar and the help all read it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;
use crate::encounter::system::{Family, System};
use crate::encounter::{Phase, Side, State};
use crate::rules::ActionType;

/// Which mode a binding belongs to; `Any` works in every mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModeKind {
    Any,
    Tracker,
    Picker,
    /// The action picker choosing for a ready: the picker's keys, and its own.
    ReadyPicker,
    /// The action picker choosing an interrupt: one list, no groups to step through.
    InterruptPicker,
    Form,
    Command,
    Choose,
    /// Anarchy's Plot Point menu.
    PlotPoints,
    Find,
    Help,
    /// The terminal is below 80×24: only quitting works.
    TooSmall,
    /// `srtrack watch`, the players' view: it only quits.
    Watch,
}

impl ModeKind {
    pub fn label(self) -> &'static str {
        match self {
            ModeKind::Any => "Everywhere",
            ModeKind::Tracker => "Tracker",
            ModeKind::Picker => "Action picker",
            ModeKind::ReadyPicker => "Action picker for a ready",
            ModeKind::InterruptPicker => "Action picker for an interrupt",
            ModeKind::Form => "Form",
            ModeKind::Command => "Command line",
            ModeKind::Choose => "Choice list",
            ModeKind::PlotPoints => "Plot Point menu",
            ModeKind::Find => "Find a name",
            ModeKind::Help => "Help",
            ModeKind::TooSmall => "Terminal too small",
            ModeKind::Watch => "Players' view",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyBinding {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn key(c: char) -> KeyBinding {
    KeyBinding {
        code: KeyCode::Char(c),
        mods: KeyModifiers::NONE,
    }
}

const fn ctrl(c: char) -> KeyBinding {
    KeyBinding {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
    }
}

const fn code(code: KeyCode) -> KeyBinding {
    KeyBinding {
        code,
        mods: KeyModifiers::NONE,
    }
}

impl KeyBinding {
    /// Whether a key event is this binding. Shift is part of the character for letters,
    /// so it is ignored there (terminals differ on reporting it).
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        let (code, mods) = match ev.code {
            KeyCode::Char(c) => (KeyCode::Char(c), ev.modifiers - KeyModifiers::SHIFT),
            KeyCode::BackTab => (KeyCode::BackTab, ev.modifiers - KeyModifiers::SHIFT),
            other => (other, ev.modifiers),
        };
        let want = self.mods - KeyModifiers::SHIFT;
        code == self.code && mods == want
    }

    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        if self.mods.contains(KeyModifiers::CONTROL) {
            format!("C-{base}")
        } else {
            base
        }
    }
}

/// (mode, key, action, label). Order is the order of the help and the priority of the key bar
/// (which shows what fits of the mode's keys, the first key of each, and always help last).
pub const KEYMAP: &[(ModeKind, KeyBinding, Action, &str)] = &[
    (ModeKind::Any, ctrl('c'), Action::Quit, "quit"),
    // `?` is a character in the text modes: F1 opens the help everywhere.
    (ModeKind::Any, code(KeyCode::F(1)), Action::Help, "help"),
    (ModeKind::TooSmall, key('q'), Action::Quit, "quit"),
    (ModeKind::Watch, key('q'), Action::Quit, "quit"),
    (ModeKind::Watch, code(KeyCode::Esc), Action::Quit, "quit"),
    // Tracker
    (ModeKind::Tracker, code(KeyCode::Enter), Action::Act, "act"),
    (ModeKind::Tracker, key('n'), Action::Next, "next"),
    (ModeKind::Tracker, key(' '), Action::Next, "next"),
    // Anarchy's own (keymap::family): narrations, the Plot Point menu, tests, Cooldowns.
    (
        ModeKind::Tracker,
        key('n'),
        Action::Narrate,
        "next (narration)",
    ),
    (
        ModeKind::Tracker,
        key(' '),
        Action::Narrate,
        "next (narration)",
    ),
    (
        ModeKind::Tracker,
        key('N'),
        Action::NarrateSelected,
        "narrate now (Shake It Up)",
    ),
    (
        ModeKind::Tracker,
        key('p'),
        Action::PlotPoints,
        "Plot Points",
    ),
    (
        ModeKind::Tracker,
        key('t'),
        Action::AnarchyTest,
        "test (Anarchy)",
    ),
    (ModeKind::Tracker, key('c'), Action::Cooldown, "Cooldown"),
    (ModeKind::Tracker, key('a'), Action::Add, "add"),
    (
        ModeKind::Tracker,
        key('r'),
        Action::RollAll,
        "roll unrolled",
    ),
    (ModeKind::Tracker, key('R'), Action::RollNpcs, "roll NPCs"),
    (ModeKind::Tracker, key('t'), Action::TypeRoll, "initiative"),
    (ModeKind::Tracker, key('s'), Action::Start, "start"),
    // Shadowrun 2097's own (keymap::family): `c` is Anarchy's Cooldown there, never both.
    // After the keys that set a fight up, which the bar keeps before them at 80 columns.
    (ModeKind::Tracker, key('c'), Action::Check, "success check"),
    (
        ModeKind::Tracker,
        key('w'),
        Action::DamageRoll,
        "damage roll",
    ),
    (ModeKind::Tracker, key('G'), Action::EdgeMenu, "Edge (2097)"),
    (ModeKind::Tracker, key('i'), Action::Interrupt, "interrupt"),
    (ModeKind::Tracker, key('d'), Action::Delay, "delay"),
    (ModeKind::Tracker, key('y'), Action::Ready, "ready"),
    (ModeKind::Tracker, key('h'), Action::Damage, "damage"),
    (ModeKind::Tracker, key('H'), Action::Heal, "heal"),
    // Anarchy's Edge on seeing a roll (`g` is Edge for IP where there are passes).
    (
        ModeKind::Tracker,
        key('g'),
        Action::EdgeAfter,
        "Edge re-roll",
    ),
    (ModeKind::Tracker, key('m'), Action::Move, "move"),
    (ModeKind::Tracker, key('v'), Action::Mark, "mark"),
    (ModeKind::Tracker, key('V'), Action::UnmarkAll, "unmark all"),
    (ModeKind::Tracker, key('/'), Action::Find, "find a name"),
    (ModeKind::Tracker, key('+'), Action::AddStatus, "add status"),
    (
        ModeKind::Tracker,
        key('-'),
        Action::ClearStatus,
        "clear status",
    ),
    (ModeKind::Tracker, key('f'), Action::Fire, "fire ready"),
    (ModeKind::Tracker, key('g'), Action::Edge, "Edge for IP"),
    (
        ModeKind::Tracker,
        key('z'),
        Action::ToggleDowned,
        "Downed on/off",
    ),
    (
        ModeKind::Tracker,
        key('W'),
        Action::ToggleHidden,
        "hidden from players on/off",
    ),
    (ModeKind::Tracker, key('e'), Action::Edit, "edit"),
    (ModeKind::Tracker, key('x'), Action::Remove, "remove"),
    (
        ModeKind::Tracker,
        key('1'),
        Action::SpendType(ActionType::Free),
        "Free action",
    ),
    (
        ModeKind::Tracker,
        key('2'),
        Action::SpendType(ActionType::Simple),
        "Simple action",
    ),
    (
        ModeKind::Tracker,
        key('3'),
        Action::SpendType(ActionType::Complex),
        "Complex action",
    ),
    (ModeKind::Tracker, key('u'), Action::Undo, "undo"),
    (ModeKind::Tracker, ctrl('r'), Action::Redo, "redo"),
    (ModeKind::Tracker, key(':'), Action::CommandLine, "command"),
    // SR5 only (`family`): a test with live odds; the next step of an attack under way.
    (ModeKind::Tracker, key('T'), Action::Test, "test"),
    (
        ModeKind::Tracker,
        key('A'),
        Action::AttackStep,
        "attack: next step",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::Tab),
        Action::FocusNext,
        "focus pane",
    ),
    (
        ModeKind::Tracker,
        key('j'),
        Action::Down,
        "down (selection, or the focused pane)",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::Down),
        Action::Down,
        "down (selection, or the focused pane)",
    ),
    (
        ModeKind::Tracker,
        key('k'),
        Action::Up,
        "up (selection, or the focused pane)",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::Up),
        Action::Up,
        "up (selection, or the focused pane)",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::PageUp),
        Action::PageUp,
        "page up",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::PageDown),
        Action::PageDown,
        "page down",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::Esc),
        Action::Cancel,
        "select the actor",
    ),
    (ModeKind::Tracker, key('E'), Action::End, "end encounter"),
    (ModeKind::Tracker, key('q'), Action::Quit, "quit"),
    (ModeKind::Tracker, key('?'), Action::Help, "help"),
    // Picker
    (
        ModeKind::Picker,
        code(KeyCode::Enter),
        Action::Confirm,
        "spend",
    ),
    (
        ModeKind::Picker,
        code(KeyCode::Esc),
        Action::Cancel,
        "close",
    ),
    (
        ModeKind::Picker,
        code(KeyCode::Tab),
        Action::NextGroup,
        "next group",
    ),
    (
        ModeKind::Picker,
        code(KeyCode::BackTab),
        Action::PrevGroup,
        "previous group",
    ),
    (ModeKind::Picker, code(KeyCode::Up), Action::Up, "up"),
    (ModeKind::Picker, code(KeyCode::Down), Action::Down, "down"),
    // The interrupt picker: interrupts are listed by their type, not their group, so it has
    // no groups to step through (the picker's Tab and S-Tab).
    (
        ModeKind::InterruptPicker,
        code(KeyCode::Enter),
        Action::Confirm,
        "spend",
    ),
    (
        ModeKind::InterruptPicker,
        code(KeyCode::Esc),
        Action::Cancel,
        "close",
    ),
    (
        ModeKind::InterruptPicker,
        code(KeyCode::Up),
        Action::Up,
        "up",
    ),
    (
        ModeKind::InterruptPicker,
        code(KeyCode::Down),
        Action::Down,
        "down",
    ),
    // The ready picker: its own rows, then the picker's (`parent`) that it does not rebind.
    (
        ModeKind::ReadyPicker,
        code(KeyCode::Enter),
        Action::Confirm,
        "add this and declare",
    ),
    (
        ModeKind::ReadyPicker,
        ctrl('n'),
        Action::AddMore,
        "add more",
    ),
    (
        ModeKind::ReadyPicker,
        ctrl('d'),
        Action::Declare,
        "declare those chosen",
    ),
    // Form
    (
        ModeKind::Form,
        code(KeyCode::Enter),
        Action::Confirm,
        "submit",
    ),
    (ModeKind::Form, code(KeyCode::Esc), Action::Cancel, "cancel"),
    (
        ModeKind::Form,
        code(KeyCode::Tab),
        Action::NextField,
        "next field",
    ),
    (
        ModeKind::Form,
        code(KeyCode::Down),
        Action::NextField,
        "next field",
    ),
    (
        ModeKind::Form,
        code(KeyCode::BackTab),
        Action::PrevField,
        "previous field",
    ),
    (
        ModeKind::Form,
        code(KeyCode::Up),
        Action::PrevField,
        "previous field",
    ),
    // Command line
    (
        ModeKind::Command,
        code(KeyCode::Enter),
        Action::Confirm,
        "run",
    ),
    (
        ModeKind::Command,
        code(KeyCode::Esc),
        Action::Cancel,
        "cancel",
    ),
    (
        ModeKind::Command,
        code(KeyCode::Tab),
        Action::Complete,
        "complete",
    ),
    // Choice list: letters jump to a name, so only the arrows move.
    (
        ModeKind::Choose,
        code(KeyCode::Enter),
        Action::Confirm,
        "choose",
    ),
    (
        ModeKind::Choose,
        code(KeyCode::Esc),
        Action::Cancel,
        "cancel",
    ),
    (ModeKind::Choose, code(KeyCode::Up), Action::Up, "up"),
    (ModeKind::Choose, code(KeyCode::Down), Action::Down, "down"),
    (
        ModeKind::Choose,
        code(KeyCode::Home),
        Action::First,
        "first",
    ),
    (ModeKind::Choose, code(KeyCode::End), Action::Last, "last"),
    (
        ModeKind::Choose,
        code(KeyCode::PageUp),
        Action::PageUp,
        "page up",
    ),
    (
        ModeKind::Choose,
        code(KeyCode::PageDown),
        Action::PageDown,
        "page down",
    ),
    // Plot Point menu
    (
        ModeKind::PlotPoints,
        code(KeyCode::Enter),
        Action::Confirm,
        "spend",
    ),
    (
        ModeKind::PlotPoints,
        code(KeyCode::Esc),
        Action::Cancel,
        "close",
    ),
    (ModeKind::PlotPoints, code(KeyCode::Up), Action::Up, "up"),
    (ModeKind::PlotPoints, key('k'), Action::Up, "up"),
    (
        ModeKind::PlotPoints,
        code(KeyCode::Down),
        Action::Down,
        "down",
    ),
    (ModeKind::PlotPoints, key('j'), Action::Down, "down"),
    (
        ModeKind::PlotPoints,
        code(KeyCode::Home),
        Action::First,
        "first",
    ),
    (
        ModeKind::PlotPoints,
        code(KeyCode::End),
        Action::Last,
        "last",
    ),
    (
        ModeKind::PlotPoints,
        code(KeyCode::PageUp),
        Action::PageUp,
        "page up",
    ),
    (
        ModeKind::PlotPoints,
        code(KeyCode::PageDown),
        Action::PageDown,
        "page down",
    ),
    // Find a name
    (
        ModeKind::Find,
        code(KeyCode::Enter),
        Action::Confirm,
        "keep",
    ),
    (
        ModeKind::Find,
        code(KeyCode::Esc),
        Action::Cancel,
        "back to where it was",
    ),
    (
        ModeKind::Find,
        code(KeyCode::Tab),
        Action::Complete,
        "next name that fits",
    ),
    // Help
    (ModeKind::Help, code(KeyCode::Esc), Action::Cancel, "close"),
    (ModeKind::Help, key('?'), Action::Cancel, "close"),
    (ModeKind::Help, key('q'), Action::Cancel, "close"),
    (ModeKind::Help, code(KeyCode::F(1)), Action::Cancel, "close"),
    (ModeKind::Help, key('j'), Action::Down, "scroll down"),
    (
        ModeKind::Help,
        code(KeyCode::Down),
        Action::Down,
        "scroll down",
    ),
    (ModeKind::Help, key('k'), Action::Up, "scroll up"),
    (ModeKind::Help, code(KeyCode::Up), Action::Up, "scroll up"),
    (
        ModeKind::Help,
        code(KeyCode::PageUp),
        Action::PageUp,
        "page up",
    ),
    (
        ModeKind::Help,
        code(KeyCode::PageDown),
        Action::PageDown,
        "page down",
    ),
];

/// The rule systems a key's action serves, in the engine's own families: the initiative-pass
/// machine's keys are not offered in a narration game, and a system's own keys only in it.
/// A new key owned by one system gets its arm here (`Action::Test => Family::Own(System::Sr5)`).
pub fn family(action: Action) -> Family {
    match action {
        Action::RollAll
        | Action::RollNpcs
        | Action::TypeRoll
        | Action::Start
        | Action::Next
        | Action::Act
        | Action::SpendType(_)
        | Action::Interrupt
        | Action::Delay
        | Action::Ready
        | Action::Fire
        | Action::Move
        | Action::Edge => Family::Passes,
        Action::Check | Action::DamageRoll | Action::EdgeMenu => Family::Own(System::Sr2097),
        Action::Narrate
        | Action::NarrateSelected
        | Action::PlotPoints
        | Action::AnarchyTest
        | Action::EdgeAfter
        | Action::Cooldown => Family::Own(System::Anarchy),
        Action::Test | Action::AttackStep => Family::Own(System::Sr5),
        _ => Family::Shared,
    }
}

/// The rule systems a mode serves: Anarchy's Plot Point menu opens only at an Anarchy table,
/// the action pickers (acting, a ready, an interrupt) only where there are initiative passes.
pub fn mode_family(mode: ModeKind) -> Family {
    match mode {
        ModeKind::PlotPoints => Family::Own(System::Anarchy),
        ModeKind::Picker | ModeKind::ReadyPicker | ModeKind::InterruptPicker => Family::Passes,
        _ => Family::Shared,
    }
}

/// The mode whose keys a mode takes too, where it does not bind them itself: the ready
/// picker is the action picker with keys of its own.
pub fn parent(mode: ModeKind) -> Option<ModeKind> {
    match mode {
        ModeKind::ReadyPicker => Some(ModeKind::Picker),
        _ => None,
    }
}

/// The table's rows of a mode: its own, then its parent's whose key it does not bind itself.
fn rows(
    mode: ModeKind,
) -> impl Iterator<Item = &'static (ModeKind, KeyBinding, Action, &'static str)> {
    let own = KEYMAP.iter().filter(move |e| e.0 == mode);
    let inherited = KEYMAP.iter().filter(move |e| {
        Some(e.0) == parent(mode) && !KEYMAP.iter().any(|o| o.0 == mode && o.1 == e.1)
    });
    own.chain(inherited)
}

/// Whether a row of the table serves the encounter's system.
fn serves(action: Action, system: System) -> bool {
    family(action).systems().contains(&system)
}

/// Whether a key that works everywhere works in this mode: the too-small screen has room for
/// nothing but quitting (no help to show); the help does not offer itself (F1 closes it).
fn everywhere_in(mode: ModeKind, action: Action) -> bool {
    mode != ModeKind::Any
        && (mode != ModeKind::TooSmall || action == Action::Quit)
        && !(mode == ModeKind::Help && action == Action::Help)
}

/// The action bound to a key in a mode (mode bindings first, then `Any`), for this system.
pub fn lookup(mode: ModeKind, system: System, ev: &KeyEvent) -> Option<Action> {
    let found = |m: ModeKind| rows(m).find(|(_, k, a, _)| serves(*a, system) && k.matches(ev));
    found(mode)
        .or_else(|| {
            found(ModeKind::Any).filter(|e| mode == ModeKind::Any || everywhere_in(mode, e.2))
        })
        .map(|(_, _, a, _)| *a)
}

/// What a key does in the other rule systems, when it does nothing in this one: one sentence
/// for the status line (`c is Cooldown in Shadowrun: Anarchy and success check in Shadowrun
/// 2097; this table plays SR5`), read from the table's rows for the mode.
pub fn elsewhere(mode: ModeKind, system: System, ev: &KeyEvent) -> Option<String> {
    let mut uses: Vec<String> = Vec::new();
    let mut label = None;
    for (_, k, a, what) in rows(mode).filter(|(_, k, a, _)| !serves(*a, system) && k.matches(ev)) {
        let systems: Vec<System> = family(*a)
            .systems()
            .iter()
            .copied()
            .filter(|s| *s != system)
            .collect();
        let one = format!("{what} in {}", crate::encounter::system::list(&systems));
        if !uses.contains(&one) {
            uses.push(one);
        }
        label.get_or_insert_with(|| k.label());
    }
    let key = label?;
    Some(format!(
        "{key} is {}; this table plays {system}",
        uses.join(" and ")
    ))
}

/// The bindings of a mode in this system, for the key bar and the help: one entry per action,
/// keys joined.
pub fn bindings(mode: ModeKind, system: System) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str, Action)> = Vec::new();
    if !mode_family(mode).systems().contains(&system) {
        return Vec::new();
    }
    // The mode's own keys first, the keys that work everywhere last.
    let any = KEYMAP
        .iter()
        .filter(|e| e.0 == ModeKind::Any && everywhere_in(mode, e.2));
    for (_, k, a, label) in rows(mode).chain(any).filter(|e| serves(e.2, system)) {
        if let Some(e) = out.iter_mut().find(|e| e.2 == *a && e.1 == *label) {
            e.0.push('/');
            e.0.push_str(&k.label());
        } else {
            out.push((k.label(), label, *a));
        }
    }
    out.into_iter().map(|(k, l, _)| (k, l)).collect()
}

/// The first key of `action` in a mode for this system, as the key bar writes it (`W`): what
/// the help's prose names, so that it cannot tell another key than the table binds.
pub fn key_for(mode: ModeKind, system: System, action: Action) -> Option<String> {
    rows(mode)
        .find(|e| e.2 == action && serves(action, system))
        .map(|e| e.1.label())
}

/// Whether an action only moves about (a selection, a field, a group, a pane, a page): the key
/// bar gives these up first when it is short of room, keeping the mode's own actions.
pub fn navigation(action: Action) -> bool {
    matches!(
        action,
        Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::First
            | Action::Last
            | Action::FocusNext
            | Action::NextGroup
            | Action::PrevGroup
            | Action::NextField
            | Action::PrevField
    )
}

/// The key bar's entries for a mode and system: one per action, its first key only, in the
/// table's order.
pub fn bar(mode: ModeKind, system: System) -> Vec<(String, &'static str, Action)> {
    let mut out: Vec<(String, &'static str, Action)> = Vec::new();
    let own = rows(mode).filter(|e| serves(e.2, system));
    let any = KEYMAP
        .iter()
        .filter(|e| e.0 == ModeKind::Any && everywhere_in(mode, e.2) && serves(e.2, system));
    for (_, k, a, label) in own.chain(any) {
        if !out.iter().any(|e| e.2 == *a && e.1 == *label) {
            out.push((k.label(), label, *a));
        }
    }
    out
}

/// Whether a tracker key works on a read-only screen (a save another srtrack holds, one opened
/// to view): it reads, finds, marks or moves about, and changes nothing.
pub fn reads(action: Action) -> bool {
    matches!(
        action,
        Action::CommandLine
            | Action::Find
            | Action::Mark
            | Action::UnmarkAll
            | Action::FocusNext
            | Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Cancel
            | Action::Quit
            | Action::Help
    )
}

/// What the phase of the fight says of the tracker's keys: all that the key bar reads of the
/// encounter, so that the bar is kept while it is the same (a turn moving on leaves it).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Uses {
    /// Before the fight; whether nobody is on the roster yet (then only adding and the keys
    /// that need nobody serve), and who has no initiative yet.
    Setup {
        nobody: bool,
        unrolled: Unrolled,
    },
    /// In a fight; who present has no initiative yet, and whether a step of an attack (a
    /// defense, a soak) waits on `A`.
    Fight {
        unrolled: Unrolled,
        step_waits: bool,
    },
    /// The encounter has ended: it can be read and undone, nothing else.
    Ended,
    Other,
}

/// Who present has no initiative yet: `r` rolls them all, `R` the NPCs among them.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unrolled {
    Nobody,
    PcsOnly,
    Npcs,
}

impl Unrolled {
    fn of(s: &State) -> Self {
        let mut out = Self::Nobody;
        for c in s.present().filter(|c| c.initiative.is_none()) {
            if c.side == Side::Npc {
                return Self::Npcs;
            }
            out = Self::PcsOnly;
        }
        out
    }

    /// Whether a key that rolls the unrolled has anyone to roll.
    fn rolls_someone(self, action: Action) -> bool {
        match action {
            Action::RollAll => self != Self::Nobody,
            Action::RollNpcs => self == Self::Npcs,
            _ => true,
        }
    }
}

impl Uses {
    pub fn of(s: &State) -> Self {
        match &s.phase {
            Phase::Setup => Self::Setup {
                nobody: s.present().next().is_none(),
                unrolled: Unrolled::of(s),
            },
            Phase::Fight(_) => Self::Fight {
                unrolled: Unrolled::of(s),
                step_waits: !s.sr5.pending.is_empty(),
            },
            Phase::Ended { .. } => Self::Ended,
            Phase::Narration(_) => Self::Other,
        }
    }

    /// Whether a tracker key does anything in this phase (the help lists them all).
    pub fn serve(self, action: Action) -> bool {
        match (self, action) {
            // Reading the screen, undoing, the command line and quitting: all an ended
            // encounter takes (the engine refuses the rest).
            (Self::Ended, a) => reads(a) || matches!(a, Action::Undo | Action::Redo),
            // Every other key wants someone: adding comes first.
            (Self::Setup { nobody: true, .. }, a) => matches!(
                a,
                Action::Add
                    | Action::Undo
                    | Action::Redo
                    | Action::CommandLine
                    | Action::FocusNext
                    | Action::Up
                    | Action::Down
                    | Action::PageUp
                    | Action::PageDown
                    | Action::Quit
                    | Action::Help
            ),
            (
                Self::Setup { .. },
                Action::Act
                | Action::Next
                | Action::Interrupt
                | Action::Delay
                | Action::Ready
                | Action::Fire
                | Action::Move
                | Action::Edge
                | Action::SpendType(_)
                | Action::End,
            )
            | (Self::Fight { .. }, Action::Start) => false,
            // Everyone rolled: typing a roll does nothing more in a fight (before it, it
            // rolls again).
            (Self::Fight { unrolled, .. }, Action::TypeRoll) => unrolled != Unrolled::Nobody,
            (Self::Setup { unrolled, .. } | Self::Fight { unrolled, .. }, a) => {
                unrolled.rolls_someone(a)
            }
            _ => true,
        }
    }

    /// The key the fight waits on, first on the key bar: at 80 columns the table's order
    /// would leave it off, and it is what the GM must press next.
    pub fn first(self) -> Option<Action> {
        match self {
            Self::Fight {
                step_waits: true, ..
            } => Some(Action::AttackStep),
            _ => None,
        }
    }
}

/// The key that goes with `action` on the key bar (`↑` with `↓`): short of room, the two show
/// together or not at all.
pub fn pair(action: Action) -> Option<Action> {
    Some(match action {
        Action::Up => Action::Down,
        Action::Down => Action::Up,
        Action::First => Action::Last,
        Action::Last => Action::First,
        Action::PageUp => Action::PageDown,
        Action::PageDown => Action::PageUp,
        Action::NextGroup => Action::PrevGroup,
        Action::PrevGroup => Action::NextGroup,
        Action::NextField => Action::PrevField,
        Action::PrevField => Action::NextField,
        _ => return None,
    })
}

/// How soon a key gives way on a key bar short of room (0: the mode's own actions, kept the
/// longest): the moving keys after them, the most used last to go (`↑`/`↓`, then Home/End,
/// pages, `Tab` between panes, fields or groups), quitting first to go.
pub fn gives_way(action: Action) -> u8 {
    match action {
        Action::Up | Action::Down => 1,
        Action::First | Action::Last => 2,
        Action::PageUp | Action::PageDown => 3,
        a if navigation(a) => 4,
        Action::Quit => 5,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    /// Where letters are text (a name to jump to, a filter, a field), no letter is a key.
    #[test]
    fn rooms_that_take_text_bind_no_letter() {
        for mode in [
            ModeKind::Choose,
            ModeKind::Find,
            ModeKind::Command,
            ModeKind::Form,
            ModeKind::Picker,
            ModeKind::ReadyPicker,
            ModeKind::InterruptPicker,
        ] {
            for system in [System::Sr5, System::Sr2097, System::Anarchy] {
                for c in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
                    assert_eq!(lookup(mode, system, &ev(c)), None, "{mode:?} {c}");
                }
            }
        }
    }

    #[test]
    fn the_help_closes_on_f1_and_does_not_offer_itself() {
        let f1 = KeyEvent::new(KeyCode::F(1), KeyModifiers::NONE);
        assert_eq!(
            lookup(ModeKind::Help, System::Sr5, &f1),
            Some(Action::Cancel)
        );
        for system in [System::Sr5, System::Sr2097, System::Anarchy] {
            let bar = bar(ModeKind::Help, system);
            assert!(bar.iter().all(|e| e.2 != Action::Help), "{bar:?}");
            let shown = bindings(ModeKind::Help, system);
            assert!(shown.iter().all(|(_, l)| *l != "help"), "{shown:?}");
        }
    }

    #[test]
    fn the_too_small_screen_only_quits() {
        let f1 = KeyEvent::new(KeyCode::F(1), KeyModifiers::NONE);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(lookup(ModeKind::TooSmall, System::Sr5, &f1), None);
        assert_eq!(
            lookup(ModeKind::Tracker, System::Sr5, &f1),
            Some(Action::Help)
        );
        assert_eq!(
            lookup(ModeKind::TooSmall, System::Sr5, &ctrl_c),
            Some(Action::Quit)
        );
        let shown: Vec<_> = bindings(ModeKind::TooSmall, System::Sr5);
        assert!(shown.iter().all(|(_, l)| *l == "quit"), "{shown:?}");
    }

    #[test]
    fn initiative_pass_keys_serve_sr5_and_2097_not_anarchy() {
        for system in [System::Sr5, System::Sr2097] {
            assert_eq!(
                lookup(ModeKind::Tracker, system, &ev('d')),
                Some(Action::Delay)
            );
        }
        assert_eq!(lookup(ModeKind::Tracker, System::Anarchy, &ev('d')), None);
        let bar = bindings(ModeKind::Tracker, System::Anarchy);
        assert!(bar.iter().all(|(_, l)| *l != "delay" && *l != "next"));
        // What every system shares stays: damage, statuses, undo, the command line.
        assert_eq!(
            lookup(ModeKind::Tracker, System::Anarchy, &ev('h')),
            Some(Action::Damage)
        );
        assert!(bar.iter().any(|(_, l)| *l == "undo"));
    }

    #[test]
    fn shadowrun_2097s_keys_serve_2097_only() {
        assert_eq!(
            lookup(ModeKind::Tracker, System::Sr2097, &ev('c')),
            Some(Action::Check)
        );
        assert_eq!(
            lookup(ModeKind::Tracker, System::Sr2097, &ev('G')),
            Some(Action::EdgeMenu)
        );
        for system in [System::Sr5, System::Anarchy] {
            for c in ['c', 'w', 'G'] {
                let found = lookup(ModeKind::Tracker, system, &ev(c));
                assert!(
                    !matches!(
                        found,
                        Some(Action::Check | Action::DamageRoll | Action::EdgeMenu)
                    ),
                    "{c}"
                );
            }
            let bar = bindings(ModeKind::Tracker, system);
            assert!(bar.iter().all(|(_, l)| *l != "success check"));
        }
    }

    #[test]
    fn within_one_system_a_key_of_a_mode_does_one_thing() {
        let modes: Vec<ModeKind> = KEYMAP.iter().map(|e| e.0).collect();
        for system in [System::Sr5, System::Sr2097, System::Anarchy] {
            for mode in &modes {
                let rows: Vec<_> = KEYMAP
                    .iter()
                    .filter(|e| e.0 == *mode && serves(e.2, system))
                    .collect();
                for (i, a) in rows.iter().enumerate() {
                    for b in &rows[i + 1..] {
                        assert!(
                            a.1.label() != b.1.label() || a.2 == b.2,
                            "{system}: {} in {} is both {:?} and {:?}",
                            a.1.label(),
                            mode.label(),
                            a.2,
                            b.2
                        );
                    }
                }
            }
        }
        // The letters 2097 shares with Anarchy do each system's own thing.
        assert_eq!(
            lookup(ModeKind::Tracker, System::Anarchy, &ev('c')),
            Some(Action::Cooldown)
        );
        assert_eq!(
            lookup(ModeKind::Tracker, System::Sr2097, &ev('t')),
            Some(Action::TypeRoll)
        );
    }

    #[test]
    fn anarchy_keys_serve_anarchy_only_and_reuse_keys_of_the_passes() {
        assert_eq!(
            lookup(ModeKind::Tracker, System::Anarchy, &ev('n')),
            Some(Action::Narrate)
        );
        assert_eq!(
            lookup(ModeKind::Tracker, System::Sr5, &ev('n')),
            Some(Action::Next)
        );
        assert_eq!(
            lookup(ModeKind::Tracker, System::Anarchy, &ev('p')),
            Some(Action::PlotPoints)
        );
        for system in [System::Sr5, System::Sr2097] {
            assert_eq!(lookup(ModeKind::Tracker, system, &ev('p')), None);
            assert!(
                bindings(ModeKind::Tracker, system)
                    .iter()
                    .all(|(_, l)| *l != "Plot Points" && *l != "next (narration)")
            );
        }
        let bar = bindings(ModeKind::Tracker, System::Anarchy);
        assert!(
            bar.iter()
                .any(|(k, l)| k == "n/Space" && *l == "next (narration)")
        );
        assert!(bar.iter().all(|(_, l)| *l != "roll all" && *l != "start"));
        // `g`: Edge for IP in passes, Edge on seeing a roll at an Anarchy table.
        assert_eq!(
            lookup(ModeKind::Tracker, System::Anarchy, &ev('g')),
            Some(Action::EdgeAfter)
        );
        for system in [System::Sr5, System::Sr2097] {
            assert_eq!(
                lookup(ModeKind::Tracker, system, &ev('g')),
                Some(Action::Edge)
            );
        }
    }
}
