//! The app state and `App::update`: actions become engine commands or UI changes.

use ratatui::crossterm::event::KeyEvent;
use tui_input::Input;
use tui_input::backend::crossterm::to_input_request;

use super::action::Action;
use super::keymap::{self, ModeKind};
use super::theme::Theme;
use crate::catalogue::{ActionGroup, ActionKind, Catalogue};
use crate::encounter::{
    ActionChoice, AddCombatant, CombatantId, Command, Encounter, Entry, Event, Phase, Relative,
    Reserve, RollTarget, SheetInput, Side, State, StatusUntil, Timing, Track,
};
use crate::lang::{self, Line};
use crate::report;
use crate::rules::{ActionType, Dice, HouseRules, RandomDice};
use crate::save::Autosave;

/// The smallest screen the tracker draws on.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// A one-line input with cursor editing.
pub type InputState = Input;

/// Which pane j/k and PgUp/PgDn move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Order,
    Log,
}

/// What the picker is choosing for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickPurpose {
    Spend,
    Interrupt,
    /// Actions for a ready: spent from the reserve when the trigger fires.
    Ready {
        trigger: String,
        ip: Option<i32>,
        chosen: Vec<ActionChoice>,
    },
}

/// One line of the picker: a catalogue action and why it cannot be taken now, if it cannot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickItem {
    pub index: usize,
    pub refusal: Option<String>,
    pub recent: bool,
}

#[derive(Debug, Clone)]
pub struct PickerState {
    pub who: CombatantId,
    pub purpose: PickPurpose,
    pub query: InputState,
    /// `None` is All.
    pub group: Option<ActionGroup>,
    pub items: Vec<PickItem>,
    pub selected: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormPurpose {
    Add,
    Edit(CombatantId),
    TypedRoll(CombatantId),
    Delay(CombatantId),
    Ready(CombatantId),
    Damage(CombatantId),
    Heal(CombatantId),
    Status(CombatantId),
}

#[derive(Debug, Clone)]
pub struct Field {
    pub label: &'static str,
    pub hint: &'static str,
    pub input: InputState,
    pub error: Option<String>,
}

#[derive(Debug, Clone)]
pub struct FormState {
    pub title: String,
    pub purpose: FormPurpose,
    pub fields: Vec<Field>,
    pub focus: usize,
    /// The engine's refusal of the whole form, when no field is to blame.
    pub error: Option<String>,
}

/// What choosing a line of a choice list does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Run(Command),
    /// Open the interrupt picker for this character.
    InterruptBy(CombatantId),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceItem {
    pub label: String,
    pub choice: Choice,
    pub refusal: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChooseState {
    pub title: String,
    pub items: Vec<ChoiceItem>,
    pub selected: usize,
}

#[derive(Debug, Clone)]
pub enum Mode {
    Normal,
    Help { scroll: u16 },
    Command(InputState),
    Picker(PickerState),
    Form(FormState),
    Choose(ChooseState),
}

impl Mode {
    pub fn kind(&self) -> ModeKind {
        match self {
            Mode::Normal => ModeKind::Normal,
            Mode::Help { .. } => ModeKind::Help,
            Mode::Command(_) => ModeKind::Command,
            Mode::Picker(_) => ModeKind::Picker,
            Mode::Form(_) => ModeKind::Form,
            Mode::Choose(_) => ModeKind::Choose,
        }
    }
}

/// One block of the log: a command and the lines of its events, or a note (undo, redo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogItem {
    /// The history index of the entry; `None` for a note.
    pub entry: Option<usize>,
    pub head: String,
    pub lines: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveMark {
    Nothing,
    /// A change waits to be written, right after this frame.
    Pending,
    Saved,
    Failed(String),
}

pub struct App {
    pub(crate) enc: Encounter,
    pub(crate) title: String,
    store: Box<dyn Autosave>,
    pub(crate) read_only: Option<String>,
    dice: Box<dyn Dice>,
    pub(crate) mode: Mode,
    /// The mode to return to when help closes.
    help_return: Option<Box<Mode>>,
    pub(crate) focus: Pane,
    /// Index into `roster()`.
    pub(crate) selected: usize,
    pub(crate) log: Vec<LogItem>,
    /// Lines scrolled back from the bottom of the log.
    pub(crate) log_scroll: usize,
    pub(crate) message: Option<(String, bool)>,
    pub(crate) saved: SaveMark,
    defer_saves: bool,
    pub(crate) theme: Theme,
    pub(crate) size: (u16, u16),
    quit: bool,
}

/// The catalogue actions matching a query in a group, best first (the catalogue's fuzzy search).
pub fn search_actions(cat: &Catalogue, query: &str, group: Option<ActionGroup>) -> Vec<usize> {
    cat.search(query, group)
        .into_iter()
        .map(|h| h.index)
        .collect()
}

fn parse_num(field: &Field, required: bool) -> Result<Option<i32>, String> {
    let v = field.input.value().trim();
    if v.is_empty() {
        return if required {
            Err("required".into())
        } else {
            Ok(None)
        };
    }
    v.parse::<i32>()
        .map(Some)
        .map_err(|_| format!("\"{v}\" is not a whole number"))
}

fn field(label: &'static str, hint: &'static str, value: &str) -> Field {
    Field {
        label,
        hint,
        input: Input::new(value.to_string()),
        error: None,
    }
}

impl App {
    pub fn new(
        encounter: Encounter,
        title: String,
        store: Box<dyn Autosave>,
        read_only: Option<String>,
    ) -> Self {
        let mut app = Self {
            enc: encounter,
            title,
            store,
            read_only,
            dice: Box::new(RandomDice::new()),
            mode: Mode::Normal,
            help_return: None,
            focus: Pane::Order,
            selected: 0,
            log: Vec::new(),
            log_scroll: 0,
            message: None,
            saved: SaveMark::Nothing,
            defer_saves: false,
            theme: Theme::default(),
            size: (MIN_WIDTH, MIN_HEIGHT),
            quit: false,
        };
        app.rebuild_log();
        app.follow_turn();
        app
    }

    /// Scripted dice, for tests and benchmarks.
    #[must_use]
    pub fn with_dice(mut self, dice: Box<dyn Dice>) -> Self {
        self.dice = dice;
        self
    }

    pub fn set_monochrome(&mut self, mono: bool) {
        self.theme = Theme { mono };
    }

    /// The terminal size, so keys know whether the screen is too small.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.size = (width, height);
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub fn encounter(&self) -> &Encounter {
        &self.enc
    }

    /// Wraps the store (the screen's event loop guards saves against a shutdown from outside).
    pub(crate) fn wrap_store(&mut self, wrap: impl FnOnce(Box<dyn Autosave>) -> Box<dyn Autosave>) {
        let store = std::mem::replace(&mut self.store, Box::new(crate::save::NoSave));
        self.store = wrap(store);
    }

    /// Writes the encounter once more on the way out (quit, SIGTERM, SIGHUP); not when read-only.
    pub fn save_on_exit(&mut self) -> Result<(), String> {
        if self.read_only.is_some() {
            return Ok(());
        }
        self.store.save(&self.enc)
    }

    pub fn state(&self) -> &State {
        self.enc.state()
    }

    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The status line: the last message and whether it is an error.
    pub fn message(&self) -> Option<(&str, bool)> {
        self.message.as_ref().map(|(m, e)| (m.as_str(), *e))
    }

    pub fn too_small(&self) -> bool {
        self.size.0 < MIN_WIDTH || self.size.1 < MIN_HEIGHT
    }

    /// The mode whose keys the help shows first: the one help was opened from.
    pub fn help_mode(&self) -> ModeKind {
        self.help_return
            .as_ref()
            .map_or(ModeKind::Normal, |m| m.kind())
    }

    pub fn mode_kind(&self) -> ModeKind {
        if self.too_small() {
            ModeKind::TooSmall
        } else {
            self.mode.kind()
        }
    }

    /// Keymap lookup, then `update`. In text modes unbound keys edit the input.
    pub fn handle_key(&mut self, key: KeyEvent) {
        let kind = self.mode_kind();
        if let Some(action) = keymap::lookup(kind, &key) {
            self.update(action);
            return;
        }
        if matches!(kind, ModeKind::Picker | ModeKind::Form | ModeKind::Command) {
            let ev = ratatui::crossterm::event::Event::Key(key);
            if let Some(req) = to_input_request(&ev) {
                self.update(Action::Input(req));
            }
        }
    }

    /// The combatants as the order pane lists them: the order, then anyone not yet in it.
    pub fn roster(&self) -> Vec<CombatantId> {
        let s = self.enc.state();
        let mut seen = vec![false; s.combatants.len()];
        let mut ids: Vec<CombatantId> = Vec::with_capacity(s.combatants.len());
        for c in s.ordered() {
            seen[c.id.index()] = true;
            ids.push(c.id);
        }
        ids.extend(s.present().filter(|c| !seen[c.id.index()]).map(|c| c.id));
        ids
    }

    pub fn selected_id(&self) -> Option<CombatantId> {
        self.roster().get(self.selected).copied()
    }

    /// The character whose turn it is.
    pub fn actor(&self) -> Option<CombatantId> {
        self.enc.state().turn().map(|t| t.who)
    }

    fn follow_turn(&mut self) {
        if let Some(who) = self.actor()
            && let Some(i) = self.roster().iter().position(|x| *x == who)
        {
            self.selected = i;
        }
    }

    fn info(&mut self, msg: impl Into<String>) {
        self.message = Some((msg.into(), false));
    }

    fn error(&mut self, msg: impl Into<String>) {
        self.message = Some((msg.into(), true));
    }

    fn need_selected(&mut self) -> Option<CombatantId> {
        let id = self.selected_id();
        if id.is_none() {
            self.error("nobody to choose: add combatants first (a)");
        }
        id
    }

    fn need_actor(&mut self) -> Option<CombatantId> {
        let id = self.actor();
        if id.is_none() {
            let why = match self.enc.state().phase {
                Phase::Setup => "the fight has not started yet: roll (r), then start (s)",
                Phase::Ended { .. } => "the encounter has ended: undo (u) to go back to it",
                Phase::Fight(_) => "nobody has a turn: everyone is Downed",
            };
            self.error(why);
        }
        id
    }

    /// Runs a command through the engine; a refusal goes to the status line and changes nothing.
    pub fn run_command(&mut self, cmd: Command) -> Result<(), String> {
        if let Some(r) = &self.read_only {
            let r = format!("read-only: {r}");
            self.error(r.clone());
            return Err(r);
        }
        let before = self.enc.state().clone();
        match crate::lang::execute(&mut self.enc, cmd, &mut *self.dice) {
            Ok(_) => {
                let idx = self.enc.cursor() - 1;
                let entry = &self.enc.applied()[idx];
                let text = entry.text.clone();
                let (lines, _) = entry_lines(before, entry, self.enc.rules());
                self.log.push(LogItem {
                    entry: Some(idx),
                    head: text.clone(),
                    lines,
                });
                self.log_scroll = 0;
                self.info(text);
                self.save();
                self.clamp_selection();
                self.follow_turn();
                Ok(())
            }
            Err(e) => {
                let e = e.to_string();
                self.error(e.clone());
                Err(e)
            }
        }
    }

    fn save(&mut self) {
        if self.defer_saves {
            // The event loop writes it right after this frame is drawn (`flush_save`).
            self.saved = SaveMark::Pending;
        } else {
            self.write_save();
        }
    }

    /// Saves after the frame is on screen, so a key shows at once and the disk (fsync) comes
    /// after. The event loop turns this on; tests save at once.
    pub(crate) fn defer_saves(&mut self) {
        self.defer_saves = true;
    }

    /// Writes a save the last command left pending; true if it did (the header changes).
    pub fn flush_save(&mut self) -> bool {
        if self.saved == SaveMark::Pending {
            self.write_save();
            true
        } else {
            false
        }
    }

    fn write_save(&mut self) {
        match self.store.save(&self.enc) {
            Ok(()) => self.saved = SaveMark::Saved,
            Err(e) => {
                self.error(format!("not saved: {e}"));
                self.saved = SaveMark::Failed(e);
            }
        }
    }

    /// Folds the whole applied history into log lines (at start; later changes are incremental).
    fn rebuild_log(&mut self) {
        self.log.clear();
        let mut state = State::default();
        for (i, entry) in self.enc.applied().iter().enumerate() {
            let (lines, after) = entry_lines(state, entry, self.enc.rules());
            state = after;
            self.log.push(LogItem {
                entry: Some(i),
                head: entry.text.clone(),
                lines,
            });
        }
    }

    fn undo(&mut self) {
        if let Some(r) = &self.read_only {
            let r = format!("read-only: {r}");
            self.error(r);
            return;
        }
        let undone: Vec<String> = self.enc.undo(1).iter().map(|e| e.text.clone()).collect();
        if undone.is_empty() {
            self.error("nothing to undo");
            return;
        }
        let cursor = self.enc.cursor();
        self.log.retain(|l| l.entry.is_none_or(|i| i < cursor));
        let note = format!("↶ undone: {}", undone.join("; "));
        self.log.push(LogItem {
            entry: None,
            head: note.clone(),
            lines: Vec::new(),
        });
        self.log_scroll = 0;
        self.info(note);
        self.save();
        self.clamp_selection();
        self.follow_turn();
    }

    fn redo(&mut self) {
        if let Some(r) = &self.read_only {
            let r = format!("read-only: {r}");
            self.error(r);
            return;
        }
        let from = self.enc.cursor();
        let mut state = self.enc.state().clone();
        if self.enc.redo(1).is_empty() {
            self.error("nothing to redo");
            return;
        }
        let to = self.enc.cursor();
        let mut texts = Vec::new();
        for i in from..to {
            let entry = &self.enc.applied()[i];
            let (lines, after) = entry_lines(state, entry, self.enc.rules());
            state = after;
            texts.push(entry.text.clone());
            self.log.push(LogItem {
                entry: Some(i),
                head: entry.text.clone(),
                lines,
            });
        }
        self.log_scroll = 0;
        self.info(format!("↷ redone: {}", texts.join("; ")));
        self.save();
        self.follow_turn();
    }

    fn clamp_selection(&mut self) {
        let n = self.roster().len();
        self.selected = self.selected.min(n.saturating_sub(1));
    }

    /// Every key ends here: the one place actions become commands or UI changes.
    pub fn update(&mut self, action: Action) {
        if action == Action::Quit {
            self.quit = true;
            return;
        }
        if self.too_small() {
            return;
        }
        if action == Action::Help && !matches!(self.mode, Mode::Help { .. }) {
            let prev = std::mem::replace(&mut self.mode, Mode::Help { scroll: 0 });
            self.help_return = Some(Box::new(prev));
            return;
        }
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Normal => self.update_normal(action),
            Mode::Help { scroll } => match action {
                Action::Cancel => {
                    self.mode = self.help_return.take().map_or(Mode::Normal, |m| *m);
                }
                Action::Down => self.mode = Mode::Help { scroll: scroll + 1 },
                Action::Up => {
                    self.mode = Mode::Help {
                        scroll: scroll.saturating_sub(1),
                    };
                }
                _ => self.mode = Mode::Help { scroll },
            },
            Mode::Command(input) => self.update_command(input, action),
            Mode::Picker(p) => self.update_picker(p, action),
            Mode::Form(f) => self.update_form(f, action),
            Mode::Choose(c) => self.update_choose(c, action),
        }
    }

    fn update_normal(&mut self, action: Action) {
        match action {
            Action::Up => match self.focus {
                Pane::Order => self.selected = self.selected.saturating_sub(1),
                Pane::Log => self.log_scroll += 1,
            },
            Action::Down => match self.focus {
                Pane::Order => {
                    self.selected += 1;
                    self.clamp_selection();
                }
                Pane::Log => self.log_scroll = self.log_scroll.saturating_sub(1),
            },
            Action::PageUp => self.log_scroll += 10,
            Action::PageDown => self.log_scroll = self.log_scroll.saturating_sub(10),
            Action::FocusNext => {
                self.focus = match self.focus {
                    Pane::Order => Pane::Log,
                    Pane::Log => Pane::Order,
                }
            }
            Action::CommandLine => self.mode = Mode::Command(Input::default()),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::RollAll => {
                let _ = self.run_command(Command::Roll {
                    target: RollTarget::All,
                    typed: None,
                });
            }
            Action::RollNpcs => {
                let _ = self.run_command(Command::Roll {
                    target: RollTarget::Npcs,
                    typed: None,
                });
            }
            Action::Start => {
                let _ = self.run_command(Command::Start);
            }
            Action::Next => {
                let _ = self.run_command(Command::Next);
            }
            Action::End => {
                let _ = self.run_command(Command::End);
            }
            Action::Add => self.mode = Mode::Form(self.form(FormPurpose::Add)),
            Action::Edit => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(FormPurpose::Edit(id)));
                }
            }
            Action::TypeRoll => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(FormPurpose::TypedRoll(id)));
                }
            }
            Action::Damage => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(FormPurpose::Damage(id)));
                }
            }
            Action::Heal => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(FormPurpose::Heal(id)));
                }
            }
            Action::AddStatus => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(FormPurpose::Status(id)));
                }
            }
            Action::Delay if self.selected_delay_unnamed() => self.choose_delay_trigger(),
            Action::Delay => {
                if let Some(id) = self.need_actor() {
                    self.mode = Mode::Form(self.form(FormPurpose::Delay(id)));
                }
            }
            Action::Ready => {
                if let Some(id) = self.need_actor() {
                    self.mode = Mode::Form(self.form(FormPurpose::Ready(id)));
                }
            }
            Action::Remove => {
                if let Some(who) = self.need_selected() {
                    let _ = self.run_command(Command::Remove { who, reason: None });
                    self.clamp_selection();
                }
            }
            Action::Edge => {
                if let Some(who) = self.need_selected() {
                    let _ = self.run_command(Command::UseEdge { who });
                }
            }
            Action::ToggleDowned => {
                if let Some(who) = self.need_selected() {
                    let downed = !self
                        .enc
                        .state()
                        .get(who)
                        .is_some_and(crate::encounter::Combatant::is_downed);
                    let _ = self.run_command(Command::SetDowned { who, downed });
                }
            }
            Action::Act => {
                if let Some(who) = self.need_actor() {
                    self.open_picker(who, PickPurpose::Spend);
                }
            }
            Action::SpendType(kind) => {
                if let Some(who) = self.need_actor() {
                    let _ = self.run_command(Command::SpendAction {
                        who,
                        action: ActionChoice::Type(kind),
                    });
                }
            }
            Action::Interrupt => self.choose_interrupter(),
            Action::Fire => self.choose_fire(),
            Action::Move => self.choose_move(),
            Action::ClearStatus => self.choose_clear(),
            _ => {}
        }
    }

    fn open_choose(&mut self, title: String, items: Vec<ChoiceItem>, empty: &str) {
        if items.is_empty() {
            self.error(empty.to_string());
            return;
        }
        let selected = items.iter().position(|i| i.refusal.is_none()).unwrap_or(0);
        self.mode = Mode::Choose(ChooseState {
            title,
            items,
            selected,
        });
    }

    fn run_item(&self, label: String, cmd: Command) -> ChoiceItem {
        let refusal = self.enc.check(cmd.clone()).err().map(|e| e.to_string());
        ChoiceItem {
            label,
            choice: Choice::Run(cmd),
            refusal,
        }
    }

    fn choose_interrupter(&mut self) {
        let s = self.enc.state();
        let items = self
            .roster()
            .into_iter()
            .map(|id| ChoiceItem {
                label: s.name(id).to_string(),
                choice: Choice::InterruptBy(id),
                refusal: None,
            })
            .collect();
        self.open_choose(
            "Interrupt: who?".into(),
            items,
            "nobody to interrupt with: add combatants first (a)",
        );
    }

    /// Whether the selected character holds a delay whose trigger is not named yet.
    fn selected_delay_unnamed(&self) -> bool {
        self.selected_id()
            .and_then(|id| self.enc.state().get(id))
            .and_then(crate::encounter::Combatant::delay)
            .is_some_and(|(_, trigger)| trigger.is_none())
    }

    fn choose_delay_trigger(&mut self) {
        let Some(who) = self.selected_id() else {
            return;
        };
        let s = self.enc.state();
        let items = self
            .roster()
            .into_iter()
            .filter(|t| *t != who)
            .map(|trigger| {
                self.run_item(
                    format!("after {}", s.name(trigger)),
                    Command::NameDelayTrigger { who, trigger },
                )
            })
            .collect();
        let name = s.name(who).to_string();
        self.open_choose(
            format!("{name}'s delay: after whom?"),
            items,
            "nobody else to wait for",
        );
    }

    fn choose_fire(&mut self) {
        let Some(who) = self.need_selected() else {
            return;
        };
        let s = self.enc.state();
        let mut items = Vec::new();
        if let Some(Reserve::Ready { triggers, .. }) = s.get(who).and_then(|c| c.reserve.as_ref()) {
            for (i, t) in triggers.iter().enumerate() {
                for timing in [Timing::Before, Timing::After] {
                    let label = format!("{} the trigger: when {}", timing.word(), t.text);
                    items.push(self.run_item(
                        label,
                        Command::FireReady {
                            who,
                            trigger: i,
                            timing,
                        },
                    ));
                }
            }
        }
        let name = s.name(who).to_string();
        self.open_choose(
            format!("Fire {name}'s ready"),
            items,
            &format!("{name} has no armed ready trigger"),
        );
    }

    fn choose_move(&mut self) {
        let Some(who) = self.need_selected() else {
            return;
        };
        let s = self.enc.state();
        let mut items = Vec::new();
        for target in self.roster() {
            if target == who {
                continue;
            }
            for relative in [Relative::Before, Relative::After] {
                let label = format!("{} {}", relative.word(), s.name(target));
                items.push(self.run_item(
                    label,
                    Command::ChangeInitiative {
                        who,
                        relative,
                        target,
                    },
                ));
            }
        }
        let name = s.name(who).to_string();
        self.open_choose(
            format!("Move {name} in the order"),
            items,
            "nobody else in the order",
        );
    }

    fn choose_clear(&mut self) {
        let Some(who) = self.need_selected() else {
            return;
        };
        let s = self.enc.state();
        let names: Vec<String> = s
            .get(who)
            .map(|c| c.statuses.iter().map(|st| st.name.clone()).collect())
            .unwrap_or_default();
        let items = names
            .into_iter()
            .map(|name| self.run_item(name.clone(), Command::ClearStatus { who, name }))
            .collect();
        let name = s.name(who).to_string();
        self.open_choose(
            format!("Clear a status of {name}"),
            items,
            &format!("{name} has no status to clear"),
        );
    }

    fn update_choose(&mut self, mut c: ChooseState, action: Action) {
        match action {
            Action::Cancel => return,
            Action::Up => c.selected = c.selected.saturating_sub(1),
            Action::Down => c.selected = (c.selected + 1).min(c.items.len().saturating_sub(1)),
            Action::Confirm => {
                let Some(item) = c.items.get(c.selected).cloned() else {
                    return;
                };
                match item.choice {
                    Choice::Run(cmd) => {
                        if self.run_command(cmd).is_ok() {
                            return;
                        }
                    }
                    Choice::InterruptBy(who) => {
                        self.open_picker(who, PickPurpose::Interrupt);
                        return;
                    }
                }
            }
            _ => {}
        }
        self.mode = Mode::Choose(c);
    }

    /// The catalogue actions this character spent lately, latest first.
    fn recent_actions(&self, who: CombatantId) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // A bounded look back: recent means this fight's last few hundred commands.
        for entry in self.enc.applied().iter().rev().take(300) {
            for ev in entry.events.iter().rev() {
                if let Event::ActionSpent { who: w, action, .. } = ev
                    && *w == who
                    && let Some(n) = &action.name
                    && !out.contains(n)
                {
                    out.push(n.clone());
                }
            }
            if out.len() >= 5 {
                break;
            }
        }
        out
    }

    fn open_picker(&mut self, who: CombatantId, purpose: PickPurpose) {
        // Interrupts are listed by their type, not their group: Full Matrix Defense (Matrix)
        // and Evasive Driving (Chase) are interrupts too.
        let group = None;
        let mut p = PickerState {
            who,
            purpose,
            query: Input::default(),
            group,
            items: Vec::new(),
            selected: 0,
        };
        self.refilter(&mut p);
        self.mode = Mode::Picker(p);
    }

    fn choice_for(&self, index: usize) -> ActionChoice {
        let def = &self.enc.catalogue().actions()[index];
        ActionChoice::Named {
            name: def.name.clone(),
            // The engine needs a type for Variable and Special actions; Simple is asked first,
            // and the GM may pick another from the type list.
            as_type: def.kind.asks_type().then_some(ActionType::Simple),
        }
    }

    /// Recomputes the picker lines and asks the engine which ones it would refuse.
    fn refilter(&self, p: &mut PickerState) {
        let cat = self.enc.catalogue();
        let mut hits = search_actions(cat, p.query.value(), p.group);
        if p.purpose == PickPurpose::Interrupt {
            hits.retain(|&i| matches!(cat.actions()[i].kind, ActionKind::Interrupt { .. }));
        }
        let recent = self.recent_actions(p.who);
        let mut items: Vec<PickItem> = hits
            .into_iter()
            .map(|index| {
                let choice = self.choice_for(index);
                let refusal = match &p.purpose {
                    PickPurpose::Spend | PickPurpose::Interrupt => self
                        .enc
                        .check(Command::SpendAction {
                            who: p.who,
                            action: choice,
                        })
                        .err()
                        .map(|e| e.to_string()),
                    PickPurpose::Ready {
                        trigger,
                        ip,
                        chosen,
                    } => {
                        let mut actions = chosen.clone();
                        actions.push(choice);
                        self.enc
                            .check(Command::Ready {
                                who: p.who,
                                ip: *ip,
                                trigger: trigger.clone(),
                                actions,
                            })
                            .err()
                            .map(|e| e.to_string())
                    }
                };
                let recent = recent
                    .iter()
                    .any(|r| r.eq_ignore_ascii_case(&cat.actions()[index].name));
                PickItem {
                    index,
                    refusal,
                    recent,
                }
            })
            .collect();
        // Recent actions first, in the order they were last used; the rest keep the search order.
        items.sort_by_key(|it| {
            if it.recent {
                recent
                    .iter()
                    .position(|r| r.eq_ignore_ascii_case(&cat.actions()[it.index].name))
                    .unwrap_or(0)
            } else {
                usize::MAX
            }
        });
        p.selected = p.selected.min(items.len().saturating_sub(1));
        p.items = items;
    }

    fn update_picker(&mut self, mut p: PickerState, action: Action) {
        match action {
            Action::Cancel => {
                if let PickPurpose::Ready {
                    trigger,
                    ip,
                    chosen,
                } = &p.purpose
                    && !chosen.is_empty()
                {
                    // Esc with actions chosen declares the ready with them.
                    let cmd = Command::Ready {
                        who: p.who,
                        ip: *ip,
                        trigger: trigger.clone(),
                        actions: chosen.clone(),
                    };
                    if self.run_command(cmd).is_err() {
                        self.mode = Mode::Picker(p);
                    }
                }
                return;
            }
            Action::Up => p.selected = p.selected.saturating_sub(1),
            Action::Down => p.selected = (p.selected + 1).min(p.items.len().saturating_sub(1)),
            Action::NextGroup | Action::PrevGroup if p.purpose != PickPurpose::Interrupt => {
                let all: Vec<Option<ActionGroup>> = std::iter::once(None)
                    .chain(ActionGroup::ALL.iter().copied().map(Some))
                    .collect();
                let at = all.iter().position(|g| *g == p.group).unwrap_or(0);
                let n = all.len();
                let next = if action == Action::NextGroup {
                    (at + 1) % n
                } else {
                    (at + n - 1) % n
                };
                p.group = all[next];
                p.selected = 0;
                self.refilter(&mut p);
            }
            Action::Input(req) => {
                p.query.handle(req);
                p.selected = 0;
                self.refilter(&mut p);
            }
            Action::Confirm | Action::AddMore => {
                let Some(item) = p.items.get(p.selected).cloned() else {
                    self.error("no action matches: change the filter");
                    self.mode = Mode::Picker(p);
                    return;
                };
                let choice = self.choice_for(item.index);
                match &mut p.purpose {
                    PickPurpose::Spend | PickPurpose::Interrupt => {
                        let def = &self.enc.catalogue().actions()[item.index];
                        if def.kind.asks_type() {
                            let name = def.name.clone();
                            self.choose_type(p.who, &name);
                            return;
                        }
                        if self
                            .run_command(Command::SpendAction {
                                who: p.who,
                                action: choice,
                            })
                            .is_ok()
                        {
                            return;
                        }
                    }
                    PickPurpose::Ready {
                        trigger,
                        ip,
                        chosen,
                    } => {
                        chosen.push(choice);
                        if action == Action::Confirm {
                            let cmd = Command::Ready {
                                who: p.who,
                                ip: *ip,
                                trigger: trigger.clone(),
                                actions: chosen.clone(),
                            };
                            if self.run_command(cmd).is_ok() {
                                return;
                            }
                            chosen.pop();
                        } else {
                            p.query = Input::default();
                            self.refilter(&mut p);
                        }
                    }
                }
            }
            _ => {}
        }
        self.mode = Mode::Picker(p);
    }

    fn choose_type(&mut self, who: CombatantId, name: &str) {
        let items = ActionType::ALL
            .iter()
            .map(|t| {
                self.run_item(
                    format!("as a {} action", t.label()),
                    Command::SpendAction {
                        who,
                        action: ActionChoice::Named {
                            name: name.to_string(),
                            as_type: Some(*t),
                        },
                    },
                )
            })
            .collect();
        self.open_choose(format!("{name}: which type this time?"), items, "");
    }

    fn form(&self, purpose: FormPurpose) -> FormState {
        let s = self.enc.state();
        let name = |id: CombatantId| s.name(id).to_string();
        let (title, fields) = match purpose {
            FormPurpose::Add => (
                "Add a combatant or a group".to_string(),
                vec![
                    field("Name", "unique; a group's members get numbers", ""),
                    field("Side", "pc or npc", "npc"),
                    field("Count", "empty for one; N for a group of N", ""),
                    field("Intuition", "", "3"),
                    field("Reaction", "", "3"),
                    field("Edge", "", "0"),
                    field("Dice mod", "initiative dice modifier", "0"),
                    field("IP bonus", "extra starting IP", "0"),
                    field("Body", "for the Physical monitor", ""),
                    field("Willpower", "for the Stun monitor", ""),
                    field("Shared roll", "y: the group rolls once", "n"),
                ],
            ),
            FormPurpose::Edit(id) => {
                let c = s.get(id);
                let v = |f: &dyn Fn(&crate::encounter::Sheet) -> String| {
                    c.map(|c| f(&c.sheet)).unwrap_or_default()
                };
                (
                    format!("Edit {}", name(id)),
                    vec![
                        field("Name", "", &name(id)),
                        field(
                            "Side",
                            "pc or npc",
                            c.map_or("npc", |c| if c.side == Side::Pc { "pc" } else { "npc" }),
                        ),
                        field("Intuition", "", &v(&|s| s.intuition.to_string())),
                        field("Reaction", "", &v(&|s| s.reaction.to_string())),
                        field("Edge", "", &v(&|s| s.edge.to_string())),
                        field("Dice mod", "", &v(&|s| s.dice_modifier.to_string())),
                        field("IP bonus", "", &v(&|s| s.ip_bonus.to_string())),
                        field(
                            "Body",
                            "",
                            &v(&|s| s.body.map(|b| b.to_string()).unwrap_or_default()),
                        ),
                        field(
                            "Willpower",
                            "",
                            &v(&|s| s.willpower.map(|b| b.to_string()).unwrap_or_default()),
                        ),
                    ],
                )
            }
            FormPurpose::TypedRoll(id) => (
                format!("Type in {}'s initiative roll", name(id)),
                vec![
                    field("Hits", "hits rolled at the table", ""),
                    field("Glitch", "y if it glitched", "n"),
                ],
            ),
            FormPurpose::Delay(id) => (
                format!("Delay: {} holds IP", name(id)),
                vec![field("IP", "IP to hold back", "")],
            ),
            FormPurpose::Ready(id) => (
                format!("Ready: {} waits for a trigger", name(id)),
                vec![
                    field("Trigger", "when … (free text)", ""),
                    field("IP", "empty: the actions' cost", ""),
                ],
            ),
            FormPurpose::Damage(id) | FormPurpose::Heal(id) => (
                format!(
                    "{} {}",
                    if matches!(purpose, FormPurpose::Damage(_)) {
                        "Damage"
                    } else {
                        "Heal"
                    },
                    name(id)
                ),
                vec![
                    field("Boxes", "", "1"),
                    field("Track", "p(hysical) or s(tun)", "p"),
                ],
            ),
            FormPurpose::Status(id) => (
                format!("Add a status to {}", name(id)),
                vec![
                    field("Status", "a name from the rules, or free text", ""),
                    field("Until", "turn, next, round, never (empty: rules)", ""),
                ],
            ),
        };
        FormState {
            title,
            purpose,
            fields,
            focus: 0,
            error: None,
        }
    }

    fn update_form(&mut self, mut f: FormState, action: Action) {
        match action {
            Action::Cancel => return,
            Action::NextField => f.focus = (f.focus + 1) % f.fields.len().max(1),
            Action::PrevField => {
                f.focus = (f.focus + f.fields.len().max(1) - 1) % f.fields.len().max(1);
            }
            Action::Input(req) => {
                if let Some(fl) = f.fields.get_mut(f.focus) {
                    fl.input.handle(req);
                    fl.error = None;
                }
                f.error = None;
                // Live check of the field being typed in (an empty field is fine while typing).
                if let Err((i, e)) = Self::form_command(&f)
                    && i == f.focus
                    && !e.starts_with("required")
                {
                    f.fields[i].error = Some(e);
                }
            }
            Action::Confirm if self.submit_form(&mut f) => return,
            _ => {}
        }
        self.mode = Mode::Form(f);
    }

    /// Builds the form's command; returns whether the form is done (the mode is then set).
    fn submit_form(&mut self, f: &mut FormState) -> bool {
        for fl in &mut f.fields {
            fl.error = None;
        }
        let cmd = match Self::form_command(f) {
            Ok(c) => c,
            Err((i, e)) => {
                if let Some(fl) = f.fields.get_mut(i) {
                    fl.error = Some(e);
                    f.focus = i;
                }
                return false;
            }
        };
        match (f.purpose, cmd) {
            (FormPurpose::Delay(who), Command::Delay { ip, .. }) => {
                // A delay needs its trigger character: first check the IP, then choose.
                if let Err(e) = self.enc.check(Command::Delay {
                    who,
                    ip,
                    trigger: None,
                }) {
                    f.fields[0].error = Some(e.to_string());
                    self.error(e.to_string());
                    return false;
                }
                let s = self.enc.state();
                let mut items = vec![self.run_item(
                    "(no trigger yet: name it later)".into(),
                    Command::Delay {
                        who,
                        ip,
                        trigger: None,
                    },
                )];
                for t in self.roster() {
                    if t != who {
                        items.push(self.run_item(
                            format!("after {}", s.name(t)),
                            Command::Delay {
                                who,
                                ip,
                                trigger: Some(t),
                            },
                        ));
                    }
                }
                self.open_choose("Delay until after whom?".into(), items, "");
                true
            }
            (FormPurpose::Ready(who), Command::Ready { ip, trigger, .. }) => {
                self.open_picker(
                    who,
                    PickPurpose::Ready {
                        trigger,
                        ip,
                        chosen: Vec::new(),
                    },
                );
                true
            }
            (_, cmd) => match self.run_command(cmd) {
                Ok(()) => true,
                Err(e) => {
                    // Put the engine's reason in the field it names, if it names one.
                    let lower = e.to_lowercase();
                    let at = f
                        .fields
                        .iter()
                        .position(|fl| lower.starts_with(&fl.label.to_lowercase()))
                        .or_else(|| {
                            lower
                                .starts_with("the name")
                                .then(|| f.fields.iter().position(|fl| fl.label == "Name"))
                                .flatten()
                        });
                    match at {
                        Some(i) => {
                            f.fields[i].error = Some(e);
                            f.focus = i;
                        }
                        None => f.error = Some(e),
                    }
                    false
                }
            },
        }
    }

    fn form_command(f: &FormState) -> Result<Command, (usize, String)> {
        let num = |i: usize, req: bool| parse_num(&f.fields[i], req).map_err(|e| (i, e));
        let text = |i: usize| f.fields[i].input.value().trim().to_string();
        let yes = |i: usize| matches!(text(i).to_lowercase().as_str(), "y" | "yes");
        let side = |i: usize| match text(i).to_lowercase().as_str() {
            "pc" => Ok(Side::Pc),
            "npc" | "" => Ok(Side::Npc),
            other => Err((i, format!("\"{other}\": type pc or npc"))),
        };
        let track = |i: usize| match text(i).to_lowercase().chars().next() {
            Some('s') => Ok(Track::Stun),
            Some('p') | None => Ok(Track::Physical),
            Some(_) => Err((i, "type p (Physical) or s (Stun)".to_string())),
        };
        let or = |v: Option<i32>, d: i32| v.unwrap_or(d);
        Ok(match f.purpose {
            FormPurpose::Add => {
                if text(0).is_empty() {
                    return Err((0, "required".into()));
                }
                Command::Add(AddCombatant {
                    name: text(0),
                    side: side(1)?,
                    count: num(2, false)?,
                    sheet: SheetInput {
                        intuition: or(num(3, true)?, 3),
                        reaction: or(num(4, true)?, 3),
                        edge: or(num(5, false)?, 0),
                        dice_modifier: or(num(6, false)?, 0),
                        ip_bonus: or(num(7, false)?, 0),
                        body: num(8, false)?,
                        willpower: num(9, false)?,
                    },
                    shared_roll: yes(10),
                })
            }
            FormPurpose::Edit(who) => Command::Edit {
                who,
                name: Some(text(0)).filter(|n| !n.is_empty()),
                side: Some(side(1)?),
                sheet: SheetInput {
                    intuition: or(num(2, true)?, 3),
                    reaction: or(num(3, true)?, 3),
                    edge: or(num(4, false)?, 0),
                    dice_modifier: or(num(5, false)?, 0),
                    ip_bonus: or(num(6, false)?, 0),
                    body: num(7, false)?,
                    willpower: num(8, false)?,
                },
            },
            FormPurpose::TypedRoll(id) => Command::Roll {
                target: RollTarget::One(id),
                typed: Some((or(num(0, true)?, 0), yes(1))),
            },
            FormPurpose::Delay(who) => Command::Delay {
                who,
                ip: or(num(0, true)?, 0),
                trigger: None,
            },
            FormPurpose::Ready(who) => {
                if text(0).is_empty() {
                    return Err((0, "required: what the character waits for".into()));
                }
                Command::Ready {
                    who,
                    ip: num(1, false)?,
                    trigger: text(0),
                    actions: Vec::new(),
                }
            }
            FormPurpose::Damage(who) => Command::Damage {
                who,
                boxes: or(num(0, true)?, 0),
                track: track(1)?,
            },
            FormPurpose::Heal(who) => Command::Heal {
                who,
                boxes: or(num(0, true)?, 0),
                track: track(1)?,
            },
            FormPurpose::Status(who) => {
                if text(0).is_empty() {
                    return Err((0, "required".into()));
                }
                let until = match text(1).to_lowercase().as_str() {
                    "" => None,
                    "turn" => Some(StatusUntil::ThisTurn),
                    "next" => Some(StatusUntil::NextTurn),
                    "round" => Some(StatusUntil::Round),
                    "never" => Some(StatusUntil::Never),
                    other => {
                        return Err((1, format!("\"{other}\": turn, next, round or never")));
                    }
                };
                Command::AddStatus {
                    who,
                    text: text(0),
                    until,
                }
            }
        })
    }

    fn update_command(&mut self, mut input: InputState, action: Action) {
        match action {
            Action::Cancel => return,
            Action::Input(req) => {
                input.handle(req);
            }
            Action::Complete => self.complete(&mut input),
            Action::Confirm => {
                let line = input.value().to_string();
                match lang::parse(&line, self.enc.state(), self.enc.catalogue()) {
                    Err(e) => self.error(e.to_string()),
                    Ok(Line::Nothing) => return,
                    Ok(Line::Undo(n)) => {
                        for _ in 0..n.max(1) {
                            self.undo();
                        }
                        return;
                    }
                    Ok(Line::Redo(n)) => {
                        for _ in 0..n.max(1) {
                            self.redo();
                        }
                        return;
                    }
                    Ok(Line::Why(a, b)) => {
                        let why = self.enc.state().explain_order(a, b);
                        self.info(why);
                        return;
                    }
                    Ok(Line::Command(cmd)) => {
                        if self.run_command(cmd).is_ok() {
                            return;
                        }
                    }
                }
            }
            _ => {}
        }
        self.mode = Mode::Command(input);
    }

    /// Tab on the command line: completes the last word from verbs, names and actions.
    fn complete(&mut self, input: &mut InputState) {
        let value = input.value().to_string();
        let start = value.rfind(' ').map_or(0, |i| i + 1);
        let (head, word) = value.split_at(start);
        let lw = word.to_lowercase();
        let s = self.enc.state();
        let mut cands: Vec<String> = if head.trim().is_empty() {
            lang::VERBS.iter().map(|(v, _)| (*v).to_string()).collect()
        } else {
            s.present()
                .map(|c| c.name.clone())
                .chain(s.groups.iter().map(|g| g.name.clone()))
                .chain(
                    self.enc
                        .catalogue()
                        .actions()
                        .iter()
                        .map(|a| a.name.clone()),
                )
                .collect()
        };
        cands.retain(|c| c.to_lowercase().starts_with(&lw));
        cands.sort();
        cands.dedup();
        match cands.as_slice() {
            [] => self.error(format!("nothing completes \"{word}\"")),
            [one] => {
                let quoted = if one.contains(' ') {
                    format!("\"{one}\"")
                } else {
                    one.clone()
                };
                *input = Input::new(format!("{head}{quoted} "));
            }
            many => {
                let mut common = many[0].clone();
                for c in many {
                    while !c.to_lowercase().starts_with(&common.to_lowercase()) {
                        common.pop();
                    }
                }
                if common.len() > word.len() {
                    *input = Input::new(format!("{head}{common}"));
                }
                self.info(many.join("  "));
            }
        }
    }
}

/// The log lines of one entry, folding its events over the state before it; returns the state after.
fn entry_lines(mut state: State, entry: &Entry, rules: &HouseRules) -> (Vec<String>, State) {
    let mut lines = Vec::new();
    for ev in &entry.events {
        if let Some(l) = report::log_line(&state, ev) {
            lines.push(l);
        }
        state.apply(ev, rules);
    }
    (lines, state)
}
