//! The app: routes each action to the room that has the keys and carries out what the room asks
//! for; only here does the encounter change (run, undo, redo), get saved and get logged.

use ratatui::crossterm::event::KeyEvent;
use tui_input::backend::crossterm::to_input_request;

use super::action::Action;
use super::keymap::{self, ModeKind};
use super::mode::{self, Ctx, Mode, Outcome, help, tracker};
use super::theme::Theme;
use crate::encounter::{CombatantId, Command, Encounter, State};
use crate::report;
use crate::rules::{Dice, RandomDice};
use crate::save::Autosave;

/// The smallest screen the tracker draws on.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

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
    /// Focus, selection and log scroll: they outlive every popup.
    pub(crate) tracker: tracker::State,
    pub(crate) log: Vec<LogItem>,
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
            tracker: tracker::State::default(),
            log: Vec::new(),
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
        if let Some(action) = keymap::lookup(kind, self.enc.system(), &key) {
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
        self.roster().get(self.tracker.selected).copied()
    }

    /// The character whose turn it is.
    pub fn actor(&self) -> Option<CombatantId> {
        self.enc.state().turn().map(|t| t.who)
    }

    fn follow_turn(&mut self) {
        if let Some(who) = self.actor()
            && let Some(i) = self.roster().iter().position(|x| *x == who)
        {
            self.tracker.selected = i;
        }
    }

    fn info(&mut self, msg: impl Into<String>) {
        self.message = Some((msg.into(), false));
    }

    fn error(&mut self, msg: impl Into<String>) {
        self.message = Some((msg.into(), true));
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
                let (lines, _) = report::entry_lines(before.clone(), entry, self.enc.rules());
                self.tracker.log_scroll = 0;
                // A test's result, not its command, is the news: from its last test line on
                // (the boxes and Downed that follow included).
                let results = report::result_lines(before, entry, self.enc.rules());
                let news = results
                    .last()
                    .and_then(|last| lines.iter().rposition(|l| l == last))
                    .map_or(text.clone(), |at| lines[at..].join(" · "));
                self.log.push(LogItem {
                    entry: Some(idx),
                    head: text,
                    lines,
                });
                self.info(news);
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
        let mut state = self.enc.empty_state();
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
        self.tracker.log_scroll = 0;
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
        self.tracker.log_scroll = 0;
        self.info(format!("↷ redone: {}", texts.join("; ")));
        self.save();
        self.follow_turn();
    }

    fn clamp_selection(&mut self) {
        let n = self.roster().len();
        self.tracker.selected = self.tracker.selected.min(n.saturating_sub(1));
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
        let ctx = Ctx::new(&self.enc, self.tracker.selected);
        let outcome = self.mode.update(&mut self.tracker, action, &ctx);
        self.carry_out(outcome);
    }

    /// Does what a room asked for.
    pub(crate) fn carry_out(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Stay => {}
            Outcome::Close => self.mode = Mode::Tracker,
            Outcome::Open(next) => self.mode = next,
            Outcome::Run { cmd, then } => match self.run_command(cmd) {
                Ok(()) => {
                    let ctx = Ctx::new(&self.enc, self.tracker.selected);
                    self.mode = self.mode.after_run(then.unwrap_or(Mode::Tracker), &ctx);
                }
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
}
