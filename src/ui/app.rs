//! The app state and `App::update`: actions become engine commands or UI changes.

use ratatui::crossterm::event::KeyEvent;
use tui_input::backend::crossterm::to_input_request;

use super::action::Action;
use super::keymap::{self, ModeKind};
use super::mode::picker::{self, Purpose};
use super::mode::{self, Ctx, Mode, Outcome, choose, command_line, form, help};
use super::theme::Theme;
use crate::encounter::{
    ActionChoice, CombatantId, Command, Encounter, Phase, Relative, Reserve, RollTarget, State,
    Timing,
};
use crate::report;
use crate::rules::{Dice, RandomDice};
use crate::save::Autosave;

/// The smallest screen the tracker draws on.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// Which pane j/k and PgUp/PgDn move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Order,
    Log,
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
            mode: Mode::Tracker,
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
        mode::roster(self.enc.state())
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
        match self.enc.execute(cmd, &mut *self.dice) {
            Ok(_) => {
                let idx = self.enc.cursor() - 1;
                let entry = &self.enc.applied()[idx];
                let text = entry.text.clone();
                let (lines, _) = report::entry_lines(before, entry, self.enc.rules());
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
            let (lines, after) = report::entry_lines(state, entry, self.enc.rules());
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
            let (lines, after) = report::entry_lines(state, entry, self.enc.rules());
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
        if action == Action::Help && !matches!(self.mode, Mode::Help(_)) {
            let back = std::mem::replace(&mut self.mode, Mode::Tracker);
            self.mode = Mode::Help(help::State::open(back));
            return;
        }
        let ctx = Ctx::new(&self.enc, self.selected);
        let outcome = match &mut self.mode {
            Mode::Picker(p) => Some(p.update(action, &ctx)),
            Mode::Choose(c) => Some(c.update(action, &ctx)),
            Mode::Form(f) => Some(f.update(action, &ctx)),
            Mode::Command(c) => Some(c.update(action, &ctx)),
            Mode::Help(h) => Some(h.update(action, &ctx)),
            Mode::Tracker => None,
        };
        if let Some(outcome) = outcome {
            self.carry_out(outcome);
            return;
        }
        self.update_normal(action);
    }

    /// Does what a mode asked for.
    fn carry_out(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Stay => {}
            Outcome::Close => self.mode = Mode::Tracker,
            Outcome::Open(next) => self.mode = next,
            Outcome::Run { cmd, then } => match self.run_command(cmd) {
                Ok(()) => self.mode = then.unwrap_or(Mode::Tracker),
                // The mode stays; the reason is on the status line, and a form puts it in the
                // field it names.
                Err(e) => self.mode.refused(&e),
            },
            Outcome::Undo(n) => {
                self.mode = Mode::Tracker;
                for _ in 0..n {
                    self.undo();
                }
            }
            Outcome::Redo(n) => {
                self.mode = Mode::Tracker;
                for _ in 0..n {
                    self.redo();
                }
            }
            Outcome::Say(news) => self.info(news),
            Outcome::Answer(news) => {
                self.mode = Mode::Tracker;
                self.info(news);
            }
            Outcome::Fail(why) => self.error(why),
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
            Action::CommandLine => self.mode = Mode::Command(command_line::State::default()),
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
            Action::Add => self.mode = Mode::Form(self.form(form::Purpose::Add)),
            Action::Edit => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(form::Purpose::Edit(id)));
                }
            }
            Action::TypeRoll => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(form::Purpose::TypedRoll(id)));
                }
            }
            Action::Damage => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(form::Purpose::Damage(id)));
                }
            }
            Action::Heal => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(form::Purpose::Heal(id)));
                }
            }
            Action::AddStatus => {
                if let Some(id) = self.need_selected() {
                    self.mode = Mode::Form(self.form(form::Purpose::Status(id)));
                }
            }
            Action::Delay if self.selected_delay_unnamed() => self.choose_delay_trigger(),
            Action::Delay => {
                if let Some(id) = self.need_actor() {
                    self.mode = Mode::Form(self.form(form::Purpose::Delay(id)));
                }
            }
            Action::Ready => {
                if let Some(id) = self.need_actor() {
                    self.mode = Mode::Form(self.form(form::Purpose::Ready(id)));
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
                    let p = picker::State::open(
                        who,
                        Purpose::Spend,
                        &Ctx::new(&self.enc, self.selected),
                    );
                    self.mode = Mode::Picker(p);
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

    fn open_choose(&mut self, title: String, items: Vec<choose::Item>, empty: &str) {
        self.carry_out(choose::offer(title, items, empty));
    }

    fn run_item(&self, label: String, cmd: Command) -> choose::Item {
        choose::Item::run(label, cmd, &Ctx::new(&self.enc, self.selected))
    }

    fn choose_interrupter(&mut self) {
        let s = self.enc.state();
        let items = self
            .roster()
            .into_iter()
            .map(|id| choose::Item {
                label: s.name(id).to_string(),
                choice: choose::Choice::InterruptBy(id),
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

    fn form(&self, purpose: form::Purpose) -> form::State {
        form::State::open(purpose, &Ctx::new(&self.enc, self.selected))
    }
}
