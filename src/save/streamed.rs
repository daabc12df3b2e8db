//! `srtrack check`'s test of a snapshot read the way opening reads it: the head, then the
//! entries a few at a time, each checked and replayed and then let go. The screen's audit of a
//! 10,000-entry save held the file's text, every entry and the encounter they build at once
//! (issue 14: 18.5 MiB at its peak, against the 8 the screen may take).
//!
//! It answers only "it holds": a file not as srtrack writes it (another version, edited by
//! hand) or one whose check fails is read whole by [`super::file::verify_snapshot`], so that
//! what a GM is told of it is that check's words.

use std::path::Path;
use std::sync::Arc;

use super::file::{MAX_BYTES, VERSION, parse};
use super::layout::{Reader, head_with_states};
use super::validate;
use crate::catalogue::Catalogue;

/// How many entries are held at once: enough that each read and replay costs little apart.
const CHUNK: usize = 256;

/// True when the snapshot at `path` is as srtrack writes it and every state it keeps is what
/// its history gives (what [`super::file::verify_snapshot`] says `Ok` of); false when that
/// cannot be told so.
pub fn holds(path: &Path, catalogue: &Arc<Catalogue>) -> bool {
    holds_or_not(path, catalogue).unwrap_or(false)
}

fn holds_or_not(path: &Path, catalogue: &Arc<Catalogue>) -> Option<bool> {
    // The whole check refuses a file larger than a save may be; the reader stops just past it.
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    let (head, mut reader) = Reader::open(path).ok()??;
    let save = parse(head_with_states(&head).as_bytes(), "").ok()?;
    // An older version's states are dropped on load and rebuilt: the whole check says why.
    let tail = save.tail.filter(|_| save.version == VERSION)?;
    save.rules.validate().ok()?;
    let total = tail.start.checked_add(tail.entries)?;
    if save.cursor > total {
        return None;
    }
    let rules = Arc::new(save.rules);
    // Where a kept state is to be held against the replay, in order.
    let mut stops: Vec<usize> = vec![save.cursor, tail.start, total];
    stops.sort_unstable();
    stops.dedup();
    let mut state = save.system.empty_state();
    let mut at = 0;
    for stop in stops {
        while at < stop {
            let n = (stop - at).min(CHUNK);
            let entries = reader.written_entries(n).ok()??;
            state = validate::check_entries(&entries, at, state, save.system, &rules, catalogue)
                .ok()?;
            at += n;
        }
        if at == save.cursor && save.state.as_ref().is_some_and(|s| *s != state) {
            return Some(false);
        }
        if at == tail.start && tail.state != state {
            return Some(false);
        }
    }
    reader.at_end().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::save::file::verify_whole;

    fn catalogue() -> Arc<Catalogue> {
        Arc::new(Catalogue::default())
    }

    const SAVES: [(&str, &str); 4] = [
        ("demo.ron", include_str!("../../saves/demo.ron")),
        ("sr5-docks.ron", include_str!("../../saves/sr5-docks.ron")),
        ("sr2097.ron", include_str!("../../saves/sr2097.ron")),
        ("anarchy.ron", include_str!("../../saves/anarchy.ron")),
    ];

    /// The saves srtrack writes are read a chunk at a time, not whole.
    #[test]
    fn the_saves_srtrack_writes_hold_when_read_a_chunk_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in SAVES {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            assert!(holds(&path, &catalogue()), "{name}");
        }
    }

    /// Whatever an edit does to a save, what is read a chunk at a time holds only when the
    /// whole file's check says it does: a GM is never told less than that check tells.
    #[test]
    fn an_edited_save_holds_only_when_the_whole_check_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("edited.ron");
        let (mut refused, mut edits) = (0, 0);
        for (name, text) in SAVES {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            // Every 13th line: the head's, the states', entries' and the closing ones.
            for i in (0..lines.len()).step_by(13).chain([lines.len() - 1]) {
                let line = lines[i];
                let next = lines.get(i + 1).copied().unwrap_or("");
                // What takes the place of the line (and of the next, for a swap).
                let mut variants: Vec<(String, usize)> = vec![
                    (String::new(), 1),
                    (format!("{line}{line}"), 1),
                    (format!("{next}{line}"), 2),
                    // A comment that swallows the line's comma in the whole file.
                    (line.replace(",\n", " // edited,\n"), 1),
                    (line.replace(": ", ":  "), 1),
                ];
                // Each of the line's first numbers one more, one at a time.
                let digits = line.char_indices().filter(|(_, c)| c.is_ascii_digit());
                for (at, c) in digits.take(4) {
                    let d = char::from_digit((c.to_digit(10).unwrap() + 1) % 10, 10).unwrap();
                    variants.push((format!("{}{d}{}", &line[..at], &line[at + 1..]), 1));
                }
                for (variant, replaced) in variants {
                    let mut edited: String = lines[..i].concat();
                    edited.push_str(&variant);
                    edited.extend(lines.iter().skip(i + replaced).copied());
                    if edited == text {
                        continue;
                    }
                    std::fs::write(&path, &edited).unwrap();
                    edits += 1;
                    let streamed = holds(&path, &catalogue());
                    if streamed {
                        assert!(
                            verify_whole(&path, catalogue()).is_ok(),
                            "{name}, line {}: held a chunk at a time, refused whole:\n{variant}",
                            i + 1
                        );
                    } else {
                        refused += 1;
                    }
                }
            }
        }
        // Many edits change nothing the check holds against the history (a house rule no
        // entry uses, spacing, an entry after the cursor that still replays).
        assert!(refused * 2 > edits, "{refused} of {edits} refused");
    }

    /// A state kept beside the history that is not what the history gives is told apart, not
    /// only a file that cannot be read.
    #[test]
    fn a_kept_state_the_history_does_not_give_does_not_hold() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.ron");
        let text = SAVES[0].1;
        let state = text.lines().find(|l| l.starts_with("  state: ")).unwrap();
        let edited_state = state.replacen("edge: 1", "edge: 2", 1);
        assert_ne!(state, edited_state, "the demo's state holds an edge of 1");
        std::fs::write(&path, text.replacen(state, &edited_state, 1)).unwrap();
        assert_eq!(holds_or_not(&path, &catalogue()), Some(false));
        assert!(verify_whole(&path, catalogue()).is_err());
    }
}
