//! The save file: RON, pretty, versioned. Parsing is bounded (size, nesting) and every error
//! names the file, and the line and column where it applies.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::validate;
use crate::catalogue::Catalogue;
use crate::encounter::{Encounter, Entry, System};
use crate::rules::HouseRules;

/// The format version this srtrack writes. Older versions are migrated on load.
///
/// 2 added `system`: a version 1 save runs SR5. The bump keeps an older srtrack from reading a
/// newer save and writing it back without the fields it does not know.
pub const VERSION: u32 = 2;

/// Files above this are refused before they are read: no real fight comes close.
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// Deeper nesting than any valid save needs; guards the parser's stack.
const RECURSION_LIMIT: usize = 64;

/// Everything a save holds. `version` comes first so a person (and srtrack) sees it at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Entries `..cursor` are applied; the rest can be redone.
    pub cursor: usize,
    pub history: Vec<Entry>,
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
    pub fn of(encounter: &Encounter, name: &str, created: &str) -> Self {
        Self {
            version: VERSION,
            name: name.to_string(),
            created: created.to_string(),
            system: encounter.system(),
            rules: encounter.rules().clone(),
            cursor: encounter.cursor(),
            history: encounter.history().to_vec(),
        }
    }

    /// The file's text: pretty RON, in this srtrack's format whatever version it was read as.
    pub fn to_ron(&self) -> String {
        to_ron(
            VERSION,
            &self.name,
            &self.created,
            self.system,
            &self.rules,
            self.cursor,
            &self.history,
        )
    }

    /// Rebuilds the encounter by replaying the history, checking each event on the way.
    pub fn into_encounter(
        self,
        file: &str,
        catalogue: Arc<Catalogue>,
    ) -> Result<Encounter, LoadError> {
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
        validate::check_history(&self.history, self.system, &rules, &catalogue).map_err(err)?;
        Ok(Encounter::from_history(
            self.system,
            rules,
            catalogue,
            self.history,
            self.cursor,
        ))
    }
}

/// Serializes without cloning the history (autosave runs after every command).
pub fn to_ron(
    version: u32,
    name: &str,
    created: &str,
    system: System,
    rules: &HouseRules,
    cursor: usize,
    history: &[Entry],
) -> String {
    #[derive(Serialize)]
    #[serde(rename = "SaveFile")]
    struct Borrowed<'a> {
        version: u32,
        name: &'a str,
        created: &'a str,
        system: System,
        rules: &'a HouseRules,
        cursor: usize,
        history: &'a [Entry],
    }
    let config = pretty();
    // Serializing plain data to a String cannot fail.
    ron::ser::to_string_pretty(
        &Borrowed {
            version,
            name,
            created,
            system,
            rules,
            cursor,
            history,
        },
        config,
    )
    .expect("a save file serializes")
        + "\n"
}

fn pretty() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("  ")
}

/// Builds the same text as [`to_ron`] from entries already serialized one by one, so an
/// autosave serializes only the entries that are new since the last one.
#[derive(Debug, Default)]
pub struct CachedText {
    entries: Vec<(Entry, String)>,
}

impl CachedText {
    pub fn text(
        &mut self,
        name: &str,
        created: &str,
        system: System,
        rules: &HouseRules,
        cursor: usize,
        history: &[Entry],
    ) -> String {
        // Entries change only by undo-then-new-command; keep the common prefix.
        let keep = self
            .entries
            .iter()
            .zip(history)
            .take_while(|((cached, _), e)| cached == *e)
            .count();
        self.entries.truncate(keep);
        for entry in &history[keep..] {
            let one = ron::ser::to_string_pretty(entry, pretty()).expect("an entry serializes");
            // Entries sit two levels deep; strings are escaped, so every newline is layout.
            let indented = format!("    {},\n", one.replace('\n', "\n    "));
            self.entries.push((entry.clone(), indented));
        }
        let head = to_ron(VERSION, name, created, system, rules, cursor, &[]);
        let Some(stem) = head.strip_suffix("  history: [],\n)\n") else {
            return to_ron(VERSION, name, created, system, rules, cursor, history);
        };
        if history.is_empty() {
            return head;
        }
        let body: usize = self.entries.iter().map(|(_, t)| t.len()).sum();
        let mut out = String::with_capacity(stem.len() + body + 32);
        out.push_str(stem);
        out.push_str("  history: [\n");
        for (_, t) in &self.entries {
            out.push_str(t);
        }
        out.push_str("  ],\n)\n");
        out
    }
}

/// Parses a save's bytes; `file` names it in messages. Does not replay the history.
pub fn parse(bytes: &[u8], file: &str) -> Result<SaveFile, LoadError> {
    let err = |at: Option<(usize, usize)>, message: String| LoadError {
        file: file.to_string(),
        at,
        message,
    };
    if bytes.len() as u64 > MAX_BYTES {
        return Err(err(
            None,
            format!(
                "the file is {} bytes, more than the {} MiB a save may have",
                bytes.len(),
                MAX_BYTES / (1024 * 1024)
            ),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(&bytes[..e.valid_up_to()]);
        err(
            Some((line, col)),
            "the file is not UTF-8 text (is it a save file?)".into(),
        )
    })?;
    if text.trim().is_empty() {
        return Err(err(None, "the file is empty".into()));
    }
    let options = ron::Options::default().with_recursion_limit(RECURSION_LIMIT);
    let spanned = |e: ron::error::SpannedError| {
        let (line, col) = (e.span.start.line, e.span.start.col);
        err(Some((line, col)), plain_words(&e.code, text, line, col))
    };
    // The common case parses once; the version is probed only to explain a failure.
    let parsed = options.from_str::<SaveFile>(text);
    let version = match &parsed {
        Ok(save) => save.version,
        Err(_) => {
            options
                .from_str::<VersionProbe>(text)
                .map_err(|e| {
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
        // Version 1 had no `system`: its default (SR5) fills it in. Later versions would be
        // migrated here, one step each.
        1 | VERSION => parsed.map_err(spanned),
        v => Err(err(None, format!("unknown save version {v}"))),
    }
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
        // ron's messages quote what they found, which may be anything the file holds.
        other => crate::text::excerpt_to(&other.to_string(), 160),
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

/// Reads, parses and replays a save file.
pub fn load(path: &Path, catalogue: Arc<Catalogue>) -> Result<(SaveFile, Encounter), LoadError> {
    let file = path.display().to_string();
    let io = |e: std::io::Error| LoadError {
        file: file.clone(),
        at: None,
        message: super::io_message(&e),
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(LoadError {
            file: file.clone(),
            at: None,
            message: "it is a directory, not a save file".into(),
        });
    }
    if meta.len() > MAX_BYTES {
        return Err(LoadError {
            file: file.clone(),
            at: None,
            message: format!(
                "the file is {} bytes, more than the {} MiB a save may have",
                meta.len(),
                MAX_BYTES / (1024 * 1024)
            ),
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    let save = parse(&bytes, &file)?;
    let header = SaveFile {
        version: save.version,
        name: save.name.clone(),
        created: save.created.clone(),
        system: save.system,
        rules: save.rules.clone(),
        cursor: save.cursor,
        history: Vec::new(),
    };
    let enc = save.into_encounter(&file, catalogue)?;
    Ok((header, enc))
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

    #[test]
    fn cached_text_is_the_plain_serialization() {
        let demo = parse(super::super::store::DEMO.as_bytes(), "demo.ron").unwrap();
        let head = to_ron(VERSION, "d", "c", System::Sr5, &demo.rules, 0, &[]);
        assert!(
            head.ends_with("  history: [],\n)\n"),
            "the fast path applies: {head}"
        );
        let mut cache = CachedText::default();
        for upto in [0, 1, 5, 66, 30, 66] {
            let h = &demo.history[..upto];
            let plain = to_ron(VERSION, "d", "c", System::Sr5, &demo.rules, upto, h);
            assert_eq!(
                cache.text("d", "c", System::Sr5, &demo.rules, upto, h),
                plain,
                "{upto} entries"
            );
        }
    }

    #[test]
    fn rfc3339_formats_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
    }
}
