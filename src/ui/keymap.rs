//! The one keymap table: dispatch, the key bar and the help all read it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;
use crate::encounter::system::{Family, System};
use crate::rules::ActionType;

/// Which mode a binding belongs to; `Any` works in every mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeKind {
    Any,
    Tracker,
    Picker,
    Form,
    Command,
    Choose,
    Help,
    /// The terminal is below 80×24: only quitting works.
    TooSmall,
}

impl ModeKind {
    pub fn label(self) -> &'static str {
        match self {
            ModeKind::Any => "Everywhere",
            ModeKind::Tracker => "Tracker",
            ModeKind::Picker => "Action picker",
            ModeKind::Form => "Form",
            ModeKind::Command => "Command line",
            ModeKind::Choose => "Choice list",
            ModeKind::Help => "Help",
            ModeKind::TooSmall => "Terminal too small",
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

/// (mode, key, action, label). Order is the order of the key bar and the help.
pub const KEYMAP: &[(ModeKind, KeyBinding, Action, &str)] = &[
    (ModeKind::Any, ctrl('c'), Action::Quit, "quit"),
    // `?` is a character in the text modes: F1 opens the help everywhere.
    (ModeKind::Any, code(KeyCode::F(1)), Action::Help, "help"),
    (ModeKind::TooSmall, key('q'), Action::Quit, "quit"),
    // Tracker
    (ModeKind::Tracker, key('?'), Action::Help, "help"),
    (ModeKind::Tracker, key('q'), Action::Quit, "quit"),
    (ModeKind::Tracker, code(KeyCode::Enter), Action::Act, "act"),
    (ModeKind::Tracker, key('n'), Action::Next, "next turn"),
    (ModeKind::Tracker, key(' '), Action::Next, "next turn"),
    (ModeKind::Tracker, key('u'), Action::Undo, "undo"),
    (ModeKind::Tracker, ctrl('r'), Action::Redo, "redo"),
    (ModeKind::Tracker, key(':'), Action::CommandLine, "command"),
    // Shadowrun 2097's own keys (`family` says so).
    (ModeKind::Tracker, key('c'), Action::Check, "success check"),
    (
        ModeKind::Tracker,
        key('w'),
        Action::DamageRoll,
        "damage roll",
    ),
    (ModeKind::Tracker, key('G'), Action::EdgeMenu, "Edge (2097)"),
    (ModeKind::Tracker, key('a'), Action::Add, "add"),
    (ModeKind::Tracker, key('r'), Action::RollAll, "roll all"),
    (ModeKind::Tracker, key('R'), Action::RollNpcs, "roll NPCs"),
    (ModeKind::Tracker, key('t'), Action::TypeRoll, "type a roll"),
    (ModeKind::Tracker, key('s'), Action::Start, "start"),
    (ModeKind::Tracker, key('i'), Action::Interrupt, "interrupt"),
    (ModeKind::Tracker, key('d'), Action::Delay, "delay"),
    (ModeKind::Tracker, key('y'), Action::Ready, "ready"),
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
    (ModeKind::Tracker, key('f'), Action::Fire, "fire ready"),
    (ModeKind::Tracker, key('m'), Action::Move, "move in order"),
    (ModeKind::Tracker, key('g'), Action::Edge, "Edge for IP"),
    (
        ModeKind::Tracker,
        key('z'),
        Action::ToggleDowned,
        "Downed on/off",
    ),
    (ModeKind::Tracker, key('h'), Action::Damage, "damage"),
    (ModeKind::Tracker, key('H'), Action::Heal, "heal"),
    (ModeKind::Tracker, key('+'), Action::AddStatus, "add status"),
    (
        ModeKind::Tracker,
        key('-'),
        Action::ClearStatus,
        "clear status",
    ),
    // SR5 only (`family`): a test with live odds.
    (ModeKind::Tracker, key('T'), Action::Test, "test"),
    (
        ModeKind::Tracker,
        key('A'),
        Action::AttackStep,
        "attack: next step",
    ),
    (ModeKind::Tracker, key('e'), Action::Edit, "edit"),
    (ModeKind::Tracker, key('x'), Action::Remove, "remove"),
    (ModeKind::Tracker, key('E'), Action::End, "end encounter"),
    (ModeKind::Tracker, key('j'), Action::Down, "select down"),
    (
        ModeKind::Tracker,
        code(KeyCode::Down),
        Action::Down,
        "select down",
    ),
    (ModeKind::Tracker, key('k'), Action::Up, "select up"),
    (
        ModeKind::Tracker,
        code(KeyCode::Up),
        Action::Up,
        "select up",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::PageUp),
        Action::PageUp,
        "log back",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::PageDown),
        Action::PageDown,
        "log forward",
    ),
    (
        ModeKind::Tracker,
        code(KeyCode::Tab),
        Action::FocusNext,
        "focus pane",
    ),
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
    (
        ModeKind::Picker,
        ctrl('n'),
        Action::AddMore,
        "ready: add, keep choosing",
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
    // Choice list
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
    (ModeKind::Choose, key('k'), Action::Up, "up"),
    (ModeKind::Choose, code(KeyCode::Down), Action::Down, "down"),
    (ModeKind::Choose, key('j'), Action::Down, "down"),
    // Help
    (ModeKind::Help, code(KeyCode::Esc), Action::Cancel, "close"),
    (ModeKind::Help, key('?'), Action::Cancel, "close"),
    (ModeKind::Help, key('q'), Action::Cancel, "close"),
    (ModeKind::Help, key('j'), Action::Down, "scroll down"),
    (
        ModeKind::Help,
        code(KeyCode::Down),
        Action::Down,
        "scroll down",
    ),
    (ModeKind::Help, key('k'), Action::Up, "scroll up"),
    (ModeKind::Help, code(KeyCode::Up), Action::Up, "scroll up"),
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
        Action::Test | Action::AttackStep => Family::Own(System::Sr5),
        _ => Family::Shared,
    }
}

/// Whether a row of the table serves the encounter's system.
fn serves(action: Action, system: System) -> bool {
    family(action).systems().contains(&system)
}

/// The action bound to a key in a mode (mode bindings first, then `Any`), for this system.
pub fn lookup(mode: ModeKind, system: System, ev: &KeyEvent) -> Option<Action> {
    let found = |m: ModeKind| {
        KEYMAP
            .iter()
            .find(|(row, k, a, _)| *row == m && serves(*a, system) && k.matches(ev))
    };
    found(mode)
        .or_else(|| found(ModeKind::Any))
        .map(|(_, _, a, _)| *a)
}

/// The bindings of a mode in this system, for the key bar and the help: one entry per action,
/// keys joined.
pub fn bindings(mode: ModeKind, system: System) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str, Action)> = Vec::new();
    // The mode's own keys first, the keys that work everywhere last.
    let own = KEYMAP.iter().filter(|e| e.0 == mode);
    let any = KEYMAP
        .iter()
        .filter(|e| e.0 == ModeKind::Any && mode != ModeKind::Any);
    for (_, k, a, label) in own.chain(any).filter(|e| serves(e.2, system)) {
        if let Some(e) = out.iter_mut().find(|e| e.2 == *a && e.1 == *label) {
            e.0.push('/');
            e.0.push_str(&k.label());
        } else {
            out.push((k.label(), label, *a));
        }
    }
    out.into_iter().map(|(k, l, _)| (k, l)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
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
        assert!(bar.iter().all(|(_, l)| *l != "delay" && *l != "next turn"));
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
                assert_eq!(lookup(ModeKind::Tracker, system, &ev(c)), None, "{c}");
            }
            let bar = bindings(ModeKind::Tracker, system);
            assert!(bar.iter().all(|(_, l)| *l != "success check"));
        }
    }
}
