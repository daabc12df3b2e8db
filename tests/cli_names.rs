//! Names typed at the table: any name that gets in can be typed back (quotes and backslashes
//! escaped inside quotes), a name never looks like another (invisible characters refused), and
//! names line up in columns by the cells they take on a terminal, wide characters included.

#[path = "common/cli.rs"]
mod cli;
use cli::{srtrack, text};

#[test]
fn a_name_with_a_quote_and_a_backslash_is_typed_back_escaped_inside_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a character added as "Say\"Hi\\" (Say"Hi\)
    let out = srtrack(
        d,
        &["exec", "f"],
        "add \"Say\\\"Hi\\\\\" int 3 rea 3 will 3\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // When the name is typed back, escaped the same way, in another command
    let out = srtrack(d, &["exec", "f"], "damage \"Say\\\"Hi\\\\\" 2 stun\n");
    // Then it finds that character
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&srtrack(d, &["show", "f"], "").stdout);
    assert!(shown.contains("Say\"Hi\\"), "{shown}");
    // And a backslash not before a quote or a backslash is itself, quoted or not
    let out = srtrack(
        d,
        &["exec", "f"],
        "add \"C:\\x\" int 3 rea 3\nadd D\\y int 3 rea 3\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&srtrack(d, &["show", "f"], "").stdout);
    assert!(shown.contains("C:\\x") && shown.contains("D\\y"), "{shown}");
    // And a quote left open says how to write one inside quotes
    let out = srtrack(d, &["exec", "f"], "damage \"Say\"Hi\\\" 2\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("a quote is written \\\""),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_name_with_an_invisible_character_is_refused_at_every_entry() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(
        d,
        &["exec", "f"],
        "add ZeroWidth int 3 rea 3\nadd Bo int 3 rea 3\n",
    );
    for (line, code) in [
        ("add Zero\u{200b}Width int 3 rea 3", "U+200B"),
        ("add Zero\u{200b}Width2 int 3 rea 3", "U+200B"),
        ("add \u{feff}Ann int 3 rea 3", "U+FEFF"),
        ("add So\u{ad}me x2 int 3 rea 3", "U+00AD"),
        ("edit Bo name B\u{2060}o", "U+2060"),
    ] {
        // When a name holding one is typed
        let out = srtrack(d, &["exec", "f"], &format!("{line}\n"));
        // Then it is refused in one sentence naming the character, and nothing changes
        assert_eq!(out.status.code(), Some(1), "{line}");
        let err = text(&out.stderr);
        // (named even where the name without it is taken: the character is the fault)
        assert!(err.contains("invisible character"), "{line}: {err}");
        assert!(err.contains(code), "{line}: {err}");
    }
    let shown = text(&srtrack(d, &["show", "f"], "").stdout);
    assert_eq!(shown.matches("joins").count(), 2, "{shown}");
    // But a joiner that builds an emoji is a name's own
    let out = srtrack(d, &["exec", "f"], "add Cap 👩\u{200d}🚀 int 3 rea 3\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// Given a fight with `Nx` and Ana, when a name or a status holds a format character drawn as
/// nothing (interlinear annotation, Egyptian format controls, Arabic number sign, CGJ), or a
/// name is only the Braille blank (an empty row), then it is refused naming the character,
/// before any word that the name is taken, and nothing changes.
#[test]
fn format_characters_and_a_blank_name_are_refused_as_invisible_before_taken() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(
        d,
        &["exec", "f"],
        "add Nx int 3 rea 3\nadd Ana int 3 rea 3\n",
    );
    let before = std::fs::read(d.join("saves/f.ron")).unwrap();
    for (line, code) in [
        ("add N\u{fff9}x int 3 rea 3", "U+FFF9"),
        ("add N\u{fffb}y int 3 rea 3", "U+FFFB"),
        ("add Mo\u{13430} int 3 rea 3", "U+13430"),
        ("add Mo\u{1343f} int 3 rea 3", "U+1343F"),
        ("add \u{600}Jo int 3 rea 3", "U+0600"),
        ("add \u{2800} int 3 rea 3", "U+2800"),
        ("add \u{2800} \u{2800} int 3 rea 3", "U+2800"),
        ("add N\u{34f}x int 3 rea 3", "U+034F"),
        ("edit Ana name N\u{200b}x", "U+200B"),
        ("status Ana da\u{fffa}zed", "U+FFFA"),
        ("status Ana \u{2800}", "U+2800"),
    ] {
        let out = srtrack(d, &["exec", "f"], &format!("{line}\n"));
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{line}: {err}");
        assert!(
            err.contains(&format!("holds an invisible character ({code})")),
            "{line}: {err}"
        );
        assert!(!err.contains("taken"), "{line}: {err}");
    }
    assert_eq!(std::fs::read(d.join("saves/f.ron")).unwrap(), before);
    // A Braille blank among letters is a letter of the name, drawn as a space.
    let out = srtrack(d, &["exec", "f"], "add Bo\u{2800}Bo int 3 rea 3\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_text_that_starts_with_a_combining_mark_is_refused_at_entry() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "f"], "add Ana int 3 rea 3\nroll all\nstart\n");
    // Given texts whose first character is a combining mark: it joins what is before it on
    // the screen (a space, a column's edge), and a text of marks only shows as nothing
    for line in [
        "add \u{301}\u{301} int 3 rea 3",
        "add \u{301}Bo int 3 rea 3",
        "edit Ana name \u{308}Ana",
        "status Ana \u{301}\u{301} until round",
        "ready Ana 1 when \u{301}door do free",
    ] {
        // When one is typed
        let out = srtrack(d, &["exec", "f"], &format!("{line}\n"));
        // Then it is refused in one sentence naming the mark, and nothing changes
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{line}: {err}");
        assert!(
            err.contains("starts with a combining mark (U+0"),
            "{line}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{line}: {err}");
    }
    let shown = text(&srtrack(d, &["show", "f"], "").stdout);
    assert!(
        !shown.contains('\u{301}') && !shown.contains('\u{308}'),
        "{shown}"
    );
    // But a mark after a letter is the letter's accent
    let out = srtrack(d, &["exec", "f"], "add Rene\u{301} int 3 rea 3\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn show_lines_names_up_by_the_cells_they_take() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a name of wide characters beside narrow ones, and one wider than the column's
    // 24 cells (14 wide characters: 28 cells)
    let script = "add Jinx int 5 rea 5\nadd 漢字漢字 int 4 rea 4\nadd Café int 3 rea 3\n\
                  add 漢字漢字漢字漢字漢字漢字漢字 int 3 rea 3\nadd 🐉🐉 int 3 rea 3\n";
    assert_eq!(srtrack(d, &["exec", "f"], script).status.code(), Some(0));
    // When the order is shown, before the fight and in it
    for setup in ["", "roll all\nstart\n"] {
        if !setup.is_empty() {
            assert_eq!(srtrack(d, &["exec", "f"], setup).status.code(), Some(0));
        }
        let shown = text(&srtrack(d, &["show", "f"], "").stdout);
        // Then "score" starts in the same terminal column on every row
        assert_eq!(same_column(&shown, "score"), 5, "{shown}");
    }
}

/// How many lines hold `word`, and that it starts in the same terminal column on each.
fn same_column(shown: &str, word: &str) -> usize {
    let columns: Vec<usize> = shown
        .lines()
        .filter_map(|l| {
            l.find(word)
                .map(|at| unicode_width::UnicodeWidthStr::width(&l[..at]))
        })
        .collect();
    assert!(columns.iter().all(|c| *c == columns[0]), "{shown}");
    columns.len()
}

#[test]
fn list_lines_save_names_up_by_the_cells_they_take() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given saves named in wide characters and an emoji beside a narrow one
    for name in ["日本語の戦い", "🐉", "docks"] {
        let out = srtrack(d, &["exec", name], "add Ana int 3 rea 3\n");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    // When they are listed
    let listed = text(&srtrack(d, &["list"], "").stdout);
    // Then the system column starts in the same terminal column on every row
    assert_eq!(same_column(&listed, "SR5"), 3, "{listed}");
}

#[test]
fn list_tells_apart_file_names_that_look_alike_and_lines_them_up() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given a save, and copies of it by names srtrack would refuse (made outside it): with a
    // soft hyphen, a byte-order mark, a direction mark, an escape
    let out = srtrack(d, &["exec", "fx"], "add Ana int 3 rea 3\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let saves = d.join("saves");
    for name in ["f\u{ad}x", "f\u{feff}x", "f\u{200f}x", "f\u{1b}x"] {
        std::fs::copy(saves.join("fx.ron"), saves.join(format!("{name}.ron"))).unwrap();
    }
    // When they are listed
    let listed = text(&srtrack(d, &["list"], "").stdout);
    // Then each shows what it holds, and the system column starts in the same terminal column
    for shown in [
        "f\\u{ad}x ",
        "f\\u{feff}x ",
        "f\\u{200f}x ",
        "f\\ex ",
        "fx ",
    ] {
        assert!(listed.contains(shown), "{shown}: {listed}");
    }
    assert_eq!(same_column(&listed, "SR5"), 5, "{listed}");
}

#[test]
fn the_anarchy_table_lines_names_up_by_the_cells_they_take() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = "add Ana pc\nadd 漢字漢字漢字漢字漢字漢字漢字 pc\nadd 🐉 npc\nnarrate\n";
    let out = srtrack(d, &["exec", "--system", "anarchy", "f"], script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&srtrack(d, &["show", "f"], "").stdout);
    // The side follows the name on each row of the table.
    let rows: String = shown
        .lines()
        .filter(|l| l.contains(" PC,") || l.contains(" NPC,"))
        .map(|l| l.replace(" NPC,", " PC,") + "\n")
        .collect();
    assert_eq!(same_column(&rows, " PC,"), 3, "{shown}");
}

#[test]
fn a_name_of_joined_emoji_is_kept_as_its_emoji_without_the_joiners() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given names holding emoji joined by U+200D, one chosen in emoji style (U+FE0F) and one
    // with a skin tone: one glyph to unicode-width, their parts to tmux and xterm
    let script = "add \"👨\u{200d}👩\u{200d}👧 Kin\" int 3 rea 3 will 5\n\
                  add \"❤\u{fe0f} Heart\" int 3 rea 3\n\
                  add \"👍\u{1f3fd} Thumb\" int 3 rea 3\n\
                  status \"❤\u{fe0f} Heart\" on 🔥\u{fe0f}\n";
    // When they are typed in
    let out = srtrack(d, &["exec", "f"], script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Then they are kept as their emoji one after the other, without the joiners and the
    // selectors, and the emoji a skin tone would merge with stands alone
    let shown = text(&srtrack(d, &["show", "f"], "").stdout);
    for kept in ["👨👩👧 Kin", "❤ Heart", "👍 Thumb", "on 🔥"] {
        assert!(shown.contains(kept), "{kept}: {shown}");
    }
    // (the save keeps, as an entry's text, what the GM typed; the names and the status as kept)
    let save = std::fs::read_to_string(d.join("saves").join("f.ron")).unwrap();
    let kept: Vec<&str> = save
        .split("name: \"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(
        kept.contains(&"👨👩👧 Kin") && kept.contains(&"on 🔥"),
        "{kept:?}"
    );
    for gone in ['\u{200d}', '\u{fe0f}', '\u{1f3fd}'] {
        assert!(!kept.iter().any(|k| k.contains(gone)), "{kept:?}");
    }
    // And the GM finds the family typing it either way, with the joiners or without
    for typed in ["👨\u{200d}👩\u{200d}👧 Kin", "👨👩👧 Kin"] {
        let out = srtrack(d, &["exec", "f"], &format!("damage \"{typed}\" 1 stun\n"));
        assert_eq!(out.status.code(), Some(0), "{typed}: {}", text(&out.stderr));
    }
    // in short too, and a status typed back as it was typed in is the status kept
    for line in [
        "damage 👨\u{200d}👩 1 stun\n",
        "edit 👍\u{1f3fd} int 4\n",
        "clear \"❤\u{fe0f} Heart\" on 🔥\u{fe0f}\n",
    ] {
        let out = srtrack(d, &["exec", "f"], line);
        assert_eq!(out.status.code(), Some(0), "{line}: {}", text(&out.stderr));
    }
    // And a second name that differs only in its joiners is the same name, already taken
    let out = srtrack(
        d,
        &["exec", "f"],
        "add \"👨👩\u{200d}👧 Kin\" int 3 rea 3\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("already"),
        "{}",
        text(&out.stderr)
    );
}

/// A directory holding, as save `f`, an older save whose names hold skin tones (kept as
/// written then): Thumb👍🏽, Ok👌🏾Go, and two that differ only by theirs, Wave👋🏻 and Wave👋🏿.
fn skin_tones() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("saves")).unwrap();
    std::fs::copy(
        "tests/fixtures/v7-skin-tones.ron",
        dir.path().join("saves").join("f.ron"),
    )
    .unwrap();
    dir
}

#[test]
fn a_name_an_older_save_keeps_with_a_skin_tone_is_found_typed_with_or_without_it() {
    // Given an older save whose names hold skin tones (kept as written then): Thumb👍🏽,
    // Ok👌🏾Go, and two that differ only by theirs, Wave👋🏻 and Wave👋🏿
    let dir = skin_tones();
    let d = dir.path();
    // When their names are typed with the tone, without it, quoted or not
    let lines = "damage Thumb👍🏽 1 stun\ndamage Thumb👍 1 stun\ndamage \"Thumb👍🏽\" 1 stun\n\
                 damage Ok👌🏾Go 1 stun\ndamage Ok👌Go 1 stun\n";
    let out = srtrack(d, &["exec", "f"], lines);
    // Then each line finds the one so named
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&srtrack(d, &["show", "f"], "").stdout);
    assert!(
        shown.contains("Thumb👍🏽: Physical 0/10, Stun 3/11"),
        "{shown}"
    );
    assert!(shown.contains("Ok👌🏾Go: Physical 0/10, Stun 2/9"), "{shown}");
    // And a name that stands for both Waves is refused in one sentence naming them
    for line in ["damage Wave👋🏻 1", "damage Wave👋 1", "damage \"Wave👋🏿\" 1"] {
        cli::refused_unchanged(
            d,
            "f",
            line,
            "\"Wave👋\" is the name of 2 characters once skin tones are left out (Wave👋🏻, Wave👋🏿)",
        );
    }
}

#[test]
fn roster_save_of_a_name_two_share_once_skin_tones_are_left_out_is_refused_naming_both() {
    // Given the older save with Wave👋🏻 and Wave👋🏿
    let dir = skin_tones();
    let d = dir.path();
    // When either is kept in the roster, by its name with or without its tone
    for name in ["Wave👋🏻", "Wave👋", "Wave👋🏿"] {
        let out = srtrack(d, &["roster", "save", "f", name, "--as", "Wave"], "");
        // Then it is refused in one sentence naming both, and nothing is kept
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stdout));
        let err = text(&out.stderr);
        assert!(
            err.contains("(Wave👋🏻, Wave👋🏿)") && err.trim_end().lines().count() == 1,
            "{name}: {err}"
        );
        assert!(!d.join("roster").join("Wave.ron").exists());
    }
    // And a name only one has is kept
    let out = srtrack(d, &["roster", "save", "f", "Thumb👍", "--as", "Thumb"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn names_an_older_save_keeps_with_emoji_joiners_print_as_names_are_kept_now() {
    // Given an older save whose names and command lines hold an emoji joined by U+200D
    // (👩‍🚀 Cap) and one with an emoji-style selector (❤️ Heart), as typed before they were
    // dropped at entry
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("saves")).unwrap();
    std::fs::copy(
        "tests/fixtures/v7-joiners.ron",
        d.join("saves").join("old.ron"),
    )
    .unwrap();
    // And the same combatant typed into a save today
    let typed = "add 👩\u{200d}🚀 Cap pc int 4 rea 5 edge 3 body 4 will 5\n";
    assert_eq!(srtrack(d, &["exec", "new"], typed).status.code(), Some(0));
    // When the older save is shown, recapped and its log exported
    for args in [
        vec!["show", "old"],
        vec!["export", "old"],
        vec!["export", "--log", "old"],
    ] {
        let out = srtrack(d, &args, "");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let said = text(&out.stdout);
        // Then its names and command lines print without the joiners, as names are kept now
        assert!(
            !said.contains(['\u{200d}', '\u{fe0f}']),
            "{args:?}: {said:?}"
        );
        assert!(
            said.contains("👩🚀 Cap") && said.contains("❤ Heart"),
            "{args:?}: {said}"
        );
    }
    // And the combatant prints the same in both saves
    let monitors = |save: &str| {
        let shown = text(&srtrack(d, &["show", save], "").stdout);
        shown
            .lines()
            .find(|l| l.contains("Cap:"))
            .unwrap_or_else(|| panic!("{shown}"))
            .to_string()
    };
    assert_eq!(monitors("old"), monitors("new"));
}

#[test]
fn a_text_that_would_show_as_nothing_is_refused_at_entry() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "f"], "add Ana int 3 rea 3\nroll all\nstart\n");
    srtrack(d, &["exec", "--system", "anarchy", "a"], "add Nix pc\n");
    let zj = "\u{200d}\u{200d}";
    // Given texts of zero-width joiners only, and texts holding a character that shows as
    // nothing, in each kind of free text
    for (save, line, said) in [
        ("f", format!("status Ana {zj}"), "only zero-width joiners"),
        (
            "f",
            format!("status Ana {zj} until round"),
            "only zero-width joiners",
        ),
        (
            "f",
            format!("add {zj} int 3 rea 3"),
            "only zero-width joiners",
        ),
        (
            "f",
            format!("ready Ana 1 when {zj} do free"),
            "only zero-width joiners",
        ),
        (
            "f",
            format!("weapon Ana add {zj} dv 5 ap 0 acc 5"),
            "only zero-width joiners",
        ),
        ("a", format!("cooldown Nix {zj}"), "only zero-width joiners"),
        ("f", "status Ana \u{200b}".to_string(), "U+200B"),
        ("f", "status Ana Shaken\u{2060}".to_string(), "U+2060"),
        (
            "f",
            "ready Ana 1 when \u{feff}door do free".to_string(),
            "U+FEFF",
        ),
        (
            "f",
            "weapon Ana add Ares\u{200b} dv 5 ap 0 acc 5".to_string(),
            "U+200B",
        ),
        ("a", "cooldown Nix Deck\u{200b}".to_string(), "U+200B"),
        ("a", "pp Nix award cue \u{200b}".to_string(), "U+200B"),
    ] {
        let before = text(&srtrack(d, &["show", save], "").stdout);
        // When one is typed
        let out = srtrack(d, &["exec", save], &format!("{line}\n"));
        // Then it is refused in one sentence saying why, and nothing changes
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{line}: {err}");
        assert!(err.contains(said), "{line}: {err}");
        assert!(!err.contains("expected"), "{line}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{line}: {err}");
        assert_eq!(
            text(&srtrack(d, &["show", save], "").stdout),
            before,
            "{line}"
        );
    }
    // But a joiner inside an emoji is kept as ever
    let out = srtrack(d, &["exec", "f"], "status Ana 👩\u{200d}🚀 until round\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_name_refused_at_a_keyword_in_it_is_told_to_go_in_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Given SR5 lines whose names hold a word `add` takes (`edge`, `shared`)
    for (line, says) in [
        (
            "add Big Edge Guy npc int 3 rea 3\n",
            "a name holding the word \"Edge\" is typed in quotes: \"Big Edge Guy\"",
        ),
        (
            "add Shared Joe pc int 3 rea 3\n",
            "a name holding the word \"Shared\" is typed in quotes: \"Shared Joe\"",
        ),
    ] {
        // When they are run
        let out = srtrack(d, &["exec", "f"], line);
        // Then the refusal says how the name is typed, and nothing is added
        assert_eq!(out.status.code(), Some(1), "{line}");
        let err = text(&out.stderr);
        assert!(err.contains(says), "{line}: {err}");
    }
    // And the name in quotes goes, `name` needing none
    let out = srtrack(
        d,
        &["exec", "f"],
        "add \"Big Edge Guy\" npc int 3 rea 3\nadd The Name pc int 3 rea 3\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
