//! Tab on the command line: the words a command takes where the line ends, read from its synopsis.
//!
//! A verb's synopsis (`damage NAME[, NAME...] N [physical|stun]`) says what each word is: a
//! name, an action, a keyword, a number or free text. The words typed so far are walked through
//! it, and what may come next is offered: names where a name goes, actions where an action goes,
//! keywords where they go, and inside free text only the keyword that ends it (`until`, `do`).

use super::synopses::{Form, forms};
use super::{reads_as, tokenize};
use crate::encounter::{Encounter, State};

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
    /// A weapon the command's first character carries.
    Weapon,
    /// A status the command's first character has.
    Status,
    /// A Plot Point spend of the rules' menu.
    Spend,
    /// A number: a word that is not one goes elsewhere.
    Number,
    /// Damage dice (`2d6+4`): a word that is not goes elsewhere.
    Dice,
    /// A pool, a new name, a face: nothing to offer.
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
    /// How many brackets it stands in (its own opening one counted).
    depth: i32,
    /// It opens a bracket, or an alternative inside one (after a `|`): the items after it in
    /// the same brackets come only with it.
    opens: bool,
    /// The item that opens the brackets (or the way in them) it stands in, if any.
    parent: Option<usize>,
}

/// The kind of value a placeholder stands for; `after` is the synopsis word before it.
fn kind(placeholder: &str, after: &str) -> Kind {
    match placeholder {
        "NAME" | "TARGET" | "TRIGGER" | "LEADER" | "GROUP" => Kind::Name,
        "ACTION" => Kind::Action,
        "TEXT" => Kind::Text,
        "STATUS" => Kind::Status,
        // `weapon NAME add WEAPON`: a new weapon's name.
        "WEAPON" if after != "add" => Kind::Weapon,
        "WHAT" => Kind::Spend,
        "N" | "IP" => Kind::Number,
        "NdM+ST" | "NdM" => Kind::Dice,
        _ => Kind::Other,
    }
}

/// Whether a typed word can stand where a value of this kind goes (`spends`: the names and
/// aliases of the Plot Point spends).
fn fits(kind: Kind, word: &str, spends: &[String]) -> bool {
    match kind {
        Kind::Number => crate::text::int_word(word).is_some(),
        Kind::Dice => super::sr2097::dice_expression(word).is_some(),
        // A spend's first word: `gm order` is not a spend.
        Kind::Spend => {
            let word = word.to_lowercase();
            spends.iter().any(|s| s.to_lowercase().starts_with(&word))
        }
        _ => true,
    }
}

/// One form of a synopsis, its verb left out (`NAME|GROUP [hits N [glitch|critical]]`), as items.
fn items(form: &str) -> Vec<Item> {
    let brackets: &[char] = &['[', ']', '(', ')'];
    let mut out: Vec<Item> = Vec::new();
    let mut depth = 0i32;
    let mut after_bar = false;
    let mut before = "";
    // The openers of the brackets the walk stands in, innermost last.
    let mut groups: Vec<Option<usize>> = Vec::new();
    for raw in form.split_whitespace() {
        if raw == "|" {
            after_bar = true;
            continue;
        }
        let own = i32::from(raw.starts_with('['));
        let at = depth + own;
        depth += i32::try_from(raw.matches('[').count()).unwrap_or(0);
        depth -= i32::try_from(raw.matches(']').count()).unwrap_or(0);
        let after = std::mem::replace(&mut before, raw.trim_matches(brackets));
        let opens = own > 0 || (after_bar && at > 0);
        let idx = out.len();
        let enclosing = groups.last().copied().flatten();
        let parent = if own == 0 && opens {
            // Another way in the same brackets: it stands where the first way stood.
            let outer = enclosing
                .and_then(|g| out.get(g))
                .and_then(|g: &Item| g.parent);
            if let Some(top) = groups.last_mut() {
                *top = Some(idx);
            }
            outer
        } else {
            enclosing
        };
        for _ in 0..raw.matches('[').count() {
            groups.push(Some(idx));
        }
        for _ in 0..raw.matches(']').count() {
            groups.pop();
        }
        after_bar = false;
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
            optional: at > 0,
            list: raw.contains(','),
            depth: at,
            opens,
            parent,
        };
        for part in raw.split('|') {
            let part = part.trim_matches(|c: char| brackets.contains(&c) || c == ',');
            if part.is_empty() {
                continue;
            }
            if part.chars().all(|c| c.is_ascii_lowercase()) {
                item.words.push(part.to_string());
            } else {
                let k = kind(part, after);
                item.hole = Some(match item.hole {
                    None => k,
                    Some(Kind::Name) => Kind::Name,
                    Some(_) if k == Kind::Name => Kind::Name,
                    Some(h) if h == k => h,
                    // `N|WORD`: anything may stand there.
                    Some(_) => Kind::Other,
                });
            }
        }
        // `cue TEXT|disposition TEXT`: a keyword after a value in one word is another way.
        item.opens |= raw.contains('|') && item.hole.is_some() && !item.words.is_empty();
        if !item.words.is_empty() || item.hole.is_some() {
            out.push(item);
        }
    }
    out
}

/// A form with a choice in parentheses (`TARGET (with WEAPON | NdM+ST) [mos N]`) as the forms
/// it stands for, one a choice.
fn expand(form: &str) -> Vec<String> {
    let Some(open) = form.find('(') else {
        return vec![form.to_string()];
    };
    let mut depth = 0i32;
    let mut close = None;
    let mut cuts = Vec::new();
    for (i, c) in form[open..].char_indices() {
        let at = open + i;
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(at);
                    break;
                }
            }
            '|' if depth == 1 => cuts.push(at),
            _ => {}
        }
    }
    let Some(close) = close else {
        return vec![form.to_string()];
    };
    let mut bounds = vec![open];
    bounds.extend(&cuts);
    bounds.push(close);
    let mut out = Vec::new();
    for pair in bounds.windows(2) {
        let choice = form[pair[0] + 1..pair[1]].trim();
        let whole = format!("{} {choice} {}", &form[..open], &form[close + 1..]);
        out.extend(expand(&whole));
    }
    out
}

/// The forms the table's system takes of the verb the parser reads `verb` as ([`reads_as`]:
/// `rm` is `remove`, `dmg` both `damage` and 2097's damage roll), as items.
fn alternatives(verb: &str, forms: &[Form]) -> Vec<Vec<Item>> {
    forms
        .iter()
        .filter(|f| reads_as(f.verb) == Some(verb))
        .flat_map(|f| expand(&f.text[f.verb.len()..]))
        .map(|f| items(&f))
        .collect()
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
fn walk(
    items: &[Item],
    args: &[String],
    known: &dyn Fn(Kind, &str) -> bool,
    spends: &[String],
) -> Next {
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
        // The next value item the word fits takes it; keywords left out on the way were
        // optional. A word that fits none (`with` where damage dice go) ends this alternative.
        let Some(i) =
            (next..items.len()).find(|&i| items[i].hole.is_some_and(|h| fits(h, arg, spends)))
        else {
            return Next::Nothing;
        };
        next = i + 1;
        list = items[i].list.then_some(i);
        match items[i].hole {
            Some(Kind::Text) => text = Some(i),
            // A name of several words typed without quotes: the longest that is known.
            Some(kind @ (Kind::Name | Kind::Action | Kind::Weapon | Kind::Spend)) => {
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

/// Whether the line, its last word at item `next - 1`, stands inside the brackets item `group`
/// opens.
fn inside(items: &[Item], next: usize, group: usize) -> bool {
    let Some(mut at) = next.checked_sub(1) else {
        return false;
    };
    loop {
        if at == group {
            return items[at].opens;
        }
        match items.get(at).and_then(|i| i.parent) {
            Some(p) => at = p,
            None => return false,
        }
    }
}

/// The present combatant the first words of `args` name (in full, or by the start of its
/// name when only one fits): whose weapons and statuses the command's later words are.
fn first_named<'s>(state: &'s State, args: &[String]) -> Option<&'s crate::encounter::Combatant> {
    let mut joined = String::new();
    let mut found = None;
    for word in args.iter().take_while(|w| *w != ",") {
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(word);
        if let Some(c) = state.find(&joined) {
            found = Some(c);
        }
    }
    found.or_else(|| {
        let first = args.first()?.to_lowercase();
        let mut fits = state
            .present()
            .filter(|c| c.name.to_lowercase().starts_with(&first));
        let one = fits.next()?;
        fits.next().is_none().then_some(one)
    })
}

/// What the line ending in a word being typed offers in place of that word, at `enc`'s table.
pub fn complete(line: &str, enc: &Encounter) -> Offer {
    let (start, word) = last_word(line);
    let mut offer = Offer {
        start,
        word,
        words: Vec::new(),
    };
    let Ok(done) = tokenize(&line[..start]) else {
        return offer;
    };
    let forms = forms(enc.system());
    let mut args = done.iter().map(|w| w.text.clone());
    let Some(verb) = args.next() else {
        offer.words = forms.iter().map(|f| f.verb.to_string()).collect();
        return offer.keep_fitting();
    };
    // A short form is completed as the verb it reads as.
    let Some(verb) = reads_as(&verb.to_lowercase()) else {
        return offer;
    };
    let quoted: Vec<bool> = done.iter().skip(1).map(|w| w.quoted).collect();
    let args: Vec<String> = args.collect();
    let state = enc.state();
    let names = || {
        state
            .present()
            .map(|c| c.name.clone())
            .chain(state.groups.iter().map(|g| g.name.clone()))
    };
    let actions = || enc.catalogue().actions().iter().map(|a| a.name.clone());
    let owner = first_named(state, &args);
    let weapons = || {
        owner.into_iter().flat_map(|c| {
            let sr2097 = state.sr2097.iter().flat_map(|s| &s.sheet(c.id).weapons);
            let sr5 = state.sr5.kit(c.id).into_iter().flat_map(|k| &k.weapons);
            sr2097
                .map(|w| w.name.clone())
                .chain(sr5.map(|w| w.name.clone()))
        })
    };
    let spends = || {
        enc.rules()
            .anarchy
            .spends
            .iter()
            .flat_map(|s| std::iter::once(&s.name).chain(&s.aliases).cloned())
    };
    let spend_words: Vec<String> = spends().collect();
    let statuses = |of: Option<&crate::encounter::Combatant>| -> Vec<String> {
        let held = |c: &crate::encounter::Combatant| {
            c.statuses
                .iter()
                .map(|s| s.name.clone())
                .collect::<Vec<_>>()
        };
        match of {
            Some(c) => held(c),
            None => state.present().flat_map(held).collect(),
        }
    };
    let known = |kind: Kind, text: &str| match kind {
        Kind::Name => names().any(|n| crate::encounter::same_name(&n, text)),
        Kind::Action => actions().any(|a| a.eq_ignore_ascii_case(text)),
        Kind::Weapon => weapons().any(|w| w.eq_ignore_ascii_case(text)),
        Kind::Spend => spends().any(|s| s.eq_ignore_ascii_case(text)),
        _ => false,
    };
    // What may stand after `args`, each alternative of the verb walked through.
    let offers: &dyn Fn(&[String]) -> Vec<String> = &|args: &[String]| {
        let mut words = Vec::new();
        for items in alternatives(verb, &forms) {
            let take = |item: &Item, words: &mut Vec<String>| {
                words.extend(item.words.iter().cloned());
                match item.hole {
                    // `add NAME`: a new name, not one already here.
                    Some(Kind::Name) if verb != "add" => words.extend(names()),
                    Some(Kind::Action) => words.extend(actions()),
                    Some(Kind::Weapon) => words.extend(weapons()),
                    Some(Kind::Status) => words.extend(statuses(owner)),
                    Some(Kind::Spend) => words.extend(spends()),
                    // A new status: those already on someone at the table may be given again.
                    Some(Kind::Text) if verb == "status" => words.extend(statuses(None)),
                    _ => {}
                }
            };
            match walk(&items, args, &known, &spend_words) {
                // Right after the word that opens brackets, what they hold next is required.
                Next::From(i)
                    if i < items.len()
                        && !items[i].opens
                        && items[i].parent.is_some_and(|g| inside(&items, i, g)) =>
                {
                    take(&items[i], &mut words);
                }
                Next::From(i) => {
                    for item in &items[i.min(items.len())..] {
                        // Inside brackets, only what opens them (or a way in them), and only in
                        // brackets the line has entered.
                        if item.depth == 0
                            || (item.opens && item.parent.is_none_or(|g| inside(&items, i, g)))
                        {
                            take(item, &mut words);
                        }
                        if !item.optional {
                            break;
                        }
                    }
                }
                Next::Text(t) => {
                    for item in &items[t + 1..] {
                        words.extend(item.words.iter().cloned());
                    }
                }
                Next::ListOf(i) => take(
                    &Item {
                        words: Vec::new(),
                        ..items[i].clone()
                    },
                    &mut words,
                ),
                Next::Nothing => {}
            }
        }
        words
    };
    offer.words = offers(&args);
    let offer = offer.keep_fitting();
    continued(line, &offer, &args, &quoted, offers).unwrap_or(offer)
}

/// A value of several words typed without quotes (`act Jinx Fire G`, `damage Lt. V`): the
/// values that start with the words before the typed one and it, offered in place of all of
/// them, from the earliest such word. None when there are none, or when those words are a value
/// whole already and what follows it is offered (`act Jinx Take Aim a`: `as`).
fn continued(
    line: &str,
    offer: &Offer,
    args: &[String],
    quoted: &[bool],
    offers: &dyn Fn(&[String]) -> Vec<String>,
) -> Option<Offer> {
    if line[offer.start..].starts_with('"') {
        return None;
    }
    // Where each unquoted word before the typed one starts, back to a comma or a quoted word.
    let mut starts = Vec::new();
    let mut end = offer.start;
    for k in (0..args.len()).rev() {
        let head = line[..end].trim_end();
        let (at, word) = last_word(head);
        if quoted.get(k) != Some(&false) || head.len() == end || word != args[k] {
            break;
        }
        starts.push((k, at));
        end = at;
    }
    starts.into_iter().rev().find_map(|(k, at)| {
        let word = format!("{} {}", args[k..].join(" "), offer.word);
        let before = offers(&args[..k]);
        let lower = word.to_lowercase();
        let words: Vec<String> = before
            .iter()
            .filter(|v| v.to_lowercase().starts_with(&lower))
            .cloned()
            .collect();
        let whole = before
            .iter()
            .any(|v| v.eq_ignore_ascii_case(&args[k..].join(" ")));
        (!words.is_empty() && (!whole || offer.words.is_empty())).then(|| {
            Offer {
                start: at,
                word,
                words,
            }
            .keep_fitting()
        })
    })
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
        assert_eq!(
            alternatives("roll", &forms(crate::encounter::System::Sr5)).len(),
            3
        );
    }

    /// An encounter of `system` after `lines`.
    fn table(system: crate::encounter::System, lines: &[&str]) -> Encounter {
        let rules = std::sync::Arc::new(crate::rules::HouseRules::embedded());
        let catalogue = std::sync::Arc::new(
            crate::catalogue::Catalogue::embedded(&rules).expect("built-in catalogue"),
        );
        let mut enc = Encounter::for_system(system, rules, catalogue);
        assert_eq!(crate::ui::demo::script(&mut enc, lines, 1), Ok(()));
        enc
    }

    fn offered(enc: &Encounter, line: &str) -> Vec<String> {
        complete(line, enc).words
    }

    #[test]
    fn after_an_alias_tab_offers_what_it_offers_after_the_verb_the_alias_reads_as() {
        // Given a table of each system, with Jinx, Guard and Vex at it
        for system in crate::encounter::System::ALL {
            let enc = table(
                system,
                &[
                    &crate::lang::sheet_line(system, "add Jinx pc int 5 rea 6 edge 3"),
                    &crate::lang::sheet_line(system, "add Guard npc int 3 rea 4 edge 1"),
                ],
            );
            for (alias, verb) in super::super::ALIASES {
                // When Tab is pressed after the alias, empty or begun
                for rest in [" ", " J", " Jinx ", " Jinx 3 "] {
                    // Then it offers what it offers after the verb
                    assert_eq!(
                        offered(&enc, &format!("{alias}{rest}")),
                        offered(&enc, &format!("{verb}{rest}")),
                        "{system:?}: `{alias}{rest}`"
                    );
                }
            }
        }
        // And `rm`, `dmg` and `change` offer names where a name goes
        let enc = table(crate::encounter::System::Sr5, &["add Jinx pc int 5 rea 6"]);
        assert_eq!(offered(&enc, "rm J"), ["Jinx"]);
        assert_eq!(offered(&enc, "dmg J"), ["Jinx"]);
        assert_eq!(offered(&enc, "dmg Jinx 3 "), ["physical", "stun"]);
        assert_eq!(offered(&enc, "change Jinx "), ["after", "before"]);
        let enc = table(
            crate::encounter::System::Sr2097,
            &["add Jinx pc int 5 rea 6"],
        );
        assert_eq!(offered(&enc, "str J"), ["Jinx"]);
    }

    #[test]
    fn a_name_of_several_words_typed_without_quotes_completes_from_all_its_words() {
        // Given an SR5 table with Jinx, a group of Gangers and Lt. Vasquez
        let enc = table(
            crate::encounter::System::Sr5,
            &[
                "add Jinx pc int 5 rea 6",
                "add Ganger x2 npc int 3 rea 3",
                "add Lt. Vasquez npc int 4 rea 5",
            ],
        );
        let offer = |line: &str| {
            let o = complete(line, &enc);
            (line[o.start..].to_string(), o.words)
        };
        // When Tab is pressed after the first words of an action's name, unquoted
        // Then the actions whose names start with all those words are offered, from the first
        assert_eq!(
            offer("act Jinx Fire G"),
            ("Fire G".to_string(), vec!["Fire Gun".to_string()])
        );
        assert_eq!(
            offer("act Jinx take a"),
            ("take a".to_string(), vec!["Take Aim".to_string()])
        );
        let fire = offer("act Jinx Fire ").1;
        assert!(fire.contains(&"Fire Bow".to_string()), "{fire:?}");
        assert!(!fire.contains(&"as".to_string()), "{fire:?}");
        assert_eq!(offer("ready Jinx when he moves do Take A").1, ["Take Aim"]);
        // And so are the names of combatants, after a comma too
        assert_eq!(
            offer("damage Lt. V"),
            ("Lt. V".to_string(), vec!["Lt. Vasquez".to_string()])
        );
        assert_eq!(offer("hide Jinx, Ganger ").1, ["Ganger 1", "Ganger 2"]);
        // While a name already whole goes on to what follows it
        assert_eq!(offer("act Jinx Take Aim a").1, ["as"]);
        assert_eq!(offer("damage Lt. Vasquez 3 p").1, ["physical"]);
    }

    #[test]
    fn at_an_anarchy_table_tab_offers_spends_gm_words_and_test_keywords() {
        // Given an Anarchy table
        let enc = table(
            crate::encounter::System::Anarchy,
            &["add Vex pc edge 1", "add Guard npc"],
        );
        // Then a spend offers the rules' spends, after a player's `spend` and the GM's
        let spends = offered(&enc, "pp Vex spend ");
        assert!(
            spends.contains(&"Surprise Threat!".to_string()),
            "{spends:?}"
        );
        assert!(
            spends.contains(&"Live Dangerously".to_string()),
            "{spends:?}"
        );
        assert_eq!(
            offered(&enc, "gm spend sur"),
            ["Surprise Threat!", "surprise threat"]
        );
        // The GM's words: `spend` or `order` first, the order's two ways after `order`
        assert_eq!(offered(&enc, "gm "), ["order", "spend"]);
        assert_eq!(offered(&enc, "gm order "), ["random", "reverse"]);
        // A test's Edge is before or after, and only that, right after `edge`
        assert_eq!(
            offered(&enc, "atest Vex 4+3 vs 2 edge "),
            ["after", "before"]
        );
        assert_eq!(offered(&enc, "atest Vex 4+3 vs 2 ed"), ["edge"]);
        // Anarchy's `edge`: the GM's gift, or Edge on seeing a roll (and its table's dice)
        assert_eq!(offered(&enc, "edge Vex "), ["after", "regain"]);
        assert_eq!(offered(&enc, "edge Vex after "), ["dice"]);
        assert_eq!(
            offered(&enc, "atest Vex 4+3 vs 2 "),
            ["dice", "edge", "glitchdie", "team"]
        );
        // Damage and healing go on a monitor or on the Armor and Matrix tracks
        for verb in ["damage", "heal"] {
            assert_eq!(
                offered(&enc, &format!("{verb} Vex 2 ")),
                ["armor", "matrix", "physical", "stun"]
            );
            assert_eq!(offered(&enc, &format!("{verb} Vex 1 m")), ["matrix"]);
        }
        // `add` offers none of the initiative's words, nor a shared roll
        let add = offered(&enc, "add Cy ");
        for w in ["int", "rea", "mod", "ip", "shared"] {
            assert!(!add.contains(&w.to_string()), "{w}: {add:?}");
        }
        assert!(add.contains(&"edge".to_string()), "{add:?}");
        // And no initiative or other system's verb is offered at this table
        let verbs = offered(&enc, "");
        for v in ["narrate", "pp", "gm", "atest", "cooldown", "damage"] {
            assert!(verbs.contains(&v.to_string()), "{v}: {verbs:?}");
        }
        for v in ["roll", "next", "dmg", "test", "sc"] {
            assert!(!verbs.contains(&v.to_string()), "{v}: {verbs:?}");
        }
    }

    #[test]
    fn at_a_2097_table_tab_offers_only_words_the_command_takes_there() {
        // Given a 2097 table where Jinx carries a pistol
        let enc = table(
            crate::encounter::System::Sr2097,
            &[
                "add Jinx pc int 5 rea 6 edge 3",
                "add Guard x2 npc int 3 rea 4 edge 1",
                "weapon Jinx add Ares Predator 3d6+5",
            ],
        );
        // Then after the target only `with` (or damage dice, which Tab cannot guess)
        assert_eq!(offered(&enc, "dmg Jinx \"Guard 1\" "), ["with"]);
        // After `with`, the attacker's weapons
        assert_eq!(
            offered(&enc, "dmg Jinx \"Guard 1\" with "),
            ["Ares Predator"]
        );
        assert_eq!(
            offered(&enc, "dmg Jinx \"Guard 1\" with A"),
            ["Ares Predator"]
        );
        assert_eq!(offered(&enc, "dmg J Guard 1 with a"), ["Ares Predator"]);
        // After the weapon or the dice, the options
        assert_eq!(
            offered(&enc, "dmg Jinx \"Guard 1\" with Ares Predator "),
            ["dice", "edge", "mos", "stun"]
        );
        assert_eq!(
            offered(&enc, "dmg Jinx \"Guard 1\" 2d6+4 "),
            ["dice", "edge", "mos", "stun"]
        );
        // Edge's uses, not `dice`, which only follows `boost`
        assert_eq!(
            offered(&enc, "edge Jinx "),
            ["award", "boost", "burn", "lessen", "rest", "scenario"]
        );
        assert_eq!(offered(&enc, "edge Jinx boost "), ["dice"]);
        assert_eq!(offered(&enc, "weapon Jinx remove "), ["Ares Predator"]);
        // And none of SR5's verbs
        let verbs = offered(&enc, "");
        assert!(verbs.contains(&"dmg".to_string()) && verbs.contains(&"sc".to_string()));
        assert!(!verbs.contains(&"attack".to_string()) && !verbs.contains(&"pp".to_string()));
    }

    #[test]
    fn at_an_sr5_table_tab_offers_statuses_and_weapons_where_they_go() {
        // Given an SR5 table where Ana carries a pistol and is Prone
        let enc = table(
            crate::encounter::System::Sr5,
            &[
                "add Ana pc int 4 rea 5 edge 3 body 4 will 5",
                "add Bo npc int 3 rea 3 body 4 will 3",
                "weapon Ana add Ares Predator dv 8 p ap -1 acc 5",
                "status Ana Prone until never",
            ],
        );
        // Then a status offers those in play, and clearing one those its holder has
        assert_eq!(offered(&enc, "status Bo "), ["Prone"]);
        assert_eq!(offered(&enc, "clear Ana "), ["Prone"]);
        assert!(offered(&enc, "clear Bo ").is_empty());
        // A weapon where a weapon goes: the attacker's
        assert_eq!(offered(&enc, "attack Ana Bo with "), ["Ares Predator"]);
        assert_eq!(offered(&enc, "reload Ana "), ["Ares Predator"]);
        // And no 2097 Edge use, nor Anarchy's Armor and Matrix tracks
        assert!(offered(&enc, "edge Ana ").is_empty());
        assert_eq!(offered(&enc, "damage Bo 2 "), ["physical", "stun"]);
        assert_eq!(offered(&enc, "heal Bo 2 "), ["physical", "stun"]);
    }
}
