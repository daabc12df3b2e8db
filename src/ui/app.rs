//! The app: routes each action to the room that has the keys and carries out what the room asks
//! for; only here does the encounter change (run, undo, redo), get saved and get logged.

use ratatui::crossterm::event::KeyEvent;
use tui_input::backend::crossterm::to_input_request;

use super::action::Action;
use super::keymap::{self, ModeKind};
use super::memo::Memo;
use super::mode::{self, After, Ctx, Mode, Outcome, help, tracker};
use super::theme::Theme;
use crate::encounter::{CombatantId, Command, Encounter, State};
use crate::report;
use crate::rules::{Dice, RandomDice};
use crate::save::{Autosave, Written};

/// The smallest screen the tracker draws on.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// How many characters of a paste go in: more than any line of the command language needs,
/// few enough that a whole file pasted by mistake does not refilter a list for each character.
pub const PASTE_CHARS: usize = 500;

/// One block of the log: a command and the lines of its events, or a note (undo, redo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogItem {
    /// The history index of the entry; `None` for a note.
    pub entry: Option<usize>,
    pub head: String,
    pub lines: Vec<String>,
    /// Its rows in the log pane, wrapped for the pane's width (`view::log`).
    pub(crate) rows: Memo<super::view::log::ItemRows>,
}

impl LogItem {
    pub fn new(entry: Option<usize>, head: String, lines: Vec<String>) -> Self {
        Self {
            entry,
            head,
            lines,
            rows: Memo::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SaveMark {
    Nothing,
    /// A change waits to be handed to the store, right after this frame.
    Pending,
    /// Handed over, not yet on disk (the store writes on a thread of its own).
    Writing,
    Saved,
    Failed(String),
}

/// The log's items, and a count of their changes: the log pane is drawn again only when it
/// moves. Read through `Deref`; changed only through [`Log::edit`], which counts.
#[derive(Debug, Default)]
pub struct Log {
    items: Vec<LogItem>,
    revision: u64,
}

impl Log {
    /// The items, to change: the revision moves on.
    fn edit(&mut self) -> &mut Vec<LogItem> {
        self.revision += 1;
        &mut self.items
    }

    /// Changes whenever the items do.
    pub fn revision(&self) -> u64 {
        self.revision
    }
}

impl std::ops::Deref for Log {
    type Target = Vec<LogItem>;

    fn deref(&self) -> &Vec<LogItem> {
        &self.items
    }
}

/// How the log's first line starts when the start of the history was left on disk.
const EARLIER_NOTE: &str = "⋯";

/// Log items built when a save opens: more than a log pane of any screen shows (one line or more
/// each); the earlier ones come right after the first frame ([`App::complete_log`]).
const LOG_AT_OPEN: usize = 128;

/// What a look at a held save did to the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeldPoll {
    Nothing,
    /// It shows what the holder wrote.
    Followed,
    /// The save is the screen's now: its store must be guarded like the first one.
    Taken,
}

/// The check of a save opened, and the encounter as opened once a change is made before the
/// check answers: the change is shown at once, written once the save is trusted, and taken back
/// if it is not (issue 14: a key straight after opening a long save waited for the check).
struct Checking {
    audit: crate::save::audit::Audit,
    as_opened: Option<Box<Encounter>>,
}

impl Checking {
    fn of(audit: crate::save::audit::Audit) -> Self {
        Self {
            audit,
            as_opened: None,
        }
    }
}

pub struct App {
    pub(crate) enc: Encounter,
    pub(crate) title: String,
    store: Box<dyn Autosave>,
    pub(crate) read_only: Option<String>,
    /// The check of what opening trusted (`save::audit`): nothing is written before it answers.
    audit: Option<Checking>,
    /// The save another srtrack holds, followed until this screen can take it.
    held: Option<super::held::Held>,
    dice: Box<dyn Dice>,
    pub(crate) mode: Mode,
    /// Focus, selection and log scroll: they outlive every popup.
    pub(crate) tracker: tracker::State,
    pub(crate) log: Log,
    /// The applied entries before this one have no log items yet ([`App::complete_log`]).
    log_from: usize,
    pub(crate) message: Option<(String, bool)>,
    /// Messages said so far, and the count when the status line last took a refusal of a key:
    /// a refusal goes when a later key changes the room's input or the room moves on.
    said: u64,
    refusal_at: Option<u64>,
    pub(crate) saved: SaveMark,
    defer_saves: bool,
    pub(crate) theme: Theme,
    pub(crate) size: (u16, u16),
    quit: bool,
    /// The sheets `add … from template`, `add party` and the add form bring in.
    roster: Option<crate::roster::Roster>,
    /// The screen's layout (`view::areas`).
    pub(crate) layout: Memo<super::view::Areas>,
    /// The status pane's lines (`view::status`).
    pub(crate) status_lines: Memo<Vec<(String, ratatui::style::Style)>>,
    /// What the order measures of the encounter (`view::order`).
    pub(crate) order_measures: Memo<super::view::order::Measures>,
    /// The roster (a frame asks for it a dozen times: the selection, the panes, the layout).
    roster_kept: Memo<Vec<CombatantId>>,
    /// The Anarchy table the end left (folded again from the history: once a change, not a
    /// frame).
    table_ended: Memo<Option<crate::encounter::system::anarchy::Narration>>,
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
            audit: None,
            held: None,
            dice: Box::new(RandomDice::new()),
            mode: Mode::Tracker,
            tracker: tracker::State::default(),
            log: Log::default(),
            log_from: 0,
            message: None,
            said: 0,
            refusal_at: None,
            saved: SaveMark::Nothing,
            defer_saves: false,
            theme: Theme::default(),
            size: (MIN_WIDTH, MIN_HEIGHT),
            quit: false,
            roster: None,
            layout: Memo::default(),
            status_lines: Memo::default(),
            order_measures: Memo::default(),
            roster_kept: Memo::default(),
            table_ended: Memo::default(),
        };
        app.rebuild_log();
        app
    }

    /// Forgets everything the view keeps between frames (the layout, the status pane's lines,
    /// the order's measures, the log's rows): the next frame is made from the state alone.
    #[cfg(test)]
    pub(crate) fn forget_kept(&self) {
        self.layout.forget();
        self.status_lines.forget();
        self.order_measures.forget();
        self.roster_kept.forget();
        self.table_ended.forget();
        for item in self.log.iter() {
            item.rows.forget();
        }
    }

    /// Scripted dice, for tests and benchmarks.
    #[must_use]
    pub fn with_dice(mut self, dice: Box<dyn Dice>) -> Self {
        self.dice = dice;
        self
    }

    /// The check of the save opened, started after the first frame ([`App::start_audit`]) and
    /// waited for before the first change (or the last save) is written.
    #[must_use]
    pub fn with_audit(mut self, audit: crate::save::audit::Audit) -> Self {
        self.audit = Some(Checking::of(audit));
        self
    }

    /// Starts the check of the save opened on a thread of its own: the first frame is out.
    pub fn start_audit(&mut self) {
        if let Some(c) = &mut self.audit {
            c.audit.start();
        }
    }

    /// Whether the check of the save opened is running and has not answered.
    pub fn auditing(&self) -> bool {
        self.audit.as_ref().is_some_and(|c| c.audit.running())
    }

    /// Follows a save another srtrack holds, until it lets go (the screen is read-only then).
    #[must_use]
    pub fn with_held(mut self, held: super::held::Held) -> Self {
        self.held = Some(held);
        self
    }

    /// Whether the screen shows a save another srtrack holds.
    pub fn held(&self) -> bool {
        self.held.is_some()
    }

    /// Looks at the held save: shows what its holder wrote, or takes it once free.
    pub fn poll_held(&mut self) -> HeldPoll {
        use super::held::Change;
        let Some(held) = &mut self.held else {
            return HeldPoll::Nothing;
        };
        match held.look() {
            Change::Nothing => HeldPoll::Nothing,
            Change::Followed(enc) => {
                if enc.state() == self.enc.state() && enc.cursor() == self.enc.cursor() {
                    return HeldPoll::Nothing;
                }
                self.show_encounter(*enc);
                HeldPoll::Followed
            }
            Change::Taken(taken) => {
                let super::held::Taken { enc, store, audit } = *taken;
                self.held = None;
                self.show_encounter(enc);
                self.store = store;
                self.audit = Some(Checking::of(audit));
                self.read_only = None;
                self.info("the other srtrack let go of the save: it is yours to change now");
                HeldPoll::Taken
            }
        }
    }

    /// Shows `enc` in place of what was shown (the GM's selection stays where it is present).
    fn show_encounter(&mut self, enc: Encounter) {
        self.enc = enc;
        self.rebuild_log();
        self.complete_log();
    }

    /// Takes the check's verdict if it is in; true if the screen changed.
    pub fn poll_audit(&mut self) -> bool {
        match self.audit.as_mut().and_then(|c| c.audit.poll()) {
            Some(verdict) => self.audited(verdict),
            None => false,
        }
    }

    /// Waits for the check's verdict before anything is written.
    /// True if the screen turned read-only: the status line says why already.
    fn settle_audit(&mut self) -> bool {
        self.audit
            .as_mut()
            .and_then(|c| c.audit.wait())
            .is_some_and(|verdict| self.audited(verdict))
    }

    /// Before a change: true if the screen is read-only (the status line says why). A change
    /// made while the check of the save runs goes ahead; the encounter as opened is kept to
    /// show again should the check distrust the save, and the write waits for its verdict.
    fn before_change(&mut self) -> bool {
        if self.poll_audit() {
            return true;
        }
        if let Some(r) = &self.read_only {
            let r = format!("read-only: {r}");
            self.error(r);
            return true;
        }
        if let Some(checking) = &mut self.audit
            && checking.as_opened.is_none()
        {
            checking.as_opened = Some(Box::new(self.enc.clone()));
        }
        false
    }

    /// A save whose snapshot is not what its history gives is bad, and a bad file is never
    /// written over: the screen goes read-only, showing what the history gives. A change made
    /// since it opened is taken back: it was never written.
    fn audited(&mut self, verdict: Result<(), crate::save::audit::Distrust>) -> bool {
        let as_opened = self.audit.take().and_then(|c| c.as_opened);
        let Err(distrust) = verdict else {
            return false;
        };
        // A bad file is never written over: a held one is no longer followed, nor taken.
        self.held = None;
        // A room whose end would change the fight closes: a read-only screen opens none.
        let closed = self
            .mode
            .changes_the_fight()
            .then(|| self.mode.kind().label().to_lowercase());
        let changed = as_opened.is_some();
        if let Some(enc) = distrust.history.or(as_opened)
            && (changed || enc.state() != self.enc.state())
        {
            self.enc = *enc;
            self.mode = Mode::Tracker;
            self.rebuild_log();
            self.complete_log();
        }
        if changed {
            self.saved = SaveMark::Nothing;
        }
        let kept = if changed {
            "; what was done since it opened was taken back"
        } else {
            ""
        };
        let why = format!(
            "{}: shown from its history, nothing is written",
            distrust.message
        );
        if let Some(room) = closed {
            self.mode = Mode::Tracker;
            self.error(format!(
                "read-only: {why}{kept}; the {room} was closed and nothing in it was done"
            ));
        } else {
            self.error(format!("read-only: {why}{kept}"));
        }
        self.read_only = Some(why);
        true
    }

    /// Opens with a warning on the status line: what went wrong loading the GM's files, which
    /// standard error says before the screen covers it.
    #[must_use]
    pub fn with_warning(mut self, warning: Option<String>) -> Self {
        if let Some(w) = warning {
            self.message = Some((w, true));
        }
        self
    }

    /// The roster of the data directory.
    #[must_use]
    pub fn with_roster(mut self, roster: crate::roster::Roster) -> Self {
        self.roster = Some(roster);
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

    /// What the status line says, as a refused change returns it.
    fn said(&self) -> String {
        self.message()
            .map(|(m, _)| m.to_string())
            .unwrap_or_default()
    }

    /// Writes the encounter once more on the way out (quit, SIGTERM, SIGHUP); not when read-only.
    pub fn save_on_exit(&mut self) -> Result<crate::save::Closed, String> {
        let changed = self.audit.as_ref().is_some_and(|c| c.as_opened.is_some());
        if self.settle_audit() && changed {
            // The check distrusted the save as the GM quit: what was done was never written,
            // and the screen that would say so is gone.
            return Err(self.said());
        }
        if self.read_only.is_some() {
            return Ok(crate::save::Closed::Whole);
        }
        self.store.close(&self.enc)
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
        // A key of another rule system does nothing here: it says whose it is.
        if let Some(why) = keymap::elsewhere(kind, self.enc.system(), &key) {
            self.error(why);
            return;
        }
        if matches!(
            kind,
            ModeKind::Picker
                | ModeKind::ReadyPicker
                | ModeKind::InterruptPicker
                | ModeKind::Form
                | ModeKind::Command
                | ModeKind::Choose
                | ModeKind::Find
        ) {
            let ev = ratatui::crossterm::event::Event::Key(key);
            match to_input_request(&ev) {
                // Refused at entry: a text shows what it holds, and these show as nothing.
                Some(tui_input::InputRequest::InsertChar(c))
                    if crate::text::is_control(c) || crate::text::is_invisible(c) =>
                {
                    self.error(format!(
                        "{} is a control or invisible character, not typed: type visible characters and spaces only",
                        crate::text::code_point(c)
                    ));
                }
                Some(req) => self.update(Action::Input(req)),
                None => {}
            }
        }
    }

    /// Pasted text (the terminal's bracketed paste): typed into the focused text input, never
    /// read as keys. Its first line only: every input here holds one line, and Enter is the
    /// GM's to press; a control character in it refuses it whole. Nothing happens where no text
    /// input has focus.
    pub fn paste(&mut self, text: &str) {
        if self.too_small() {
            return;
        }
        if !self.mode.takes_text() {
            self.error("nothing to paste into: a paste goes into the command line (:), a form's text field or a filter");
            return;
        }
        let pasted = match crate::text::one_line(text, PASTE_CHARS) {
            Ok(pasted) => pasted,
            Err(c) => {
                self.error(format!(
                    "nothing was pasted: its first line holds {}, a control or invisible character; paste visible characters and spaces only",
                    crate::text::code_point(c)
                ));
                return;
            }
        };
        for c in pasted.text.chars() {
            self.update(Action::Input(tui_input::InputRequest::InsertChar(c)));
            // A character may close the room (a find that lands); the rest is not keys.
            if !self.mode.takes_text() {
                break;
            }
        }
        if pasted.cut {
            self.info(format!(
                "pasted the first line only, at most {PASTE_CHARS} characters: Enter is yours to press"
            ));
        }
    }

    /// The combatants as the order pane lists them: the order, then anyone not yet in it.
    pub fn roster(&self) -> std::rc::Rc<Vec<CombatantId>> {
        self.roster_kept
            .get(self.enc.revision(), || mode::roster(self.enc.state()))
    }

    /// The Anarchy table as it stood when the encounter ended, once it has
    /// ([`Encounter::table_at_end`]).
    pub fn table_at_end(
        &self,
    ) -> std::rc::Rc<Option<crate::encounter::system::anarchy::Narration>> {
        self.table_ended
            .get(self.enc.revision(), || self.enc.table_at_end())
    }

    /// The character selected in the order pane.
    pub fn selected_id(&self) -> Option<CombatantId> {
        self.tracker.selected(self.enc.state(), &self.roster())
    }

    /// The character whose turn it is, or who narrates.
    pub fn actor(&self) -> Option<CombatantId> {
        self.enc.state().acting()
    }

    fn info(&mut self, msg: impl Into<String>) {
        self.said += 1;
        self.refusal_at = None;
        self.message = Some((msg.into(), false));
    }

    fn error(&mut self, msg: impl Into<String>) {
        let msg = msg.into();
        // The open command line covers the status line: the refusal shows above it.
        if let Mode::Command(line) = &mut self.mode {
            line.refused(&msg);
        }
        self.said += 1;
        self.refusal_at = Some(self.said);
        self.message = Some((msg, true));
    }

    /// Runs a command through the engine; a refusal goes to the status line and changes nothing.
    pub fn run_command(&mut self, cmd: Command) -> Result<(), String> {
        self.run_with(|enc, dice| {
            crate::lang::execute(enc, cmd, dice)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
    }

    /// Brings roster sheets in as one (each `add`, then its gear): all, or none if one line is
    /// refused.
    pub fn run_all(&mut self, brings: Vec<crate::roster::Bring>) -> Result<(), String> {
        let system = self.enc.system();
        let left: Vec<String> = brings
            .iter()
            .filter_map(|b| b.gear_left_in(system))
            .collect();
        self.run_with(|enc, dice| crate::roster::execute_all(enc, brings, dice).map(|_| ()))?;
        if !left.is_empty() {
            let said = self.message.take().map(|(m, _)| m);
            let told: Vec<String> = said.into_iter().chain(left).collect();
            self.info(told.join("; "));
        }
        Ok(())
    }

    /// Runs `run` on the encounter; logs and saves the entries it recorded, or shows its refusal.
    fn run_with(
        &mut self,
        run: impl FnOnce(&mut Encounter, &mut dyn Dice) -> Result<(), String>,
    ) -> Result<(), String> {
        if self.before_change() {
            return Err(self.said());
        }
        let mut before = self.enc.state().clone();
        let from = self.enc.cursor();
        if let Err(e) = run(&mut self.enc, &mut *self.dice) {
            self.error(e.clone());
            return Err(e);
        }
        let mut said = Vec::new();
        for idx in from..self.enc.cursor() {
            let entry = &self.enc.applied()[idx];
            let (lines, after) = report::entry_lines(
                before.clone(),
                entry,
                self.enc.rules(),
                self.enc.catalogue(),
            );
            // A test's result, not its command, is the news: from its last test line on
            // (the boxes and Downed that follow included).
            // Otherwise what happened, not the command again.
            let results = report::result_lines(
                before.clone(),
                entry,
                self.enc.rules(),
                self.enc.catalogue(),
            );
            said.push(
                results
                    .last()
                    .and_then(|last| lines.iter().rposition(|l| l == last))
                    .map_or_else(
                        || report::news(before, entry, self.enc.rules(), self.enc.catalogue()),
                        |at| lines[at..].join(" · "),
                    ),
            );
            before = after;
            self.log
                .edit()
                .push(LogItem::new(Some(idx), entry.text.clone(), lines));
        }
        self.tracker.log_scroll = 0;
        self.info(said.join("; "));
        self.save();
        // Written only once the save is trusted: if it is not, the change was taken back.
        if self.read_only.is_some() {
            return Err(self.said());
        }
        Ok(())
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

    /// Hands over a save the last command left pending; true if the header's mark changed
    /// (`… saving` stays while a writer thread writes it: see [`App::poll_save`]).
    pub fn flush_save(&mut self) -> bool {
        // Held while the check of the save runs: its verdict lets it go (or takes it back).
        if self.saved == SaveMark::Pending && !self.auditing() {
            self.write_save();
            self.saved != SaveMark::Writing
        } else {
            false
        }
    }

    /// Whether a command left a save to hand over after this frame ([`App::flush_save`]).
    pub fn save_pending(&self) -> bool {
        self.saved == SaveMark::Pending
    }

    /// Whether a save handed to a writer thread is still being written.
    pub fn saving(&self) -> bool {
        self.saved == SaveMark::Writing
    }

    /// Looks whether the save being written is on disk (or failed); true if the mark changed.
    pub fn poll_save(&mut self) -> bool {
        if self.saved != SaveMark::Writing {
            return false;
        }
        self.mark_written();
        self.saved != SaveMark::Writing
    }

    fn write_save(&mut self) {
        if self.settle_audit() {
            return;
        }
        match self.store.save(&self.enc) {
            Ok(()) => self.mark_written(),
            Err(e) => self.save_failed(e),
        }
    }

    fn mark_written(&mut self) {
        match self.store.written() {
            Written::Yes => self.saved = SaveMark::Saved,
            Written::Writing => self.saved = SaveMark::Writing,
            Written::Failed(e) => self.save_failed(e),
        }
    }

    fn save_failed(&mut self, e: String) {
        self.error(format!("not saved: {e}"));
        self.saved = SaveMark::Failed(e);
    }

    /// Folds the end of the applied history into log lines (at start; later changes are
    /// incremental): the rest waits for [`App::complete_log`], so a long fight opens as fast as
    /// a short one.
    fn rebuild_log(&mut self) {
        let cursor = self.enc.cursor();
        self.log_from = cursor.saturating_sub(LOG_AT_OPEN);
        *self.log.edit() = self.log_items(self.log_from, cursor);
    }

    /// The log items of applied entries `from..to`.
    fn log_items(&self, from: usize, to: usize) -> Vec<LogItem> {
        let mut state = self.enc.state_after(from);
        let mut items = Vec::with_capacity(to - from);
        for (i, entry) in self.enc.applied()[from..to].iter().enumerate() {
            let (lines, after) =
                report::entry_lines(state, entry, self.enc.rules(), self.enc.catalogue());
            state = after;
            items.push(LogItem::new(Some(from + i), entry.text.clone(), lines));
        }
        items
    }

    /// Builds the log items [`App::rebuild_log`] left out (the event loop calls it once the
    /// first frame is on screen).
    pub fn complete_log(&mut self) {
        let to = self.log_from.min(self.enc.cursor());
        if to == 0 {
            return;
        }
        let mut items = self.log_items(0, to);
        if self.enc.base() > 0 {
            items.insert(
                0,
                LogItem::new(
                    None,
                    format!(
                        "{EARLIER_NOTE} {} earlier entries are on disk (undo past them loads them)",
                        self.enc.base()
                    ),
                    Vec::new(),
                ),
            );
        }
        let log = self.log.edit();
        items.append(log);
        *log = items;
        self.log_from = 0;
    }

    /// Loads the entries a save opened from its end left on disk, and their log items.
    fn load_earlier(&mut self) -> Result<(), String> {
        let earlier = self.store.earlier(&self.enc)?;
        let n = earlier.len();
        self.enc.prepend(earlier)?;
        let log = self.log.edit();
        log.retain(|l| !l.head.starts_with(EARLIER_NOTE));
        for item in log {
            item.entry = item.entry.map(|i| i + n);
        }
        self.log_from += n;
        self.complete_log();
        Ok(())
    }

    /// Undoes one command; false when it was refused (said on the screen).
    fn undo(&mut self) -> bool {
        if self.before_change() {
            return false;
        }
        if self.enc.undo_needs_earlier() {
            // The step to undo reaches before the entries loaded at open: load the rest now.
            if let Err(e) = self.load_earlier() {
                self.error(e);
                return false;
            }
        }
        let undone: Vec<String> = self.enc.undo(1).iter().map(|e| e.text.clone()).collect();
        if undone.is_empty() {
            self.error("nothing to undo");
            return false;
        }
        let cursor = self.enc.cursor();
        self.log
            .edit()
            .retain(|l| l.entry.is_none_or(|i| i < cursor));
        let note = format!("↶ undone: {}", undone.join("; "));
        self.log
            .edit()
            .push(LogItem::new(None, note.clone(), Vec::new()));
        self.tracker.log_scroll = 0;
        self.info(note);
        self.save();
        true
    }

    /// Redoes one command; false when it was refused (said on the screen).
    fn redo(&mut self) -> bool {
        if self.before_change() {
            return false;
        }
        let from = self.enc.cursor();
        let mut state = self.enc.state().clone();
        if self.enc.redo(1).is_empty() {
            self.error("nothing to redo");
            return false;
        }
        let to = self.enc.cursor();
        let texts: Vec<String> = self.enc.applied()[from..to]
            .iter()
            .map(|e| e.text.clone())
            .collect();
        let note = format!("↷ redone: {}", texts.join("; "));
        // The note stays when the entry is undone again, as the undo's note does.
        self.log
            .edit()
            .push(LogItem::new(None, note.clone(), Vec::new()));
        for i in from..to {
            let entry = &self.enc.applied()[i];
            let (lines, after) =
                report::entry_lines(state, entry, self.enc.rules(), self.enc.catalogue());
            state = after;
            self.log
                .edit()
                .push(LogItem::new(Some(i), entry.text.clone(), lines));
        }
        self.tracker.log_scroll = 0;
        self.info(note);
        self.save();
        true
    }

    /// The lines `PgUp`/`PgDn` move the focused pane by: its rows in sight less one (the
    /// order's head row not counted), at least one.
    fn page(&self) -> usize {
        let area = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        let a = crate::ui::view::areas(self, area);
        let narrating = tracker::narrates(&self.enc);
        let (pane, head) = match self.tracker.focus {
            tracker::Pane::Order => (a.order, u16::from(!narrating)),
            tracker::Pane::Narration => (a.grid.unwrap_or(a.order), 0),
            tracker::Pane::Status => (a.status, 0),
            tracker::Pane::Log => (a.log, 0),
        };
        usize::from(pane.height.saturating_sub(2 + head))
            .saturating_sub(1)
            .max(1)
    }

    /// Keeps the status, narration and log panes' scrolls inside their lines, and the marks
    /// on those present.
    fn keep_in_view(&mut self) {
        let roster = self.roster();
        self.tracker.marks.retain(|id| roster.contains(id));
        if self.tracker.status_scroll == 0
            && self.tracker.log_scroll == 0
            && self.tracker.narration_scroll == 0
        {
            // Nothing to clamp (laying out the screen to find the pane costs a fifth of a key).
            return;
        }
        let area = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        let areas = crate::ui::view::areas(self, area);
        if self.tracker.status_scroll > 0 {
            let most = crate::ui::view::status::max_scroll(self, areas.status);
            self.tracker.status_scroll = self.tracker.status_scroll.min(most);
        }
        if self.tracker.narration_scroll > 0 {
            let most = areas
                .grid
                .map_or(0, |g| crate::ui::view::narration::max_scroll(self, g));
            self.tracker.narration_scroll = self.tracker.narration_scroll.min(most);
        }
        if self.tracker.log_scroll > 0 {
            let most = crate::ui::view::log::max_scroll(self, areas.log);
            self.tracker.log_scroll = self.tracker.log_scroll.min(most);
        }
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
        // A read-only screen opens no room whose end would change the fight: the tracker takes
        // the keys its read-only key bar shows (`keymap::reads`), and says why it takes no other.
        if let Some(r) = &self.read_only
            && matches!(self.mode, Mode::Tracker)
            && !keymap::reads(action)
        {
            self.error(format!(
                "read-only: {r}; only keys that read work here (move, find, mark, the command line, help)"
            ));
            return;
        }
        let page = match (&self.mode, action) {
            (Mode::Tracker, Action::PageUp | Action::PageDown) => self.page(),
            _ => 1,
        };
        let ctx = Ctx {
            sheets: self.roster.as_ref(),
            page,
            ..Ctx::new(&self.enc, &self.tracker).on_screen(self.size)
        };
        let in_room = !matches!(self.mode, Mode::Tracker);
        let kind = self.mode.kind();
        let said = self.said;
        let outcome = self.mode.update(&mut self.tracker, action, &ctx);
        self.carry_out(outcome);
        // A key that said nothing new, in a room or moving to another: the refusal before it
        // spoke of input that changed or of a room left.
        if self.said == said
            && self.refusal_at == Some(said)
            && (in_room || self.mode.kind() != kind)
        {
            self.message = None;
            self.refusal_at = None;
        }
        // A room opened from the tracker by a key that said nothing: an older message spoke of
        // another key (a refusal is cleared above, a warning of not saving stays).
        if self.said == said
            && kind == ModeKind::Tracker
            && self.mode.kind() != kind
            && self.message.as_ref().is_some_and(|(_, err)| !err)
        {
            self.message = None;
        }
        self.keep_in_view();
    }

    /// Does what a room asked for.
    pub(crate) fn carry_out(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Stay => {}
            Outcome::Close => self.mode = Mode::Tracker,
            Outcome::Open(next) => self.mode = next,
            Outcome::Run { cmd, then } => match self.run_command(cmd) {
                Ok(()) => {
                    let ctx = Ctx::new(&self.enc, &self.tracker).on_screen(self.size);
                    self.mode = self.mode.after_run(then.unwrap_or(Mode::Tracker), &ctx);
                }
                // The mode stays; the reason is on the status line, and a form puts it in the
                // field it names.
                Err(e) => self.mode.refused(&e),
            },
            Outcome::Bring { brings, then } => match self.run_all(brings) {
                Ok(()) => {
                    let ctx = Ctx::new(&self.enc, &self.tracker).on_screen(self.size);
                    self.mode = self.mode.after_run(then.unwrap_or(Mode::Tracker), &ctx);
                }
                Err(e) => self.mode.refused(&e),
            },
            Outcome::Undo(n) => {
                self.mode = Mode::Tracker;
                // The command line refused a count above what there is; a refusal stops it.
                for _ in 0..n {
                    if !self.undo() {
                        break;
                    }
                }
            }
            Outcome::Redo(n) => {
                self.mode = Mode::Tracker;
                for _ in 0..n {
                    if !self.redo() {
                        break;
                    }
                }
            }
            Outcome::Say(news) => self.info(news),
            Outcome::Answer(news) => {
                self.mode = Mode::Tracker;
                self.info(news);
            }
            Outcome::Fail(why) => self.error(why),
            Outcome::Select(selection, after) => {
                self.tracker.selection = selection;
                if after == After::Close {
                    self.mode = Mode::Tracker;
                }
            }
        }
    }
}
