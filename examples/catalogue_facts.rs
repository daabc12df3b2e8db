//! Takes the facts of the actions catalogue's rules text (headings, groups, types, tests, marks,
//! pages, and hashes of its word runs) into the fixture `tests/catalogue.rs` checks
//! `assets/actions.ron` against, so that the tests need nothing outside the repository:
//!
//! ```sh
//! cargo run --example catalogue_facts -- PATH/TO/sr5-actions-catalogue.txt \
//!     > tests/fixtures/catalogue-facts.ron
//! ```
//!
//! Where an action has no "Test:" line, the pieces of the catalogue's test that its passage
//! holds are kept as phrases; a piece the passage lacks stops the run (exit 1).

#[path = "../tests/common/catalogue_facts.rs"]
mod facts;

use std::process::ExitCode;

use facts::{ActionFacts, CatalogueFacts, RUN, run_hash, test_pieces, words};
use srtrack::catalogue::{ActionGroup, Catalogue};
use srtrack::rules::HouseRules;

const GROUP_HEADINGS: [(&str, ActionGroup); 7] = [
    ("Free Actions", ActionGroup::Free),
    ("Simple Actions", ActionGroup::Simple),
    ("Complex Actions", ActionGroup::Complex),
    ("Interrupt Actions", ActionGroup::Interrupt),
    ("Chase Actions", ActionGroup::Chase),
    ("Matrix Actions", ActionGroup::Matrix),
    ("Resonance Actions", ActionGroup::Resonance),
];

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!(
            "usage: catalogue_facts PATH/TO/sr5-actions-catalogue.txt > tests/fixtures/catalogue-facts.ron"
        );
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", path.to_string_lossy());
            return ExitCode::FAILURE;
        }
    };
    let catalogue = match Catalogue::embedded(&HouseRules::embedded()) {
        Ok(c) => c,
        Err(p) => {
            eprintln!("the built-in catalogue is broken: {p:?}");
            return ExitCode::FAILURE;
        }
    };
    match take_facts(&text, &catalogue) {
        Ok(facts) => {
            print!("{}", to_ron(&facts, text.len()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// A heading: a short line starting upper-case, without closing punctuation, right after a line
/// that ends a sentence (or a group heading). "send message" printed before "Send Message" is
/// one heading; a wrapped "Test:" line is not a heading.
fn is_heading(line: &str, prev: &str) -> bool {
    let starts_upper = line.chars().next().is_some_and(char::is_uppercase);
    let open_end = !line.ends_with(['.', ',', ';', ':']);
    let after_sentence = prev.is_empty()
        || prev.ends_with(['.', '!', ')'])
        || GROUP_HEADINGS.iter().any(|(h, _)| *h == prev)
        || prev.eq_ignore_ascii_case(line);
    starts_upper && open_end && line.len() <= 40 && after_sentence && !prev.starts_with("Test:")
}

fn take_facts(text: &str, catalogue: &Catalogue) -> Result<CatalogueFacts, String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    // (name, group, first line of the passage); passages end where the next heading starts.
    let mut heads: Vec<(String, ActionGroup, usize, usize)> = Vec::new();
    let mut group = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some((_, g)) = GROUP_HEADINGS.iter().find(|(h, _)| *h == line) {
            group = Some(*g);
            if let Some(last) = heads.last_mut() {
                last.3 = last.3.min(i);
            }
            i += 1;
            continue;
        }
        let prev = if i > 0 { lines[i - 1] } else { "" };
        if let Some(g) = group
            && is_heading(line, prev)
        {
            // "send message" printed before "Send Message": one heading, the second one.
            let printed_twice = i > 0 && prev.eq_ignore_ascii_case(line);
            let mut name = line.to_string();
            let mut body = i + 1;
            if let Some(next) = lines.get(i + 1)
                && next.starts_with("or ")
            {
                name = format!("{name} {next}");
                body = i + 2;
            }
            if let Some(last) = heads.last_mut() {
                last.3 = last.3.min(if printed_twice { i - 1 } else { i });
            }
            heads.push((name, g, body, lines.len()));
            i = body;
            continue;
        }
        i += 1;
    }
    let mut actions = Vec::new();
    for (name, group, from, to) in heads {
        let passage = &lines[from..to];
        actions.push(action_facts(name, group, passage, catalogue)?);
    }
    let mut word_runs: Vec<u64> = words(text).windows(RUN).map(run_hash).collect();
    word_runs.sort_unstable();
    word_runs.dedup();
    Ok(CatalogueFacts { actions, word_runs })
}

fn action_facts(
    name: String,
    group: ActionGroup,
    passage: &[&str],
    catalogue: &Catalogue,
) -> Result<ActionFacts, String> {
    let strip = |l: &str| l.trim_start_matches('-').trim().to_string();
    let mut kind = None;
    let mut marks = None;
    let mut test = None;
    for (n, line) in passage.iter().enumerate() {
        let bare = strip(line);
        let is_type = [
            "Free",
            "Simple",
            "Complex",
            "Variable",
            "Special",
            "Interrupt",
        ]
        .iter()
        .any(|t| bare == format!("{t} Action"));
        let is_initiative = line.starts_with('-')
            && line.ends_with(" Initiative")
            && line[1..line.len() - " Initiative".len()]
                .chars()
                .all(|c| c.is_ascii_digit());
        // The type line comes right under the heading, before any prose.
        if n < 3 && kind.is_none() && (is_type || is_initiative) {
            kind = Some(if is_initiative {
                (*line).to_string()
            } else {
                bare.clone()
            });
        }
        if let Some(m) = bare.strip_prefix("Marks Required:") {
            marks = Some(m.trim().to_string());
        }
        if let Some(t) = bare.strip_prefix("Test:")
            && test.is_none()
        {
            test = Some(test_lines(t.trim(), &passage[n + 1..]));
        }
    }
    let joined = passage.join(" ");
    let joined = joined.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut phrases = Vec::new();
    if test.is_none() {
        let ours = name.trim_end_matches(" (Defense)");
        if let Some(t) = catalogue.get(ours).and_then(|a| a.test.clone()) {
            for piece in test_pieces(&t) {
                if !joined.contains(&piece) {
                    return Err(format!(
                        "{name}: the catalogue's test piece {piece:?} is not in the text"
                    ));
                }
                phrases.push(piece);
            }
        }
    }
    Ok(ActionFacts {
        name,
        group,
        kind,
        test,
        marks,
        phrases,
        pages: pages(&joined),
    })
}

/// A test wraps onto the next lines while a bracket is open, the line ends in "v.", "+", "x" or
/// "or", or the next line starts lower-case, with "+" or with "(", or adds up a pool
/// ("Level + Resonance") without ending a sentence.
fn test_lines(first: &str, rest: &[&str]) -> String {
    let mut t = first.to_string();
    for next in rest {
        let opens = t.matches(['(', '[']).count();
        let closes = t.matches([')', ']']).count();
        let dangling = [" v.", "+", " x", " or"].iter().any(|e| t.ends_with(e));
        let goes_on = next
            .chars()
            .next()
            .is_some_and(|c| c.is_lowercase() || c == '+' || c == '(')
            || (next.contains(" + ") && !next.ends_with('.'));
        if opens > closes || dangling || goes_on {
            t.push(' ');
            t.push_str(next);
        } else {
            break;
        }
    }
    t
}

/// Page numbers after "p." (a word of its own).
fn pages(joined: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = joined[from..].find("p.") {
        let at = from + at;
        from = at + 2;
        let word_start = joined[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let digits: String = joined[at + 2..]
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if word_start
            && let Ok(p) = digits.parse()
            && !out.contains(&p)
        {
            out.push(p);
        }
    }
    out
}

fn to_ron(facts: &CatalogueFacts, bytes: usize) -> String {
    // One action a line, so a change to the text shows as a change to the lines it touches.
    let one_line = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .new_line(" ")
        .indentor("");
    let mut out = format!(
        "// The facts of sr5-actions-catalogue.txt ({bytes} bytes), taken by examples/catalogue_facts.rs:\n\
         // regenerate, do not edit. word_runs are hashes of its {RUN}-word runs, not its words.\n\
         CatalogueFacts(\n  actions: [\n"
    );
    for a in &facts.actions {
        let line = ron::ser::to_string_pretty(a, one_line.clone()).expect("the facts serialize");
        out.push_str(&format!("    {},\n", line.replace(", )", ")")));
    }
    out.push_str("  ],\n  word_runs: [\n");
    for c in facts.word_runs.chunks(6) {
        let nums: Vec<String> = c.iter().map(u64::to_string).collect();
        out.push_str(&format!("    {},\n", nums.join(", ")));
    }
    out.push_str("  ],\n)\n");
    out
}
