//! Tab on the command line: the words a command takes where the line ends, read from its synopsis.
//!
//! A verb's synopsis (`damage NAME[, NAME...] N [physical|stun]`) says what each word is: a
//! name, an action, a keyword, a number or free text. The words typed so far are walked through
//! it, and what may come next is offered: names where a name goes, actions where an action goes,
//! keywords where they go, and inside free text only the keyword that ends it (`until`, `do`).

use super::{all_verbs, tokenize};
use crate::catalogue::Catalogue;
use crate::encounter::State;

/// What Tab may put at the end of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// Where the word being completed starts (its opening quote, if it has one), in bytes.
    pub start: usize,
    /// The word as typed so far, unquoted.
    pub word: String,
    /// What it may become, sorted; each as the command language reads it back unquoted.
    pub words: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Name,
    Action,
    Text,
    /// A number, a pool, a new name, a weapon: nothing to offer.
    Other,
}

/// One word of a synopsis: the keywords it may be and the kind of value it may be.
#[derive(Debug, Clone)]
struct Item {
    words: Vec<String>,
    hole: Option<Kind>,
    optional: bool,
    /// A comma may follow, and another of the same.
    list: bool,
}

fn kind(placeholder: &str) -> Kind {
    match placeholder {
        "NAME" | "TARGET" | "TRIGGER" | "LEADER" | "GROUP" => Kind::Name,
        "ACTION" => Kind::Action,
        "TEXT" => Kind::Text,
        _ => Kind::Other,
    }
}

/// One alternative of a synopsis (`roll NAME|GROUP [hits N [glitch]]`, without its verb) as items.
fn items(alternative: &str) -> Vec<Item> {
    let brackets: &[char] = &['[', ']', '(', ')'];
    let mut out: Vec<Item> = Vec::new();
    let mut depth = 0i32;
    for raw in alternative.split_whitespace() {
        let optional = depth > 0 || raw.starts_with('[');
        depth += i32::try_from(raw.matches(['[', '(']).count()).unwrap_or(0);
        depth -= i32::try_from(raw.matches([']', ')']).count()).unwrap_or(0);
        if raw.trim_matches(brackets).starts_with(',') {
            if let Some(last) = out.last_mut() {
                last.list = true;
            }
            continue;
        }
        // `NAME...]` is the rest of a list: reached only after a comma.
        if raw.contains("...") || raw.contains('…') {
            continue;
        }
        let mut item = Item {
            words: Vec::new(),
            hole: None,
            optional,
            list: raw.contains(','),
        };
        for part in raw.split('|') {
            let part = part.trim_matches(|c: char| brackets.contains(&c) || c == ',');
            if part.is_empty() {
                continue;
            }
            if part.chars().all(|c| c.is_ascii_lowercase()) {
                item.words.push(part.to_string());
            } else {
                let k = kind(part);
                if item.hole.is_none() || k == Kind::Name {
                    item.hole = Some(k);
                }
            }
        }
        if !item.words.is_empty() || item.hole.is_some() {
            out.push(item);
        }
    }
    out
}

/// The synopses of `verb` split into their alternatives (`roll all | roll npcs | roll NAME`).
fn alternatives(verb: &str) -> Vec<Vec<Item>> {
    let mut out = Vec::new();
    for (_, synopsis) in all_verbs().filter(|(v, _)| *v == verb) {
        let mut current = String::new();
        for piece in synopsis.split(" | ") {
            // A `|` inside brackets (`[threshold N | vs NAME POOL]`) is not a new alternative.
            if piece == verb || piece.starts_with(&format!("{verb} ")) {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                current = piece[verb.len()..].to_string();
            } else {
                current.push(' ');
                current.push_str(piece);
            }
        }
        out.push(current);
    }
    out.iter().map(|a| items(a)).collect()
}

/// What the walk through one alternative expects of the next word.
enum Next {
    /// Items from this index on (the first required one ends what is offered).
    From(usize),
    /// Inside free text begun at this item: only the keywords after it end it.
    Text(usize),
    /// After a comma in the list of this item: another of the same.
    ListOf(usize),
    Nothing,
}

/// Walks the words after the verb through one alternative.
fn walk(items: &[Item], args: &[String], known: &dyn Fn(Kind, &str) -> bool) -> Next {
    let lit_at = |word: &str, from: usize| {
        let w = word.to_lowercase();
        (from..items.len()).find(|&i| items[i].words.contains(&w))
    };
    let mut next = 0usize;
    let mut text: Option<usize> = None;
    let mut list: Option<usize> = None;
    let mut after_comma = false;
    let mut k = 0;
    while k < args.len() {
        let arg = &args[k];
        k += 1;
        if arg == "," {
            after_comma = true;
            continue;
        }
        if after_comma {
            // Another of the list: the slot stays where it was.
            after_comma = false;
            continue;
        }
        if let Some(t) = text {
            if let Some(i) = lit_at(arg, t + 1) {
                text = None;
                next = i + 1;
            }
            continue;
        }
        if let Some(i) = lit_at(arg, next) {
            next = i + 1;
            list = None;
            continue;
        }
        // The next value item takes the word; keywords left out on the way were optional.
        let Some(i) = (next..items.len()).find(|&i| items[i].hole.is_some()) else {
            return Next::Nothing;
        };
        next = i + 1;
        list = items[i].list.then_some(i);
        match items[i].hole {
            Some(Kind::Text) => text = Some(i),
            // A name of several words typed without quotes: the longest that is known.
            Some(kind @ (Kind::Name | Kind::Action)) => {
                let mut joined = arg.clone();
                let mut longest = k;
                for (m, more) in args.iter().enumerate().skip(k) {
                    if more == "," {
                        break;
                    }
                    joined.push(' ');
                    joined.push_str(more);
                    if known(kind, &joined) {
                        longest = m + 1;
                    }
                }
                k = longest;
            }
            _ => {}
        }
    }
    match (after_comma, text, list) {
        (true, _, Some(i)) => Next::ListOf(i),
        (true, _, None) => Next::Nothing,
        (false, Some(t), _) => Next::Text(t),
        (false, None, _) => Next::From(next),
    }
}

/// What the line ending in a word being typed offers in place of that word.
pub fn complete(line: &str, state: &State, catalogue: &Catalogue) -> Offer {
    let (start, word) = last_word(line);
    let mut offer = Offer {
        start,
        word,
        words: Vec::new(),
    };
    let Ok(done) = tokenize(&line[..start]) else {
        return offer;
    };
    let mut args = done.into_iter().map(|w| w.text);
    let Some(verb) = args.next() else {
        offer.words = all_verbs().map(|(v, _)| (*v).to_string()).collect();
        return offer.keep_fitting();
    };
    let verb = verb.to_lowercase();
    let args: Vec<String> = args.collect();
    let names = || {
        state
            .present()
            .map(|c| c.name.clone())
            .chain(state.groups.iter().map(|g| g.name.clone()))
    };
    let actions = || catalogue.actions().iter().map(|a| a.name.clone());
    let known = |kind: Kind, text: &str| match kind {
        Kind::Name => names().any(|n| crate::encounter::same_name(&n, text)),
        Kind::Action => actions().any(|a| a.eq_ignore_ascii_case(text)),
        _ => false,
    };
    for items in alternatives(&verb) {
        let take = |item: &Item, words: &mut Vec<String>| {
            words.extend(item.words.iter().cloned());
            match item.hole {
                // `add NAME`: a new name, not one already here.
                Some(Kind::Name) if verb != "add" => words.extend(names()),
                Some(Kind::Action) => words.extend(actions()),
                _ => {}
            }
        };
        match walk(&items, &args, &known) {
            Next::From(i) => {
                for item in &items[i.min(items.len())..] {
                    take(item, &mut offer.words);
                    if !item.optional && item.hole.is_some() {
                        break;
                    }
                }
            }
            Next::Text(t) => {
                for item in &items[t + 1..] {
                    offer.words.extend(item.words.iter().cloned());
                }
            }
            Next::ListOf(i) => take(
                &Item {
                    words: Vec::new(),
                    ..items[i].clone()
                },
                &mut offer.words,
            ),
            Next::Nothing => {}
        }
    }
    offer.keep_fitting()
}

impl Offer {
    /// Keeps the words that start as the typed word does (any case), sorted, once each.
    fn keep_fitting(mut self) -> Self {
        let typed = self.word.to_lowercase();
        self.words.retain(|w| w.to_lowercase().starts_with(&typed));
        self.words.sort();
        self.words.dedup();
        self
    }
}

/// Where the last word of `line` starts and what it holds so far (unquoted): after the last
/// space or comma, or at an opening quote not yet closed.
fn last_word(line: &str) -> (usize, String) {
    let mut start = 0;
    let mut open: Option<usize> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (open, c) {
            (Some(_), '\\') => {
                chars.next_if(|&(_, n)| n == '"' || n == '\\');
            }
            (Some(_), '"') => {
                open = None;
                start = i + 1;
            }
            (None, '"') => open = Some(i),
            (None, c) if c.is_whitespace() || c == ',' => start = i + c.len_utf8(),
            _ => {}
        }
    }
    match open {
        Some(q) => {
            let mut word = String::new();
            let mut rest = line[q + 1..].chars().peekable();
            while let Some(c) = rest.next() {
                if c == '\\' && matches!(rest.peek(), Some('"' | '\\')) {
                    word.extend(rest.next());
                } else {
                    word.push(c);
                }
            }
            (q, word)
        }
        None => (start, line[start..].to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_word_is_found_after_spaces_commas_and_inside_quotes() {
        assert_eq!(last_word(""), (0, String::new()));
        assert_eq!(last_word("damage Ji"), (7, "Ji".into()));
        assert_eq!(last_word("hide A,B"), (7, "B".into()));
        assert_eq!(last_word("act \"Say\\\"H"), (4, "Say\"H".into()));
        assert_eq!(last_word("act \"Ganger 1\" "), (15, String::new()));
    }

    #[test]
    fn synopses_read_as_items() {
        let it = items(" NAME[, NAME...] N [physical|stun]");
        assert_eq!(it.len(), 3);
        assert!(it[0].list && it[0].hole == Some(Kind::Name));
        assert_eq!(it[2].words, ["physical", "stun"]);
        assert!(it[2].optional);
        assert_eq!(alternatives("roll").len(), 3);
    }
}
