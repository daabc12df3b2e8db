//! The save file: RON, pretty, versioned. Parsing is bounded (size, nesting) and every error
//! names the file, and the line and column where it applies.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::validate;
use crate::catalogue::Catalogue;
use crate::encounter::{Encounter, Entry, State, System};
use crate::rules::HouseRules;

/// The format version this srtrack writes. Older versions are migrated on load.
///
/// 2 added `system`: a version 1 save runs SR5. 3 added `generation`, `state` and `tail`, wrote
/// each entry on a line of its own and put a journal beside the file (see `save::journal`). Each
/// bump keeps an older srtrack from reading a newer save and writing it back without the fields
/// (or the journal) it does not know. 4 added fields to the state (a fired ready, the actions of
/// the turn, a 2097 check to follow): an older file's `state` and `tail` lack them, so they are
/// dropped on load and the state is rebuilt from the history. 5 added the SR5 attack action
/// that waits for its attack to take its rounds; 6 keeps each such action of the turn, not the
/// latest alone (and none spent with a firearm in hand); 7 added an SR5 firearm's clip taken out
/// (`clip_out`, by the event `ClipRemoved`, which an older srtrack cannot read); 8 keeps an
/// Anarchy test's dice while Edge may still roll its misses again (`open_tests`, and a test
/// event's `rerolled`), and counts in a pass's `start` what was spent in it before the turn; 9
/// keeps a 2097 injury a coming back up has tended (`fate: Tended`); 10 added Anarchy events an
/// older srtrack cannot read (`FlashbackNarrated`, `Revenged`), and derives from a test's event
/// whether the narrator has tested and why a test is closed to Edge after the roll; 11 keeps in a
/// skipped turn's mark the serial of the turn (`Deferred { turn }`), which the turn keeps when
/// taken later, so what ends with it ends then and `until next` waits for the turn after it.
/// Bump it whenever the state gains what the history gives, or an event is added,
/// or older snapshots would be taken for edited files and newer saves refused in RON's words.
pub const VERSION: u32 = 11;

/// Files above this are refused before they are read: no real fight comes close.
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// Deeper nesting than any valid save needs; guards the parser's stack.
pub(crate) const RECURSION_LIMIT: usize = 64;

/// Everything a save's snapshot holds. `version` comes first so a person (and srtrack) sees it
/// at once. The journal beside it (`save::journal`) holds what changed since it was written.
// A field srtrack does not know (a hand edit, a typo) is refused: kept, it would be dropped
// without a word at the next rewrite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// The format version the file was written in (written back as [`VERSION`]).
    pub version: u32,
    pub name: String,
    /// RFC 3339, UTC.
    pub created: String,
    /// The rule system; saves from before systems existed have none and run SR5.
    #[serde(default)]
    pub system: System,
    pub rules: HouseRules,
    /// A number new at every rewrite of the file; the journal beside it names the one it
    /// continues, so a journal already folded in (or another file's) is never applied. 0: none
    /// (an older version, or a file not written by a save), and no journal belongs to it.
    #[serde(default)]
    pub generation: u64,
    /// Entries `..cursor` are applied; the rest can be redone.
    pub cursor: usize,
    /// The state after `cursor` entries, so that opening needs no replay of the history.
    /// Derived data: `srtrack check` holds it against the replay, and a load that replays the
    /// history goes by the history.
    #[serde(default)]
    pub state: Option<State>,
    /// Where opening starts reading the history (see [`Tail`]).
    #[serde(default)]
    pub tail: Option<Tail>,
    pub history: Vec<Entry>,
    /// Read from the journal beside the file, not from the file: where its whole lines end
    /// and how many changes they hold (`None`: no journal continues this snapshot).
    #[serde(skip)]
    pub journal: Option<(u64, usize)>,
}

/// The end of the history that opening loads: the state after the first `start` entries, and
/// the number of entries after them (to the end, redo part included). The entries before are
/// read when undo or the log reach them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tail {
    pub start: usize,
    pub entries: usize,
    pub state: State,
}

impl Tail {
    /// The tail a snapshot of `encounter` keeps: [`TAIL`] entries before the cursor, or all
    /// that are loaded if fewer (numbers count the whole history, loaded or not).
    fn of(encounter: &Encounter) -> Self {
        let base = encounter.base();
        let start = (base + encounter.cursor()).saturating_sub(TAIL).max(base);
        Self {
            start,
            entries: base + encounter.history().len() - start,
            state: encounter.state_after(start - base),
        }
    }
}

/// A new snapshot of `encounter`: its generation, its head, and the rest of its text after the
/// entry lines of the [`Encounter::base`] entries not loaded (copied from the snapshot it
/// replaces: see [`earlier_lines`]).
pub fn snapshot_parts(encounter: &Encounter, name: &str, created: &str) -> (u64, String, String) {
    let generation = new_generation();
    let tail = Tail::of(encounter);
    let head = super::layout::Head {
        name,
        created,
        system: encounter.system(),
        rules: encounter.rules(),
        generation,
        cursor: encounter.base() + encounter.cursor(),
        state: Some(encounter.state()),
        tail: Some(&tail),
    };
    (
        generation,
        super::layout::head_text(&head),
        super::layout::body_text(encounter.history()),
    )
}

/// How many entries before the cursor a snapshot's tail holds: more than any screen's log pane
/// shows and many undos deep, while opening a save still reads a few dozen KiB whatever its
/// length. Undo or the log beyond it read the rest of the history from disk.
pub const TAIL: usize = 200;

/// A save of an older version read without its snapshots (`state`, `tail`): they are dropped
/// on load and rebuilt from the history anyway, and one of a model that changed shape since
/// (version 11's skipped-turn mark) would not read.
#[derive(Deserialize)]
#[serde(rename = "SaveFile", deny_unknown_fields)]
struct OlderSave {
    version: u32,
    name: String,
    created: String,
    #[serde(default)]
    system: System,
    rules: HouseRules,
    #[serde(default)]
    generation: u64,
    cursor: usize,
    #[serde(default, rename = "state")]
    _state: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "tail")]
    _tail: Option<serde::de::IgnoredAny>,
    history: Vec<Entry>,
}

impl From<OlderSave> for SaveFile {
    fn from(old: OlderSave) -> Self {
        Self {
            version: old.version,
            name: old.name,
            created: old.created,
            system: old.system,
            rules: old.rules,
            generation: old.generation,
            cursor: old.cursor,
            state: None,
            tail: None,
            history: old.history,
            journal: None,
        }
    }
}

/// Only the version, read first so a newer file is refused before its fields are looked at.
#[derive(Deserialize)]
#[serde(rename = "SaveFile")]
struct VersionProbe {
    version: u32,
}

/// Why a save could not be read. Displays as `FILE:LINE:COL: message` or `FILE: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub at: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, col)) => write!(f, "{}:{line}:{col}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for LoadError {}

impl SaveFile {
    /// The snapshot of an encounter whose history is loaded in full.
    pub fn of(encounter: &Encounter, name: &str, created: &str) -> Self {
        let cursor = encounter.cursor();
        let history = encounter.history().to_vec();
        Self {
            version: VERSION,
            name: name.to_string(),
            created: created.to_string(),
            system: encounter.system(),
            rules: encounter.rules().clone(),
            generation: new_generation(),
            cursor,
            state: Some(encounter.state().clone()),
            tail: Some(Tail::of(encounter)),
            history,
            journal: None,
        }
    }

    /// The file's text: in this srtrack's format whatever version it was read as.
    pub fn to_ron(&self) -> String {
        super::layout::snapshot_text(self)
    }

    /// Rebuilds the encounter by replaying the history, checking each event on the way. The
    /// history is the truth: a `state` or `tail` that disagrees with it is not used (`check`
    /// reports it, see [`SaveFile::stale_states`]).
    pub fn into_encounter(
        self,
        file: &str,
        catalogue: Arc<Catalogue>,
    ) -> Result<Encounter, LoadError> {
        self.into_encounter_parted(file, catalogue, 0, None, None)
            .map(|(enc, _)| enc)
    }

    /// As [`SaveFile::into_encounter`], its history checked in two parts: the first `part`
    /// entries (skipped when `checked` gives the state they lead to, checked already), then the
    /// rest. Gives the state after the first part too.
    fn into_encounter_parted(
        self,
        file: &str,
        catalogue: Arc<Catalogue>,
        part: usize,
        checked: Option<State>,
        origin: Option<&Origin>,
    ) -> Result<(Encounter, State), LoadError> {
        let blame = |e: validate::EntryError| match origin {
            Some(origin) => origin.blame(file, e),
            None => LoadError {
                file: file.to_string(),
                at: None,
                message: e.message,
            },
        };
        let err = |message: String| LoadError {
            file: file.to_string(),
            at: None,
            message,
        };
        self.rules
            .validate()
            .map_err(|m| err(format!("rules: {m}")))?;
        if self.cursor > self.history.len() {
            return Err(err(format!(
                "cursor {} is past the end of the history ({} entries)",
                self.cursor,
                self.history.len()
            )));
        }
        let rules = Arc::new(self.rules);
        let part = part.min(self.history.len());
        let at_part = match checked {
            Some(state) => state,
            None => validate::check_entries(
                &self.history[..part],
                0,
                self.system.empty_state(),
                self.system,
                &rules,
                &catalogue,
            )
            .map_err(blame)?,
        };
        validate::check_entries(
            &self.history[part..],
            part,
            at_part.clone(),
            self.system,
            &rules,
            &catalogue,
        )
        .map_err(blame)?;
        let enc = Encounter::from_history(self.system, rules, catalogue, self.history, self.cursor);
        Ok((enc, at_part))
    }

    /// What is wrong with the states the file keeps beside its history (`encounter` is this
    /// file's, replayed; the file may be without its history): `None` if they are what the
    /// history gives, or absent.
    pub fn stale_states(&self, encounter: &Encounter) -> Option<String> {
        if let Some(state) = &self.state
            && state != &encounter.state_after(self.cursor)
        {
            return Some(format!(
                "the state saved after entry {} is not what its history gives (was the file edited?)",
                self.cursor
            ));
        }
        if let Some(tail) = &self.tail {
            if tail.start + tail.entries != encounter.history().len() {
                return Some(format!(
                    "`tail` says {} + {} entries, but the history has {}",
                    tail.start,
                    tail.entries,
                    encounter.history().len()
                ));
            }
            if tail.state != encounter.state_after(tail.start) {
                return Some(format!(
                    "the state saved after entry {} (`tail`) is not what its history gives (was the file edited?)",
                    tail.start
                ));
            }
        }
        None
    }

    /// The same without its history but with the states it keeps beside it, for
    /// [`SaveFile::stale_states`].
    fn kept_states(&self) -> Self {
        Self {
            state: self.state.clone(),
            tail: self.tail.clone(),
            ..self.head()
        }
    }

    /// The same without its history: what a caller keeps of the head.
    #[must_use]
    pub fn head(&self) -> Self {
        Self {
            history: Vec::new(),
            state: None,
            tail: None,
            journal: self.journal,
            rules: self.rules.clone(),
            name: self.name.clone(),
            created: self.created.clone(),
            ..*self
        }
    }
}

/// A number for a new snapshot: random, so that two files (or a copy put back) never share one.
pub fn new_generation() -> u64 {
    use rand::Rng as _;
    rand::rng().random_range(1..=u64::MAX)
}

/// The longest name a save holds: the longest file name of common file systems (ext4, APFS,
/// NTFS), which srtrack's own names never pass.
const NAME_BYTES: usize = 255;

/// Parses a save's bytes; `file` names it in messages. Does not replay the history.
pub fn parse(bytes: &[u8], file: &str) -> Result<SaveFile, LoadError> {
    let err = |at: Option<(usize, usize)>, message: String| LoadError {
        file: file.to_string(),
        at,
        message,
    };
    if bytes.len() as u64 > MAX_BYTES {
        return Err(err(None, over_limit(&format!("{} bytes", bytes.len()))));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(&bytes[..e.valid_up_to()]);
        err(
            Some((line, col)),
            "the file is not UTF-8 text (is it a save file?)".into(),
        )
    })?;
    let text = crate::text::without_bom(text);
    if text.trim().is_empty() {
        return Err(err(None, "the file is empty".into()));
    }
    let options = ron::Options::default().with_recursion_limit(RECURSION_LIMIT);
    // Where the text ends: a file cut short (a full disk, a copy broken off) stops ron there,
    // whatever it expected next (`Expected comma`, `Unexpected end of RON`).
    // Counted only for a file that fails: a whole scan of the text otherwise.
    let end = || line_col(text.trim_end().as_bytes());
    let ends_early = |e: &ron::error::SpannedError| crate::text::ron_ends_early(e, text).is_some();
    let cut_short = || {
        let (line, col) = end();
        err(
            Some((line, col)),
            format!(
                "the file ends early, at line {line} column {col} (was it cut short?): it is left unchanged and nothing is written over it"
            ),
        )
    };
    let spanned = |e: ron::error::SpannedError| {
        if ends_early(&e) {
            return cut_short();
        }
        let (line, col) = (e.span.start.line, e.span.start.col);
        err(Some((line, col)), plain_words(&e.code, text, line, col))
    };
    // The common case parses once; the version is probed only to explain a failure.
    let parsed = options.from_str::<SaveFile>(text);
    let version = match &parsed {
        Ok(save) => save.version,
        Err(_) => {
            // A file that is no save at all (a note, a word) is told so, not read as a save cut
            // short or as one whose `SaveFile` is misspelled.
            if let Some((at, word)) = not_a_save(text) {
                let (line, col) = line_col(&text.as_bytes()[..at]);
                return Err(err(
                    Some((line, col)),
                    format!(
                        "this is not a srtrack save (it begins `{}`; a save begins `SaveFile(`): it is left unchanged and nothing is written over it",
                        crate::text::excerpt_to(word, 20)
                    ),
                ));
            }
            options
                .from_str::<VersionProbe>(text)
                .map_err(|e| {
                    if ends_early(&e) {
                        return cut_short();
                    }
                    let mut e = spanned(e);
                    e.message = format!("not a readable save file: {}", e.message);
                    e
                })?
                .version
        }
    };
    if version > VERSION {
        return Err(err(
            None,
            format!(
                "this save is version {version}, written by a newer srtrack (this one reads up to version {VERSION}): upgrade srtrack to open it"
            ),
        ));
    }
    match version {
        // Version 1 had no `system`: its default (SR5) fills it in; versions 1 and 2 have no
        // `generation` (0: no journal goes with them), `state` or `tail`. Later versions would be
        // migrated here, one step each.
        1..=VERSION => {
            let mut save = match parsed {
                Ok(save) => save,
                // Its snapshots are not this model's: read without them (see `OlderSave`).
                Err(_) if version < VERSION => options
                    .from_str::<OlderSave>(text)
                    .map(SaveFile::from)
                    .map_err(spanned)?,
                Err(e) => return Err(spanned(e)),
            };
            // srtrack writes a file name here; one edited to megabytes would fill every header.
            if save.name.len() > NAME_BYTES {
                return Err(err(
                    None,
                    format!(
                        "the save's `name` is {} bytes: it is a file name, of {NAME_BYTES} bytes at most",
                        save.name.len()
                    ),
                ));
            }
            // A state of an older model may lack what this one derives from the history.
            if save.version < VERSION {
                save.state = None;
                save.tail = None;
            }
            // States written before the system had a slice of its own get its empty one.
            let system = save.system;
            if let Some(state) = &mut save.state {
                system.own_slices(state);
            }
            if let Some(tail) = &mut save.tail {
                system.own_slices(&mut tail.state);
            }
            Ok(save)
        }
        v => Err(err(None, format!("unknown save version {v}"))),
    }
}

/// Where a text that cannot be a save starts, and its first word: what follows the spaces and
/// comments ron skips is neither `(` nor `SaveFile` (nor a start of it, in a file cut short)
/// nor a `#![…]` attribute ron reads.
fn not_a_save(text: &str) -> Option<(usize, &str)> {
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with("//") {
            at += trimmed.find('\n').unwrap_or(trimmed.len());
        } else if let Some(inner) = trimmed.strip_prefix("/*") {
            // An unclosed comment is a file cut short: ron says so.
            at += 2 + inner.find("*/").map_or(inner.len(), |end| end + 2);
        } else {
            break;
        }
    }
    let rest = &text[at..];
    let word_len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let word = &rest[..word_len];
    let fits = rest.is_empty()
        || rest.starts_with(['(', '#'])
        || word == "SaveFile"
        || (!word.is_empty() && word_len == rest.len() && "SaveFile".starts_with(word));
    if fits {
        return None;
    }
    let shown = if word.is_empty() {
        rest.chars().next().map_or("", |c| &rest[..c.len_utf8()])
    } else {
        word
    };
    Some((at, shown))
}

/// A parse error in words a GM can act on (ron's own messages give advice to programmers).
fn plain_words(code: &ron::Error, text: &str, line: usize, col: usize) -> String {
    match code {
        ron::Error::ExceededRecursionLimit => format!(
            "nested too deeply at {line}:{col} (a save nests at most {RECURSION_LIMIT} brackets deep)"
        ),
        ron::Error::IntegerOutOfBounds => {
            let (field, number) = field_at(text, line, col);
            match field {
                Some(field) => format!("`{field}` cannot be {number}: out of range for it"),
                None => format!("{number} is out of range here"),
            }
        }
        other => crate::text::ron_words(other),
    }
}

/// The number written at 1-based `line`:`col` (ron points into it or just past it), and the
/// field it is the value of, when it directly follows `field:`.
fn field_at(text: &str, line: usize, col: usize) -> (Option<String>, String) {
    let Some(l) = text.lines().nth(line.saturating_sub(1)) else {
        return (None, "a number".into());
    };
    let chars: Vec<char> = l.chars().collect();
    let is_num = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '_' | '.');
    let mut end = col.saturating_sub(1).min(chars.len());
    // Just past the number: step back into it.
    if end > 0 && (end == chars.len() || !is_num(chars[end])) {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && is_num(chars[start - 1]) {
        start -= 1;
    }
    while end < chars.len() && is_num(chars[end]) {
        end += 1;
    }
    let number: String = chars[start..end].iter().collect();
    let before: String = chars[..start].iter().collect();
    let field = before
        .trim_end()
        .strip_suffix(':')
        .map(|b| {
            b.trim_end()
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<String>()
        })
        .filter(|f| !f.is_empty());
    let number = if number.is_empty() {
        "this number".to_string()
    } else {
        // An excerpt: a hostile file may hold a very long one.
        number.chars().take(24).collect()
    };
    (field, number)
}

/// What `srtrack check` adds to [`load`]: the states the snapshot keeps beside its history
/// (which opening may trust) must be what its history gives.
/// Read a few entries at a time when the file is as srtrack writes it (`save::streamed`), whole
/// when it is not or when it fails, so that what it says of a file is the whole check's.
pub fn verify_snapshot(path: &Path, catalogue: Arc<Catalogue>) -> Result<(), LoadError> {
    if super::streamed::holds(path, &catalogue) {
        return Ok(());
    }
    verify_whole(path, catalogue)
}

/// [`verify_snapshot`] of the whole file at once.
pub(crate) fn verify_whole(path: &Path, catalogue: Arc<Catalogue>) -> Result<(), LoadError> {
    let file = path.display().to_string();
    let save = parse(&read_save(path, &file)?, &file)?;
    // The states it keeps, apart: the history goes into the encounter without a second copy
    // (the audit of a 10,000-entry save held the file, the save and its clone at once).
    let kept = save.kept_states();
    let enc = save.into_encounter(&file, catalogue)?;
    match kept.stale_states(&enc) {
        Some(message) => Err(LoadError {
            file,
            at: None,
            message,
        }),
        None => Ok(()),
    }
}

/// Reads, parses and replays a save file and the journal that continues it.
pub fn load(path: &Path, catalogue: Arc<Catalogue>) -> Result<(SaveFile, Encounter), LoadError> {
    let file = path.display().to_string();
    let (mut save, journal, journal_path) = read_journaled(path, &file)?;
    let origin = apply_journal(&mut save, journal, &journal_path)?;
    let header = save.head();
    let (enc, _) = save.into_encounter_parted(&file, catalogue, 0, None, Some(&origin))?;
    Ok((header, enc))
}

/// [`load`] and then [`verify_snapshot`] (`srtrack check`), with their errors in their order,
/// the file read and each entry checked once: the history the journal leaves and the
/// snapshot's share the entries before the first one the journal dropped.
pub fn load_verified(
    path: &Path,
    catalogue: Arc<Catalogue>,
) -> Result<(SaveFile, Encounter), LoadError> {
    let (header, enc, stale) = load_and_verify(path, catalogue)?;
    match stale {
        Some(stale) => Err(stale),
        None => Ok((header, enc)),
    }
}

/// [`load_verified`] with what [`verify_snapshot`] would refuse kept apart from what [`load`]
/// would: the save as loaded, and the snapshot's distrusted state if there is one (`exec`
/// says of that one that nothing is written).
pub fn load_and_verify(
    path: &Path,
    catalogue: Arc<Catalogue>,
) -> Result<(SaveFile, Encounter, Option<LoadError>), LoadError> {
    let file = path.display().to_string();
    let (mut save, journal, journal_path) = read_journaled(path, &file)?;
    // The snapshot as the file has it, when the journal changes it.
    let snapshot = (journal.whole.is_some() && !journal.ops.is_empty()).then(|| save.clone());
    let origin = apply_journal(&mut save, journal, &journal_path)?;
    let shared = origin.kept;
    let header = save.head();
    let kept = save.kept_states();
    let (enc, at_shared) =
        save.into_encounter_parted(&file, Arc::clone(&catalogue), shared, None, Some(&origin))?;
    let stale = match snapshot {
        // The encounter is the snapshot's.
        None => kept.stale_states(&enc),
        Some(snapshot) => {
            let kept = snapshot.kept_states();
            let (replayed, _) =
                snapshot.into_encounter_parted(&file, catalogue, shared, Some(at_shared), None)?;
            kept.stale_states(&replayed)
        }
    };
    let stale = stale.map(|message| LoadError {
        file,
        at: None,
        message,
    });
    Ok((header, enc, stale))
}

/// The bytes of the save at `path`: a regular file of at most [`MAX_BYTES`].
fn read_save(path: &Path, file: &str) -> Result<Vec<u8>, LoadError> {
    super::read::read(path, MAX_BYTES).map_err(|e| LoadError {
        file: file.to_string(),
        at: None,
        message: e.message("a save file", over_limit),
    })
}

/// The sentence for a save over [`MAX_BYTES`], its size in words.
fn over_limit(size: &str) -> String {
    format!(
        "the file is {size}, more than the {} MiB a save may have",
        MAX_BYTES / (1024 * 1024)
    )
}

/// A save file, parsed, with what its journal holds for it and where that is.
fn read_journaled(
    path: &Path,
    file: &str,
) -> Result<(SaveFile, super::journal::Read, std::path::PathBuf), LoadError> {
    let io = |e: std::io::Error| LoadError {
        file: file.to_string(),
        at: None,
        message: super::io_message(&e),
    };
    let bytes = read_save(path, file)?;
    let save = parse(&bytes, file)?;
    let journal_path = super::journal::path_of(&super::atomic::real_path(path).map_err(io)?);
    let journal =
        super::journal::read(&journal_path, save.generation).map_err(|message| LoadError {
            file: journal_path.display().to_string(),
            at: None,
            message,
        })?;
    Ok((save, journal, journal_path))
}

/// Applies the journal's changes to the history: how many entries of the file's history are
/// still there, unchanged, at its start.
fn apply_journal(
    save: &mut SaveFile,
    journal: super::journal::Read,
    journal_path: &Path,
) -> Result<Origin, LoadError> {
    let mut kept = save.history.len();
    let mut lines = Vec::new();
    if let Some(whole) = journal.whole {
        save.journal = Some((whole, journal.ops.len()));
        if !journal.ops.is_empty() {
            lines = vec![None; save.history.len()];
        }
        for (i, op) in journal.ops.into_iter().enumerate() {
            if let super::journal::Op::Record(_) = op {
                kept = kept.min(save.cursor).min(save.history.len());
                lines.truncate(save.cursor.min(lines.len()));
                // The journal's first line is its header: change `i` is on line `i + 2`.
                lines.push(Some(i + 2));
            }
            op.apply(&mut save.history, &mut save.cursor)
                .map_err(|m| LoadError {
                    file: journal_path.display().to_string(),
                    at: None,
                    message: format!("change {}: {m}", i + 1),
                })?;
        }
    }
    Ok(Origin {
        kept,
        journal: journal_path.display().to_string(),
        lines,
    })
}

/// Where a history's entries were read from once its journal is applied: the file's first
/// `kept` entries, then lines of the journal (`lines[i]`, the line entry `i` was read from).
struct Origin {
    kept: usize,
    journal: String,
    lines: Vec<Option<usize>>,
}

impl Origin {
    /// An entry's error, said of the file that holds the entry.
    fn blame(&self, file: &str, e: validate::EntryError) -> LoadError {
        match self.lines.get(e.index).copied().flatten() {
            Some(line) => LoadError {
                file: self.journal.clone(),
                at: None,
                message: format!("line {line}: {e}"),
            },
            None => LoadError {
                file: file.to_string(),
                at: None,
                message: e.message,
            },
        }
    }
}

/// Opens a save for the screen: from the state its snapshot keeps at the start of its tail
/// and the entries after it (checked and replayed), and its journal; the history before the
/// tail stays on disk ([`earlier`] reads it when undo or the log need it). Files in another
/// layout (older versions, edited by hand) and a journal that moves back before the tail are
/// read whole, as [`load`] does; so are files with anything wrong in what it reads, so that the
/// error is its. The state after the cursor that the snapshot also keeps is not read: the
/// tail's replay gives it (`srtrack check` holds the two together).
///
/// The catalogue is asked for only once the file is read and parsed: the command line parses
/// the built-in one on a thread meanwhile, so the two overlap on the way to the first frame.
pub fn open(
    path: &Path,
    catalogue: impl FnOnce() -> Arc<Catalogue>,
) -> Result<(SaveFile, Encounter), LoadError> {
    let catalogue = std::cell::LazyCell::new(catalogue);
    match open_tail(path, &catalogue) {
        Some(opened) => Ok(opened),
        None => load(path, Arc::clone(&catalogue)),
    }
}

fn open_tail(
    path: &Path,
    catalogue: &std::cell::LazyCell<Arc<Catalogue>, impl FnOnce() -> Arc<Catalogue>>,
) -> Option<(SaveFile, Encounter)> {
    let file = path.display().to_string();
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    let (head, mut reader) = super::layout::Reader::open(path).ok()??;
    let mut save = parse(super::layout::head_alone(&head).as_bytes(), &file).ok()?;
    let tail = save.tail.take().filter(|_| save.version == VERSION)?;
    let cursor_in_tail = (tail.start..=tail.start + tail.entries).contains(&save.cursor);
    if !cursor_in_tail || !reader.skip(tail.start).ok()? {
        return None;
    }
    let mut entries = reader.entries(tail.entries).ok()??;
    if !reader.at_end().ok()? {
        return None;
    }
    let mut cursor = save.cursor - tail.start;
    let real = super::atomic::real_path(path).ok()?;
    let journal = super::journal::read(&super::journal::path_of(&real), save.generation).ok()?;
    if let Some(whole) = journal.whole {
        save.journal = Some((whole, journal.ops.len()));
        for op in journal.ops {
            let op = match op {
                super::journal::Op::Move(to) => {
                    super::journal::Op::Move(to.checked_sub(tail.start)?)
                }
                record @ super::journal::Op::Record(_) => record,
            };
            op.apply(&mut entries, &mut cursor).ok()?;
        }
    }
    save.rules.validate().ok()?;
    let rules = Arc::new(save.rules.clone());
    validate::check_entries(
        &entries,
        tail.start,
        tail.state.clone(),
        save.system,
        &rules,
        catalogue,
    )
    .ok()?;
    save.cursor = tail.start + cursor;
    save.state = None;
    let enc = Encounter::from_tail(
        save.system,
        rules,
        Arc::clone(catalogue),
        tail.start,
        tail.state,
        entries,
        cursor,
    );
    Some((save, enc))
}

/// The entries an encounter [`open`]ed left on disk, read from its snapshot at `path`, checked
/// and replayed: they must lead to the state the encounter starts from.
pub fn earlier(path: &Path, encounter: &Encounter) -> Result<Vec<Entry>, String> {
    let file = path.display().to_string();
    let unreadable = || {
        format!(
            "{file}: the history before entry {} cannot be read (run `srtrack check` on it)",
            encounter.base() + 1
        )
    };
    let (_, mut reader) = super::layout::Reader::open(path)
        .map_err(|e| format!("{file}: {}", super::io_message(&e)))?
        .ok_or_else(unreadable)?;
    let entries = reader
        .entries(encounter.base())
        .map_err(|e| format!("{file}: {}", super::io_message(&e)))?
        .ok_or_else(unreadable)?;
    let (rules, catalogue) = encounter.shared();
    let reached = validate::check_entries(
        &entries,
        0,
        encounter.system().empty_state(),
        encounter.system(),
        rules,
        catalogue,
    )
    .map_err(|m| format!("{file}: {m}"))?;
    if reached != encounter.state_after(0) {
        return Err(format!(
            "{file}: the history before entry {} does not lead to the state saved after it (run `srtrack check` on it)",
            encounter.base() + 1
        ));
    }
    Ok(entries)
}

/// The entry lines of the first `n` entries of the snapshot at `path`, as they are written:
/// what a new snapshot of an encounter [`open`]ed copies of the history it did not load.
pub fn earlier_lines(path: &Path, n: usize) -> std::io::Result<Vec<u8>> {
    let lost = || {
        std::io::Error::other("the history on disk is not the one opened (was the file changed?)")
    };
    let (_, mut reader) = super::layout::Reader::open(path)?.ok_or_else(lost)?;
    reader.raw(n)?.ok_or_else(lost)
}

/// 1-based line and column (in characters) at the end of `bytes`.
fn line_col(bytes: &[u8]) -> (usize, usize) {
    let text = String::from_utf8_lossy(bytes);
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Now as RFC 3339 UTC, to the second.
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// Seconds since the epoch as RFC 3339 UTC (civil-from-days, H. Hinnant).
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A save cut short anywhere (a full disk, a copy broken off) says so, where, and that
    /// srtrack leaves it as it is; ron's own words (`Expected comma`) say nothing a GM can use.
    #[test]
    fn a_file_cut_short_anywhere_says_it_ends_early() {
        for text in [
            include_str!("../../tests/fixtures/v1.ron"),
            include_str!("../../saves/sr2097.ron"),
        ] {
            let text = text.trim_end();
            let cuts = (40..text.len()).step_by(97).chain([text.len() - 1]);
            for cut in cuts.filter(|c| text.is_char_boundary(*c)) {
                let err = parse(&text.as_bytes()[..cut], "cut.ron").unwrap_err();
                let (line, _) = err.at.unwrap_or_else(|| panic!("{cut}: a place: {err}"));
                assert!(
                    err.message.starts_with("the file ends early"),
                    "{cut}: {err}"
                );
                assert!(err.message.contains("unchanged"), "{cut}: {err}");
                assert_eq!(line, text[..cut].trim_end().lines().count(), "{cut}: {err}");
            }
        }
    }

    /// A save opened and saved again in an editor that writes a byte-order mark (Notepad) reads
    /// as it did before.
    #[test]
    fn a_save_behind_a_byte_order_mark_reads_as_without_it() {
        let text = include_str!("../../saves/sr2097.ron");
        let plain = parse(text.as_bytes(), "plain.ron").unwrap();
        let marked = parse(format!("\u{feff}{text}").as_bytes(), "marked.ron")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            ron::to_string(&marked).unwrap(),
            ron::to_string(&plain).unwrap()
        );
    }

    #[test]
    fn rfc3339_formats_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
    }
}
