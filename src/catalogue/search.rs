//! Fuzzy search over action names (and the word of their group) for the action picker.

use std::cell::RefCell;

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::Catalogue;
use super::model::ActionGroup;

/// One search result: an index into [`Catalogue::actions`] and how well it matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub index: usize,
    pub score: u32,
}

thread_local! {
    // A Matcher allocates ~135 KB of scratch space: one per thread, not one per keystroke.
    static MATCHER: RefCell<Matcher> = RefCell::new(Matcher::new(Config::DEFAULT));
}

/// nucleo's per-character match score; the typo fallback is scaled on it so an exact fuzzy match
/// of the same length always outranks a typo match.
const SCORE_PER_CHAR: u32 = 16;
/// What each edit (insert, delete, substitute, swap) costs a typo match.
const TYPO_PENALTY: u32 = 24;

impl Catalogue {
    /// Actions whose name matches `query`, or whose group's word it starts, best first (ties: shorter name, then catalogue order),
    /// limited to `group` if given. An empty query lists the whole group in catalogue order.
    pub fn search(&self, query: &str, group: Option<ActionGroup>) -> Vec<Hit> {
        let in_group = |g: ActionGroup| group.is_none_or(|want| want == g);
        if query.trim().is_empty() {
            return self
                .actions()
                .iter()
                .enumerate()
                .filter(|(_, a)| in_group(a.group))
                .map(|(index, _)| Hit { index, score: 0 })
                .collect();
        }
        let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
        let words = words(query);
        let mut buf = Vec::new();
        let mut hits: Vec<Hit> = MATCHER.with_borrow_mut(|matcher| {
            self.actions()
                .iter()
                .enumerate()
                .filter(|(_, a)| in_group(a.group))
                .filter_map(|(index, a)| {
                    let name_words = &self.name_words[index];
                    // The typo fallback only runs for names nucleo does not match at all.
                    let name = pattern
                        .score(Utf32Str::new(&a.name, &mut buf), matcher)
                        .or_else(|| typo_score(&words, name_words))
                        .map(|score| score.saturating_add(word_bonus(&words, name_words)));
                    let score = name.max(group_score(query, a.group))?;
                    Some(Hit { index, score })
                })
                .collect()
        });
        // Equal scores: the shorter name is the closer match ("ram": Ram before Ramming); then the
        // stable sort keeps catalogue order.
        let actions = self.actions();
        hits.sort_by_key(|h| (std::cmp::Reverse(h.score), actions[h.index].name.len()));
        hits
    }
}

/// A lower-case word of a name or query, with the set of its letters as bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Word {
    chars: Vec<char>,
    letters: u64,
}

/// One bit per ASCII letter and digit; every other character shares the top bit.
fn letter_bit(c: char) -> u64 {
    match c {
        'a'..='z' => 1 << (u32::from(c) - u32::from('a')),
        '0'..='9' => 1 << (26 + u32::from(c) - u32::from('0')),
        _ => 1 << 63,
    }
}

/// Lower-case alphanumeric words.
pub(super) fn words(s: &str) -> Vec<Word> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let chars: Vec<char> = w.chars().flat_map(char::to_lowercase).collect();
            let letters = chars.iter().fold(0, |m, &c| m | letter_bit(c));
            Word { chars, letters }
        })
        .collect()
}

/// nucleo scores a word-boundary match the same wherever it is, so "fire" would rank Reload Firearm
/// and Load and Fire Bow with the Fire actions. A GM types the start of the name, whole words:
/// reward a name that begins with the first query word, and each query word that is a whole word
/// of the name.
fn word_bonus(query: &[Word], name_words: &[Word]) -> u32 {
    let starts = match (query.first(), name_words.first()) {
        (Some(q), Some(w)) => w.chars.starts_with(&q.chars),
        _ => false,
    };
    let whole = query
        .iter()
        .filter(|q| name_words.iter().any(|w| w.chars == q.chars))
        .count();
    let whole = u32::try_from(whole).unwrap_or(u32::MAX);
    (u32::from(starts) * SCORE_PER_CHAR).saturating_add(whole.saturating_mul(SCORE_PER_CHAR / 2))
}

/// The fewest letters of a group's word ("fre" of Free) a query needs to list that group.
const GROUP_WORD_LEAST: usize = 3;

/// A query that starts the group's word (`free`: the Free actions) matches each action of the
/// group as well as it would match a name it starts without the word bonus: above a name whose
/// letters are only scattered through it ("free" in Fire Weapon), below a name it starts.
fn group_score(query: &str, group: ActionGroup) -> Option<u32> {
    let query = query.trim().to_lowercase();
    let n = query.chars().count();
    let starts = n >= GROUP_WORD_LEAST && group.label().to_lowercase().starts_with(&query);
    let n = u32::try_from(n).unwrap_or(u32::MAX);
    starts.then(|| (SCORE_PER_CHAR + SCORE_PER_CHAR / 2).saturating_mul(n))
}

/// Typo fallback. nucleo only finds queries whose letters all appear in order, so a swapped or
/// wrong letter ("frie gun") finds nothing. Here every query word must be within a small edit
/// distance (optimal string alignment: a swap is one edit) of some word of the name, or of the
/// start of one (the GM may still be typing). The score is nucleo's per-character score minus a
/// penalty per edit, so it sits below exact fuzzy matches.
fn typo_score(query: &[Word], name_words: &[Word]) -> Option<u32> {
    if query.is_empty() {
        return None;
    }
    let mut total: u32 = 0;
    for Word { chars: q, .. } in query {
        let budget = match q.len() {
            0..=2 => 0,
            3..=5 => 1,
            _ => 2,
        };
        let best = name_words
            .iter()
            .map(|w| {
                // Cheap bound first: each letter of the query word absent from the name word
                // costs at least one edit, whether against the whole word or its start.
                let absent = q
                    .iter()
                    .filter(|&&c| w.letters & letter_bit(c) == 0)
                    .count();
                if absent > budget {
                    return usize::MAX;
                }
                let w = &w.chars;
                let prefix = osa_distance(q, &w[..w.len().min(q.len())]);
                // The whole word is at least the length difference away: skip it when that is
                // already over budget.
                if w.len().abs_diff(q.len()) > budget {
                    prefix
                } else {
                    prefix.min(osa_distance(q, w))
                }
            })
            .min()?;
        if best > budget {
            return None;
        }
        let len = u32::try_from(q.len()).unwrap_or(u32::MAX);
        let edits = u32::try_from(best).unwrap_or(u32::MAX);
        total = total.saturating_add((SCORE_PER_CHAR * len).saturating_sub(TYPO_PENALTY * edits));
    }
    Some(total)
}

/// Longest word the typo fallback compares; longer ones count as too far (no such word in a name).
const MAX_WORD: usize = 32;

/// Edit distance where swapping two neighbouring letters counts as one edit.
fn osa_distance(a: &[char], b: &[char]) -> usize {
    if a.len() > MAX_WORD || b.len() > MAX_WORD {
        return usize::MAX;
    }
    // Three rows on the stack, used in rotation (row i lives at i % 3): this runs for every name
    // word on every keystroke, so no allocation and no copying rows; the swap rule looks two rows
    // back. Distances fit a u8 as words are at most MAX_WORD long.
    let mut rows = [[0u8; MAX_WORD + 1]; 3];
    for (j, cell) in rows[0].iter_mut().enumerate().take(b.len() + 1) {
        *cell = j as u8;
    }
    for i in 1..=a.len() {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = i as u8;
        for j in 1..=b.len() {
            let sub = u8::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[prev][j] + 1)
                .min(rows[cur][j - 1] + 1)
                .min(rows[prev][j - 1] + sub);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[prev2][j - 2] + 1);
            }
            rows[cur][j] = d;
        }
    }
    usize::from(rows[a.len() % 3][b.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        osa_distance(&a, &b)
    }

    #[test]
    fn osa_counts_a_swap_as_one_edit() {
        assert_eq!(d("frie", "fire"), 1);
        assert_eq!(d("defnse", "defense"), 1);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("same", "same"), 0);
    }

    #[test]
    fn typo_score_needs_every_word() {
        let q = words("frie gun");
        assert!(typo_score(&q, &words("Fire Gun")).is_some());
        assert!(typo_score(&q, &words("Fire Bow")).is_none());
        assert!(typo_score(&words("zzzz"), &words("Fire Gun")).is_none());
    }
}
