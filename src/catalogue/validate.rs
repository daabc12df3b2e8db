//! Parsing and checking a catalogue file, with problems that point at file, entry and line.

use std::collections::HashMap;
use std::fmt;

use super::model::{ActionDef, ActionKind, Effect, Restriction};
use crate::rules::HouseRules;

/// Which entry of the file a problem is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRef {
    /// 1-based position in the list, as a GM counts.
    pub number: usize,
    /// Empty when the entry has no name (yet).
    pub name: String,
}

/// One thing wrong with a catalogue file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    /// 1-based line; 0 when it could not be found.
    pub line: usize,
    pub col: Option<usize>,
    pub entry: Option<EntryRef>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if let Some(col) = self.col {
                write!(f, ":{col}")?;
            }
        }
        f.write_str(": ")?;
        match &self.entry {
            Some(e) if e.name.is_empty() => write!(f, "entry #{} (no name): ", e.number)?,
            Some(e) => write!(
                f,
                "entry #{} \"{}\": ",
                e.number,
                crate::text::excerpt(&e.name)
            )?,
            None => {}
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

/// How many actions a catalogue may hold: ten times the built-in one; a search over them all
/// stays within a key's time (~20 ms at this count on the CI machine).
pub const MAX_ACTIONS: usize = 1_000;

pub(super) fn parse(
    text: &str,
    file: &str,
    rules: &HouseRules,
) -> Result<Vec<ActionDef>, Vec<Problem>> {
    let names = name_lines(text);
    let actions: Vec<ActionDef> = ron::from_str(text).map_err(|e| {
        let (at, message) = crate::text::ron_error_words(&e, text);
        vec![Problem {
            file: file.to_string(),
            line: at.0,
            col: Some(at.1),
            entry: entry_at(text, &names, at),
            message,
        }]
    })?;

    // A fight with no action to spend IP on could not be played: the file is a mistake (one
    // emptied to start over), not a catalogue. Past the most, the picker, which searches every
    // action at each key, would keep a key waiting.
    let count = match actions.len() {
        0 => Some(format!(
            "it holds no actions: a catalogue holds 1 to {MAX_ACTIONS} of them (`srtrack defaults actions` prints the built-in one to start from)"
        )),
        n if n > MAX_ACTIONS => Some(format!(
            "{n} actions, more than the {MAX_ACTIONS} a catalogue may hold (the picker searches them all at each key)"
        )),
        _ => None,
    };
    if let Some(message) = count {
        return Err(vec![Problem {
            file: file.to_string(),
            line: 0,
            col: None,
            entry: None,
            message,
        }]);
    }

    let mut problems = Vec::new();
    let mut first_seen: HashMap<String, usize> = HashMap::new();
    for (i, a) in actions.iter().enumerate() {
        let line = entry_line(&names, &actions, i);
        let mut report = |message: String| {
            problems.push(Problem {
                file: file.to_string(),
                line,
                col: None,
                entry: Some(EntryRef {
                    number: i + 1,
                    name: a.name.clone(),
                }),
                message,
            });
        };
        if a.name.trim().is_empty() {
            report("the name is empty".into());
        } else if let Some(why) = name_fault(&a.name, rules) {
            report(why);
        } else if let Some(&first) = first_seen.get(&a.name.to_lowercase()) {
            report(format!(
                "duplicate name: entry #{} \"{}\" already has it (names ignore case)",
                first + 1,
                crate::text::excerpt(&actions[first].name)
            ));
        } else {
            first_seen.insert(a.name.to_lowercase(), i);
        }
        if a.summary.trim().is_empty() {
            report("the summary is empty".into());
        } else if a.summary.contains('\n') {
            report("the summary must be one line".into());
        } else if let Some(text) = crate::text::first_with_control(a) {
            report(format!(
                "\"{}\" holds a control character: the texts of an action are printable ones",
                crate::text::escaped(&text)
            ));
        }
        if let ActionKind::Interrupt { initiative } = a.kind
            && rules.interrupt_ip(initiative).is_none()
        {
            report(format!(
                "Interrupt(initiative: {initiative}) has no IP cost in rules.ron's interrupt_costs"
            ));
        }
        let mut statuses: Vec<(&str, &str)> = Vec::new();
        if let Some(effect) = &a.effect {
            let what = match effect {
                Effect::Start(_) => "effect Start",
                Effect::End(_) => "effect End",
                Effect::Stack(_) => "effect Stack",
                Effect::Uses(_) => "effect Uses",
            };
            statuses.push((what, effect.status()));
        }
        for r in &a.restrictions {
            match r {
                Restriction::NotWhile(s) => statuses.push(("restriction NotWhile", s)),
                Restriction::OnlyWhile(s) => statuses.push(("restriction OnlyWhile", s)),
                Restriction::CombineWith(_) | Restriction::Needs(_) => {}
            }
        }
        for (what, status) in statuses {
            if rules.status(status).is_none() {
                report(format!(
                    "{what}(\"{status}\") names a status that is not in rules.ron's statuses"
                ));
            }
        }
    }
    for (i, a) in actions.iter().enumerate() {
        for r in &a.restrictions {
            let Restriction::CombineWith(with) = r else {
                continue;
            };
            for name in with {
                if !actions.iter().any(|b| b.name.eq_ignore_ascii_case(name)) {
                    problems.push(Problem {
                        file: file.to_string(),
                        line: entry_line(&names, &actions, i),
                        col: None,
                        entry: Some(EntryRef {
                            number: i + 1,
                            name: a.name.clone(),
                        }),
                        message: format!(
                            "CombineWith(\"{name}\") names no action of the catalogue: it goes with actions by their names"
                        ),
                    });
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(actions)
    } else {
        Err(problems)
    }
}

/// What keeps an action's name from being typed back (see [`crate::text::name_fault`]).
fn name_fault(name: &str, rules: &HouseRules) -> Option<String> {
    crate::text::name_fault(name, "an action's name", rules.limits.name_chars)
}

/// The line of entry `i`: its `name:` line when the scan lines up with the parsed list, else the
/// k-th `name: "X"` for the k-th entry named X, else 0 (unknown).
fn entry_line(names: &[NameAt], actions: &[ActionDef], i: usize) -> usize {
    let name = &actions[i].name;
    if let Some((line, _, n)) = names.get(i)
        && n == name
    {
        return *line;
    }
    let k = actions[..i].iter().filter(|a| &a.name == name).count();
    names
        .iter()
        .filter(|(_, _, n)| n == name)
        .nth(k)
        .map_or(0, |(line, _, _)| *line)
}

/// A `name: "..."` field: 1-based line and column (as ron counts them) and the name.
type NameAt = (usize, usize, String);

/// The entry a RON error at `at` (line, col) is in, when the text's shape lets us tell:
/// deserialisation errors (an unknown group or kind) carry a position, not an entry.
fn entry_at(text: &str, names: &[NameAt], at: (usize, usize)) -> Option<EntryRef> {
    let starts = entry_starts(text);
    let i = starts.iter().rposition(|&s| s <= at)?;
    let end = starts.get(i + 1).copied().unwrap_or((usize::MAX, 0));
    let name = names
        .iter()
        .find(|(l, c, _)| (*l, *c) >= starts[i] && (*l, *c) < end)
        .map(|(_, _, n)| n.clone())
        .unwrap_or_default();
    Some(EntryRef {
        number: i + 1,
        name,
    })
}

/// Where each entry of the top-level list opens: a `(` directly inside the outer `[`, skipping
/// strings and comments. Lines and columns are 1-based, columns counted in chars like ron's.
fn entry_starts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let (mut line, mut col) = (1, 0);
    let mut in_string = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            line += 1;
            col = 0;
            continue;
        }
        col += 1;
        if in_string {
            match c {
                '"' => in_string = false,
                // An escaped character never ends the string (an escaped newline is not valid RON).
                '\\' => {
                    chars.next();
                    col += 1;
                }
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '/' if chars.peek() == Some(&'/') => while chars.next_if(|&n| n != '\n').is_some() {},
            '/' if chars.peek() == Some(&'*') => {
                // Block comment: skip to `*/`, keeping count of lines.
                let mut prev = ' ';
                for n in chars.by_ref() {
                    col += 1;
                    if n == '\n' {
                        line += 1;
                        col = 0;
                    }
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            '(' | '[' | '{' => {
                if depth == 1 && c == '(' {
                    out.push((line, col));
                }
                depth += 1;
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    out
}

/// Every `name: "..."` field of the text, in order. A plain scan (the entries' nested values have
/// no `name` field); comment lines are skipped.
fn name_lines(text: &str) -> Vec<NameAt> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(pos) = rest.find("name") {
            let before_ok = rest[..pos]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            let col = line.len() - rest.len() + pos;
            let col = line[..col].chars().count() + 1;
            rest = &rest[pos + "name".len()..];
            let after = rest.trim_start();
            if !before_ok {
                continue;
            }
            let Some(after) = after.strip_prefix(':') else {
                continue;
            };
            let Some(lit) = after.trim_start().strip_prefix('"') else {
                continue;
            };
            if let Some(name) = string_literal(lit) {
                out.push((n + 1, col, name));
            }
        }
    }
    out
}

/// The content of a RON string literal whose opening quote was just consumed.
fn string_literal(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_scan_finds_fields_not_other_words() {
        let text = "[\n // name: \"Nope\"\n (name: \"A \\\"q\\\"\", summary: \"name: x\"),\n (surname: \"B\", name:\"C\"),\n]";
        assert_eq!(
            name_lines(text),
            vec![(3, 3, "A \"q\"".to_string()), (4, 17, "C".to_string())]
        );
    }
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    #[test]
    fn entry_starts_skip_strings_comments_and_nesting() {
        let text =
            "// (no)\n[\n  (a: \"(\\\"(\", b: [(1)]), /* ( \n ( */ (c: 2),\n  Named(x: 1),\n]";
        assert_eq!(entry_starts(text), vec![(3, 3), (4, 7), (5, 8)]);
    }

    #[test]
    fn an_error_in_an_entry_without_a_name_points_at_that_entry() {
        let text = "[\n (name: \"A\", x: 1),\n (x: 2),\n]";
        let names = name_lines(text);
        let e = entry_at(text, &names, (3, 4)).expect("an entry");
        assert_eq!((e.number, e.name.as_str()), (2, ""));
        let e = entry_at(text, &names, (2, 10)).expect("an entry");
        assert_eq!((e.number, e.name.as_str()), (1, "A"));
        assert_eq!(entry_at(text, &names, (1, 1)), None);
    }
}
