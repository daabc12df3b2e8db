//! Text from input on its way out: control characters escaped, so that a name, a status, a
//! trigger or a file name can never move the cursor, retitle the window or fake a line, and
//! excerpts of what was refused. Pure functions; every output calls [`escaped`].

use std::borrow::Cow;

mod texts;

/// How many characters of an offending input a message echoes.
pub const EXCERPT_CHARS: usize = 40;

/// Characters no text of srtrack may hold: C0 and C1 controls and DEL, the line and paragraph
/// separators (a line break to some terminals), and the bidirectional overrides and isolates,
/// which reorder what follows them on the line.
pub fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Characters that show as nothing: zero-width spaces and joiners, invisible operators, the
/// word joiner and byte order mark, soft hyphens, Hangul fillers, tag characters, and the rest
/// of Unicode's format characters (interlinear annotation, Egyptian hieroglyph format controls,
/// Arabic number signs), which terminals draw as nothing. A name holding one looks like the
/// name without it. The zero-width joiner and the variation selectors are not here: they build
/// emoji (👩‍🚀, ❤️), and names are compared without them (`same_name`).
pub fn is_invisible(c: char) -> bool {
    is_zero_width(c)
        || matches!(
            c,
            '\u{600}'..='\u{605}'
                | '\u{6dd}'
                | '\u{70f}'
                | '\u{890}'
                | '\u{891}'
                | '\u{8e2}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{110bd}'
                | '\u{110cd}'
                | '\u{13430}'..='\u{1343f}'
        )
}

/// The first character that makes `text` look like another: an invisible one
/// ([`is_invisible`]), or the Braille blank (U+2800) of a text that is only blanks, which
/// shows as an empty row.
pub fn first_invisible(text: &str) -> Option<char> {
    text.chars().find(|&c| is_invisible(c)).or_else(|| {
        let blank = |c: char| c == '\u{2800}' || c.is_whitespace();
        (text.contains('\u{2800}') && text.chars().all(blank)).then_some('\u{2800}')
    })
}

/// The invisible characters names are compared without ([`crate::encounter::same_name`]): those
/// refused since saves first held names. The format characters refused later are not among
/// them, so that the names an older save holds stay as apart as they were.
pub fn is_zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'
            | '\u{200c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Characters that only shape the one before them (the zero-width joiner, variation
/// selectors): two names that differ only in these look the same.
pub fn is_shaping(c: char) -> bool {
    matches!(c, '\u{200d}' | '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}')
}

/// The combining mark a text starts with, if it does: it joins whatever is drawn before the
/// text (a space, a column's edge), and a text of marks only shows as nothing.
pub fn leading_mark(text: &str) -> Option<char> {
    text.chars()
        .next()
        .filter(|&c| unicode_normalization::char::is_combining_mark(c))
}

/// Whether `word` is only zero-width joiners and presentation selectors: a text of them is
/// empty once they are set apart (`unjoined`), and shows as nothing.
pub fn only_joining(word: &str) -> bool {
    !word.is_empty() && word.chars().all(is_joining)
}

/// The emoji skin-tone modifiers (U+1F3FB–U+1F3FF).
pub fn is_skin_tone(c: char) -> bool {
    matches!(c, '\u{1f3fb}'..='\u{1f3ff}')
}

/// The zero-width joiner and the presentation selectors (U+FE0E text, U+FE0F emoji): what makes
/// one glyph of several characters, or a wide one of a narrow one, on some terminals only.
fn is_joining(c: char) -> bool {
    matches!(c, '\u{200d}' | '\u{fe0e}' | '\u{fe0f}')
}

/// Whether unicode-width measures `c` after `before` as one glyph, not as the two.
fn merges(before: char, c: char) -> bool {
    use unicode_width::UnicodeWidthChar as _;
    let apart = before.width().unwrap_or(0) + c.width().unwrap_or(0);
    unicode_width::UnicodeWidthStr::width(format!("{before}{c}").as_str()) != apart
}

/// `text` as every terminal draws it as wide as srtrack measures it: without the zero-width
/// joiners and presentation selectors, and without a skin tone that would merge with the emoji
/// before it. unicode-width (and so ratatui and srtrack) measures 👨‍👩‍👧 as one glyph of 2 cells
/// where tmux and xterm draw its three emoji, 6 cells; ❤️ is 2 cells to it and 1 to xterm; 👍🏽 is 2
/// cells to it and 4 to xterm. What is left (👨👩👧, ❤, 👍) is its characters one after the other,
/// each as wide as every terminal draws it. Typed text is kept so (see `RuleError::check_text`).
pub fn unjoined(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| is_joining(c) || is_skin_tone(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = None;
    for c in text.chars() {
        let merged = is_skin_tone(c) && last.is_some_and(|l| merges(l, c));
        if !is_joining(c) && !merged {
            out.push(c);
            last = Some(c);
        }
    }
    Cow::Owned(out)
}

/// `text` without the byte-order mark an editor may write first (Notepad does): a file a
/// person edited reads as it did before.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Whether `text` holds a character [`escaped`] would escape.
pub fn holds_control(text: &str) -> bool {
    // Most text is printable ASCII, told by its bytes alone (frames ask this of every line).
    !printable_ascii(text) && text.chars().any(is_control)
}

/// Whether every byte of `text` is a printable ASCII character: no control, one cell each.
fn printable_ascii(text: &str) -> bool {
    // A pattern, not `RangeInclusive::contains`: built for size, that was a call per byte.
    text.bytes().all(|b| matches!(b, b' '..=b'~'))
}

/// Writes `n` in decimal, without a formatter (frames write many small numbers).
pub fn push_number(s: &mut String, n: u16) {
    push_int(s, n.into(), 0);
}

/// Writes `n` in decimal right-aligned in `width` columns, as `format!("{n:>width$}")` writes
/// it, without a formatter: the order writes several numbers on every row it draws.
pub fn push_int(s: &mut String, n: i64, width: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut m = n.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    let len = digits.len() - at + usize::from(n < 0);
    s.extend(std::iter::repeat_n(' ', width.saturating_sub(len)));
    if n < 0 {
        s.push('-');
    }
    for &d in &digits[at..] {
        s.push(char::from(d));
    }
}

/// How many terminal cells `text` takes as [`escaped`] shows it: a wide character (漢) takes two,
/// a combining accent none (what a table measures is what it draws).
pub fn shown_len(text: &str) -> usize {
    if printable_ascii(text) {
        return text.len();
    }
    unicode_width::UnicodeWidthStr::width(escaped(text).as_ref())
}

/// `text` followed by spaces up to `cells` terminal cells (as `{:<cells$}` pads, but by cells,
/// not characters, so that wide characters keep the next column in line); longer text is kept.
pub fn pad(text: &str, cells: usize) -> String {
    let mut out = text.to_string();
    let used = unicode_width::UnicodeWidthStr::width(text);
    out.extend(std::iter::repeat_n(' ', cells.saturating_sub(used)));
    out
}

/// `text` with every control character written out: `\e` (escape), `\n`, `\r`, `\t`, and
/// `\u{7}` for the others. Printable text, backslashes included, is as it was.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !holds_control(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{1b}' => out.push_str("\\e"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_control(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether `c` shows as nothing or only changes the character before it ([`is_invisible`],
/// [`is_shaping`], a skin tone): a file name holding one looks like another, or is measured
/// unlike the terminal draws it.
pub fn is_unseen(c: char) -> bool {
    is_invisible(c) || is_shaping(c) || is_skin_tone(c)
}

/// `text` as [`escaped`] writes it, and the characters [`is_unseen`] finds written out too
/// (`\u{200b}`): for names srtrack did not check at entry (a file's), which must be told
/// apart in a list.
pub fn escaped_unseen(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| is_control(c) || is_unseen(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unseen(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            let mut one = [0u8; 4];
            out.push_str(&escaped(c.encode_utf8(&mut one)));
        }
    }
    Cow::Owned(out)
}

/// The first text inside `value` (any shape serde writes) that holds a control character:
/// files from outside (a GM's catalogue, the rules a save carries) are refused at entry, not
/// escaped at each output. Every string and char of the value is visited, so no field is missed.
pub fn first_with_control<T: serde::Serialize>(value: &T) -> Option<String> {
    texts::first_text(value, holds_control)
}

/// What a paste into a one-line input keeps: the text before its first line break, tabs as
/// spaces, at most `max` characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pasted {
    pub text: String,
    /// Whether anything was left out: a second line, the rest past `max`.
    pub cut: bool,
}

/// `text` as a paste into a one-line input takes it (see [`Pasted`]); the first control or
/// invisible character of the line kept refuses it whole: what is left of an escape sequence
/// (`[2J`) is no text anyone meant.
pub fn one_line(text: &str, max: usize) -> Result<Pasted, char> {
    let first = text.split(['\n', '\r']).next().unwrap_or_default();
    let mut cut = first.len() < text.trim_end_matches(['\n', '\r']).len();
    let mut out = String::with_capacity(first.len().min(max * 4));
    for c in first.chars() {
        let c = if c == '\t' { ' ' } else { c };
        if is_control(c) || is_invisible(c) {
            return Err(c);
        }
        if out.chars().count() >= max {
            cut = true;
        } else {
            out.push(c);
        }
    }
    Ok(Pasted { text: out, cut })
}

/// What keeps a name from a GM's file (an action, a Plot Point spend) from being told apart and
/// typed back, as a combatant's name is kept: a character that shows as nothing or a leading
/// combining mark (two rows of a menu would read alike), spaces at its ends or two in a row
/// (likewise), a length outside `chars` (`name_chars`: a command line must be able to name it).
/// `what` names the name in the length's sentence ("an action's name"). Control characters are
/// told apart by the check of every text of the file.
pub fn name_fault(name: &str, what: &str, chars: crate::rules::house::Range) -> Option<String> {
    if holds_control(name) {
        return None;
    }
    if let Some(c) = name.chars().find(|&c| is_invisible(c)) {
        return Some(format!(
            "the name holds {}, which shows as nothing: it would look like another name",
            code_point(c)
        ));
    }
    if let Some(c) = leading_mark(name) {
        return Some(format!(
            "the name starts with the combining mark {}: it would join what is drawn before it",
            code_point(c)
        ));
    }
    if name.trim() != name || name.contains("  ") {
        return Some(
            "the name has spaces at an end or two in a row: it would look like another name".into(),
        );
    }
    let len = name.chars().count();
    if !chars.contains(i32::try_from(len).unwrap_or(i32::MAX)) {
        return Some(format!(
            "the name is {len} characters long: {what} is {} to {} (limits: name_chars in rules.ron)",
            chars.min, chars.max
        ));
    }
    None
}

/// A character no text takes, as a refusal names it: `U+001B`.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// Characters Markdown may read as formatting inside a line: links, emphasis, code, tables,
/// HTML. A name like `[pay](https://…)` or `**x**` must print as typed in a recap.
const MARKDOWN_MARKS: &[char] = &['\\', '`', '*', '_', '[', ']', '<', '>', '#', '|', '~'];

/// `text` [`escaped`], then with every Markdown mark backslash-escaped: for text from input
/// inside a Markdown line.
pub fn markdown(text: &str) -> String {
    let plain = escaped(text);
    let mut out = String::with_capacity(plain.len() + 4);
    for c in plain.chars() {
        if MARKDOWN_MARKS.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A whole number; one too big for the engine's numbers stands as the biggest there is, so the
/// engine says what range is allowed rather than the parser asking for "a number" (see
/// [`typed_number`], which tells it back).
pub fn int_word(text: &str) -> Option<i32> {
    if let Ok(n) = text.parse::<i32>() {
        return Some(n);
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if text.starts_with('-') {
        i32::MIN
    } else {
        i32::MAX
    })
}

/// A number from the command line as a refusal tells it: the command language reads a number
/// too big for the engine as the biggest there is (so that the engine says what is allowed),
/// and the message says so rather than show a number nobody typed.
pub fn typed_number(n: i32) -> String {
    match n {
        i32::MAX | i32::MIN => format!("of {}", typed_count(n)),
        _ => n.to_string(),
    }
}

/// `n` with its noun: "1 die", "2 dice".
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A count from the command line as a refusal tells it before a noun ("2147483647 or more
/// hits"): see [`typed_number`].
pub fn typed_count(n: i32) -> String {
    match n {
        i32::MAX => format!("{n} or more"),
        i32::MIN => format!("{n} or less"),
        _ => n.to_string(),
    }
}

/// At most [`EXCERPT_CHARS`] characters of `text`, escaped, with `…` where it was cut: what a
/// message echoes of an input it refuses.
pub fn excerpt(text: &str) -> String {
    excerpt_to(text, EXCERPT_CHARS)
}

/// At most `max` characters of `text`, escaped, with `…` where it was cut.
pub fn excerpt_to(text: &str, max: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(max).collect();
    let cut = chars.next().is_some();
    let mut out = escaped(&head).into_owned();
    if cut {
        out.push('…');
    }
    out
}

/// Where a whole file's text ends, when ron stopped there wanting more (a file cut short, a
/// string or comment left open, which ron points at the start of): then ron's own complaint
/// (`Unexpected end of RON`, `Expected comma`) is no help, the end is.
pub fn ron_ends_early(e: &ron::error::SpannedError, text: &str) -> Option<(usize, usize)> {
    let trimmed = text.trim_end();
    let line = trimmed.matches('\n').count() + 1;
    let col = trimmed.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let early = matches!(
        e.code,
        ron::Error::Eof | ron::Error::ExpectedStringEnd | ron::Error::UnclosedBlockComment
    ) || (e.span.end.line, e.span.end.col) >= (line, col);
    early.then_some((line, col))
}

/// A whole file's ron parse error in words, with the line and column it is at: a file that
/// ends early says so where it ends ([`ron_ends_early`]), anything else as [`ron_words`].
pub fn ron_error_words(e: &ron::error::SpannedError, text: &str) -> ((usize, usize), String) {
    match ron_ends_early(e, text) {
        Some((line, col)) => (
            (line, col),
            format!("the file ends early, at line {line} column {col} (was it cut short?)"),
        ),
        None => ((e.span.start.line, e.span.start.col), ron_words(&e.code)),
    }
}

/// A ron parse error in words a user can act on: which field of what, what belongs where.
/// ron's own messages give advice to programmers and quote what they found, which may be
/// anything the file holds: quoted parts are cut and escaped.
pub fn ron_words(code: &ron::Error) -> String {
    match code {
        ron::Error::MissingStructField { field, outer } => match outer {
            Some(outer) => format!(
                "`{}` lacks its field `{field}` (was it renamed or deleted?)",
                excerpt_to(outer, 40)
            ),
            None => format!("the field `{field}` is missing (was it renamed or deleted?)"),
        },
        ron::Error::NoSuchStructField {
            expected,
            found,
            outer,
        } => format!(
            "`{}` is not a field{}: {}",
            excerpt_to(found, 40),
            of(outer.as_deref()),
            one_of(expected)
        ),
        ron::Error::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => format!(
            "`{}` is not a kind{}: {}",
            excerpt_to(found, 40),
            of(outer.as_deref()),
            one_of(expected)
        ),
        ron::Error::DuplicateStructField { field, outer } => {
            format!("`{field}` is written twice{}", inside(outer.as_deref()))
        }
        ron::Error::InvalidValueForType { expected, found } => format!(
            "{} is written where {} belongs",
            excerpt_to(found, 60),
            excerpt_to(expected, 60)
        ),
        ron::Error::ExpectedInteger => "a whole number belongs here".into(),
        ron::Error::ExpectedFloat => "a number belongs here".into(),
        ron::Error::ExpectedBoolean => "`true` or `false` belongs here".into(),
        ron::Error::ExpectedString => "a text in double quotes belongs here".into(),
        ron::Error::ExpectedOption => "`Some(…)` or `None` belongs here".into(),
        ron::Error::ExpectedComma => "a comma belongs here, between two values".into(),
        ron::Error::ExpectedArray => "a list in `[` `]` belongs here".into(),
        ron::Error::ExpectedArrayEnd => "the list's closing `]` belongs here".into(),
        ron::Error::ExpectedMapColon => "a `:` belongs here, after the field's name".into(),
        ron::Error::ExpectedStructLike | ron::Error::ExpectedNamedStructLike(_) => {
            "a value in `(` `)` belongs here".into()
        }
        ron::Error::ExpectedStructLikeEnd | ron::Error::ExpectedOptionEnd => {
            "the closing `)` belongs here".into()
        }
        ron::Error::ExpectedDifferentStructName { expected, found } => format!(
            "`{}` is written where `{expected}` belongs",
            excerpt_to(found, 40)
        ),
        ron::Error::UnexpectedChar(c) => {
            format!("`{}` does not belong here", excerpt_to(&c.to_string(), 1))
        }
        ron::Error::IntegerOutOfBounds => {
            "this number does not fit its field (too large, or below 0 where a count belongs)"
                .into()
        }
        ron::Error::Utf8Error(_) => "the file is not UTF-8 text here".into(),
        ron::Error::TrailingCharacters => {
            "something follows the end of the save (only spaces and comments may)".into()
        }
        other => excerpt_to(&other.to_string(), 160),
    }
}

/// " of `Outer`", for a field or a kind that is not one of it.
fn of(outer: Option<&str>) -> String {
    outer.map_or_else(String::new, |o| format!(" of `{}`", excerpt_to(o, 40)))
}

/// " in `Outer`", for a field written twice.
fn inside(outer: Option<&str>) -> String {
    outer.map_or_else(String::new, |o| format!(" in `{}`", excerpt_to(o, 40)))
}

/// "one of `a`, `b` or `c`", what a field or kind may be; a long list is cut.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let list = match quoted.split_last() {
        None => return "none is allowed here".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    };
    format!("one of {}", excerpt_to(&list, 120))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paste_keeps_its_first_line_and_refuses_a_control_in_it() {
        let p = |s| one_line(s, 10);
        assert_eq!(p("Ana").unwrap().text, "Ana");
        assert!(!p("Ana").unwrap().cut);
        // A line copied with its line break is one line.
        assert!(!p("Ana\n").unwrap().cut);
        assert_eq!(p("status x\nnext").unwrap().text, "status x");
        assert!(p("status x\nnext").unwrap().cut);
        assert_eq!(p("a\r\nb").unwrap().text, "a");
        assert_eq!(p("a\tb").unwrap().text, "a b");
        // Only the line kept is read: a second line's escape goes with it.
        assert_eq!(p("a\n\u{1b}[2J").unwrap().text, "a");
        assert_eq!(p("a\u{1b}[2Jb\u{202e}"), Err('\u{1b}'));
        assert_eq!(p("a\u{7}"), Err('\u{7}'));
        assert_eq!(p("gun\u{200f}"), Err('\u{200f}'));
        assert_eq!(p("0123456789abc").unwrap().text, "0123456789");
        assert!(p("0123456789abc").unwrap().cut);
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 1, 9, 10, 99, 100, 255, 1000, 65535] {
            let mut s = String::new();
            push_number(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn controls_are_written_out_and_the_rest_is_kept() {
        assert_eq!(escaped("Ana"), "Ana");
        assert!(matches!(escaped("Ganger 1 – ★"), Cow::Borrowed(_)));
        assert_eq!(escaped("\u{1b}]0;PWNED\u{7}"), "\\e]0;PWNED\\u{7}");
        assert_eq!(escaped("a\nb\r\tc\0"), "a\\nb\\r\\tc\\u{0}");
        assert_eq!(escaped("\u{9b}2J\u{7f}"), "\\u{9b}2J\\u{7f}");
        assert_eq!(escaped("evil\u{202e}txt.exe"), "evil\\u{202e}txt.exe");
        assert_eq!(escaped("L\u{2028}l\u{2029}"), "L\\u{2028}l\\u{2029}");
        assert_eq!(escaped("C:\\saves"), "C:\\saves");
    }

    #[test]
    fn an_excerpt_is_short_escaped_and_says_where_it_was_cut() {
        assert_eq!(excerpt("Ana"), "Ana");
        let long = "x".repeat(1_000_000);
        let e = excerpt(&long);
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.ends_with('…'));
        assert_eq!(excerpt("\u{1b}[2J"), "\\e[2J");
    }

    #[test]
    fn markdown_marks_print_as_typed() {
        assert_eq!(markdown("Ana"), "Ana");
        assert_eq!(markdown("[pay](x) **b**"), "\\[pay\\](x) \\*\\*b\\*\\*");
        assert_eq!(markdown("a\u{1b}b"), "a\\\\eb");
        assert!(!holds_control(&markdown("\u{1b}]0;x\u{7}")));
    }

    #[test]
    fn joined_emoji_are_kept_as_their_emoji_one_after_the_other() {
        assert_eq!(unjoined("Ana"), "Ana");
        assert!(matches!(unjoined("Ganger 1 – ★ 漢"), Cow::Borrowed(_)));
        assert_eq!(unjoined("👨\u{200d}👩\u{200d}👧"), "👨👩👧");
        assert_eq!(unjoined("❤\u{fe0f} x"), "❤ x");
        assert_eq!(unjoined("🎲\u{fe0e}"), "🎲");
        assert_eq!(unjoined("👍\u{1f3fd}"), "👍");
        assert_eq!(unjoined("👍\u{200d}\u{1f3fd}\u{1f3fd}"), "👍");
        // A skin tone that merges with nothing is a swatch of its own, drawn alike everywhere.
        assert_eq!(unjoined("\u{1f3fd} a\u{1f3fd}"), "\u{1f3fd} a\u{1f3fd}");
    }

    proptest::proptest! {
        /// What is left of any text draws as wide as its characters measured one by one, which
        /// is how tmux and xterm draw them.
        #[test]
        fn unjoined_text_is_as_wide_as_its_characters(
            picks in proptest::collection::vec(0usize..PIECES.len(), 0..12)
        ) {
            use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};
            let text: String = picks.iter().map(|&i| PIECES[i]).collect();
            let left = unjoined(&text);
            let parts: usize = left.chars().map(|c| c.width().unwrap_or(0)).sum();
            proptest::prop_assert_eq!(left.width(), parts, "{}", text.escape_unicode());
        }
    }

    proptest::proptest! {
        /// A number is written as the formatter writes it, right-aligned in any width: every
        /// sign and length, the extremes too.
        #[test]
        fn an_int_is_written_as_format_writes_it(
            n in proptest::prop_oneof![
                -1000i64..1000,
                proptest::num::i64::ANY,
                proptest::strategy::Just(i64::MIN),
                proptest::strategy::Just(i64::MAX),
            ],
            width in 0usize..24,
        ) {
            let mut s = String::from("x");
            push_int(&mut s, n, width);
            proptest::prop_assert_eq!(s, format!("x{n:>width$}"));
        }
    }

    proptest::proptest! {
        /// The shortcut for printable ASCII says what the character-by-character answer says,
        /// for any text: controls (C0, DEL, C1, the bidirectional ones) among plain letters.
        #[test]
        fn printable_ascii_is_told_by_its_bytes_as_by_its_characters(
            text in "[ -~]{0,8}[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}\\u{202a}é漢 a~]{0,3}[ -~]{0,8}"
        ) {
            use unicode_width::UnicodeWidthStr as _;
            proptest::prop_assert_eq!(holds_control(&text), text.chars().any(is_control));
            proptest::prop_assert_eq!(shown_len(&text), escaped(&text).width());
        }
    }

    /// Pieces of emoji sequences and of text around them.
    const PIECES: &[&str] = &[
        "a",
        " ",
        "漢",
        "é",
        "e\u{301}",
        "\u{200d}",
        "\u{fe0f}",
        "\u{fe0e}",
        "\u{fe00}",
        "\u{1f3fb}",
        "\u{1f3ff}",
        "👨",
        "👩",
        "👍",
        "✌",
        "❤",
        "☺",
        "🏳",
        "🌈",
        "🚀",
        "1",
        "#",
        "\u{20e3}",
        "🇩",
        "🇪",
        "🏴",
        "\u{e0067}",
        "\u{e007f}",
        "\u{1100}",
        "\u{1161}",
        "\u{11a8}",
    ];

    #[test]
    fn nothing_escaped_holds_a_control_character() {
        let all: String = (0u32..0x300).filter_map(char::from_u32).collect();
        assert!(!holds_control(&escaped(&all)));
        assert!(!escaped(&all).chars().any(char::is_control));
    }
}
