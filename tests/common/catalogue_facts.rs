//! The facts of the actions catalogue's rules text, kept as data in
//! `tests/fixtures/catalogue-facts.ron` so that the tests need nothing outside the repository.
//! `examples/catalogue_facts.rs` takes them from the text; `tests/catalogue.rs` checks
//! `assets/actions.ron` against them. Facts only: names, types, tests, marks, pages, and a
//! fingerprint of the wording (hashes of word runs), never the text's sentences.

use serde::{Deserialize, Serialize};
use srtrack::catalogue::ActionGroup;

/// Words in a run: no summary may share a run this long with the text.
pub const RUN: usize = 6;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogueFacts {
    /// Every action heading of the text, in the text's order.
    pub actions: Vec<ActionFacts>,
    /// [`run_hash`] of every run of [`RUN`] words of the text, sorted, without repeats.
    pub word_runs: Vec<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionFacts {
    /// The heading as printed (a heading wrapped onto an "or ..." line is joined).
    pub name: String,
    /// The group heading it comes under.
    pub group: ActionGroup,
    /// The type line under the heading, as printed: "Complex Action", "-5 Initiative".
    pub kind: Option<String>,
    /// After "Test:", lines joined.
    pub test: Option<String>,
    /// After "Marks Required:".
    pub marks: Option<String>,
    /// Dice-pool phrases the action's passage holds where it has no "Test:" line
    /// (e.g. "Body + Willpower"): the pieces of the catalogue's test found there.
    pub phrases: Vec<String>,
    /// Every page the passage refers to ("p. 424").
    pub pages: Vec<u32>,
}

/// Lower-case words: runs of letters and digits.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// FNV-1a (64 bit) of the words joined by single spaces: stable across platforms and versions.
pub fn run_hash(run: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, w) in run.iter().enumerate() {
        if i > 0 {
            h ^= u64::from(b' ');
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        for b in w.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The pieces of a test that the text writes as separate phrases: split at " v. " and " or "
/// (outside brackets), each without a trailing note of ours in parentheses, e.g.
/// `Vehicle skill + Reaction v. Reaction + Intuition (pedestrian)` gives
/// `Vehicle skill + Reaction` and `Reaction + Intuition`.
pub fn test_pieces(test: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut skip_to = 0;
    for (i, c) in test.char_indices() {
        if i < skip_to {
            continue;
        }
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        let sep = [" v. ", " or "]
            .into_iter()
            .find(|s| depth == 0 && test[i..].starts_with(s));
        if let Some(sep) = sep {
            pieces.push(&test[start..i]);
            skip_to = i + sep.len();
            start = skip_to;
        }
    }
    pieces.push(&test[start..]);
    pieces
        .into_iter()
        .map(|p| {
            let p = p.trim();
            match p.rfind(" (") {
                Some(at) if p.ends_with(')') && at > 0 => p[..at].trim().to_string(),
                _ => p.to_string(),
            }
        })
        .filter(|p| !p.is_empty())
        .collect()
}
