//! Terminal injection: text with control characters is refused where it is typed, and text
//! loaded from a save (a status, a ready trigger, a reason, an entry's text, the encounter's
//! name) or a file name reaches no output raw: `show`, `export`, `list`, `why`, messages on
//! standard error, the log and every pane of the screen show it escaped (`\e`, `\n`,
//! `\u{7}`), and a message echoes only a short excerpt of what it refuses.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use srtrack::catalogue::Catalogue;
use srtrack::encounter::{ActiveStatus, CombatantId, Entry, Event, StatusEnd};
use srtrack::rules::HouseRules;
use srtrack::save::file;

/// Retitles the window, rings the bell, clears the screen, and fakes a line.
const HOSTILE: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2J\nsrtrack: all is well\u{9b}";
const SEEN: &str = "\\e]0;PWNED\\u{7}\\e[2J\\nsrtrack: all is well\\u{9b}";
/// What one line of a script can hold (a line ends at a line break).
const HOSTILE_WORDS: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{9b}\t\r";

#[path = "common/cli.rs"]
mod cli;
use cli::srtrack;

/// The output holds no control character but line ends.
fn clean(what: &str, bytes: &[u8]) -> String {
    let text = String::from_utf8(bytes.to_vec()).expect("UTF-8 output");
    let chars: Vec<char> = text.chars().collect();
    if let Some(at) = chars
        .iter()
        .position(|c| *c != '\n' && srtrack::text::is_control(*c))
    {
        let around: String = chars[at.saturating_sub(60)..(at + 60).min(chars.len())]
            .iter()
            .collect();
        panic!("{what}: a raw control character: …{around:?}…");
    }
    text
}

fn catalogue() -> Arc<Catalogue> {
    Arc::new(Catalogue::embedded(&HouseRules::embedded()).unwrap())
}

/// The demo with hostile texts in every place a save holds text: its name and creation time,
/// a status, a ready trigger, a reason for leaving. The entries' texts say them escaped. A load
/// refuses the texts of its events, as no typed command holds one (`save_bad_files`): srtrack
/// reads such a file only to say so; the screen is shown it folded unchecked
/// ([`hostile_encounter`]), as a bug that let one in would leave it.
fn hostile_save(dir: &Path) -> PathBuf {
    let mut save = file::parse(include_bytes!("../saves/demo.ron"), "demo.ron").unwrap();
    save.name = format!("demo{HOSTILE}");
    save.created = HOSTILE.to_string();
    for entry in &mut save.history {
        for e in &mut entry.events {
            if let Event::ReadyDeclared { trigger, .. } = e {
                // The event's text; the entry's text holding one is refused on load (no typed
                // command holds one), so it says the words escaped, as a log would.
                trigger.text = HOSTILE.to_string();
                entry.text = format!(
                    "ready Moth 2 when {} do Fire Gun",
                    srtrack::text::escaped(HOSTILE)
                );
            }
        }
    }
    // The history is edited: the state kept after it is dropped, so it is rebuilt from the
    // history as a crafted file's would be (the sample keeps one).
    save.state = None;
    save.tail = None;
    let enc = srtrack::encounter::Encounter::from_tail(
        save.system,
        Arc::new(save.rules.clone()),
        catalogue(),
        0,
        save.system.empty_state(),
        save.history.clone(),
        save.cursor,
    );
    let find = |name: &str| {
        enc.state()
            .combatants
            .iter()
            .find(|c| c.name == name)
            .unwrap()
            .id
    };
    let (ana, rook): (CombatantId, CombatantId) = (find("Ana"), find("Rook"));
    save.history.push(Entry {
        text: format!("status Ana {} until never", srtrack::text::escaped(HOSTILE)),
        events: vec![Event::StatusStarted {
            who: ana,
            status: ActiveStatus {
                name: HOSTILE.to_string(),
                end: StatusEnd::UntilCleared,
                stacks: 1,
            },
        }],
        joined: false,
    });
    save.history.push(Entry {
        text: format!("remove Rook because {}", srtrack::text::escaped(HOSTILE)),
        events: vec![Event::CombatantRemoved {
            id: rook,
            reason: Some(HOSTILE.to_string()),
        }],
        joined: false,
    });
    save.cursor = save.history.len();
    let path = dir.join("hostile.ron");
    std::fs::write(&path, save.to_ron()).unwrap();
    path
}

#[test]
fn text_with_control_characters_is_refused_where_it_is_typed_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let setup = "add Ana pc int 3 rea 3 body 4 will 4\nadd Bo npc int 3 rea 3\n\
                 roll Ana hits 5\nroll Bo hits 0\nstart\n";
    assert!(srtrack(d, &["exec", "f"], setup).status.success());
    let before = std::fs::read(d.join("saves/f.ron")).unwrap();
    for (line, field) in [
        (format!("add \"Eve{HOSTILE_WORDS}\" pc int 3 rea 3"), "name"),
        (format!("edit Bo name \"Bo{HOSTILE_WORDS}\""), "name"),
        (
            format!("status Ana \"{HOSTILE_WORDS}\" until never"),
            "status text",
        ),
        (
            format!("ready Ana 2 when \"{HOSTILE_WORDS}\" do simple"),
            "ready trigger",
        ),
        (format!("remove Bo because \"{HOSTILE_WORDS}\""), "reason"),
        // Line and paragraph separators break a line in some terminals and shift the border.
        ("add \"L\u{2028}l\" pc int 3 rea 3".to_string(), "name"),
        (
            "status Ana \"a\u{2029}b\" until never".to_string(),
            "status text",
        ),
        // Unquoted, a tab or a separator is no word break: the word holds it, and is refused
        // as the quoted one is (it was a break, and the words were joined with a space).
        ("add Tab\there pc int 3 rea 3".to_string(), "name"),
        ("add Vt\u{b}x pc int 3 rea 3".to_string(), "name"),
        ("add Ff\u{c}x pc int 3 rea 3".to_string(), "name"),
        ("add Cr\rx pc int 3 rea 3".to_string(), "name"),
        ("add Nel\u{85}x pc int 3 rea 3".to_string(), "name"),
        (
            "status Ana Bl\u{2028}ind until never".to_string(),
            "status text",
        ),
        (
            "ready Ana 2 when door\u{2029}opens do simple".to_string(),
            "ready trigger",
        ),
        ("remove Bo because he\tleft".to_string(), "reason"),
    ] {
        let out = srtrack(d, &["exec", "f"], &format!("{line}\n"));
        assert_eq!(out.status.code(), Some(1), "{line:?}");
        let err = clean(&line, &out.stderr);
        assert!(
            err.contains(&format!("the {field} holds a control character")),
            "{err}"
        );
        assert_eq!(std::fs::read(d.join("saves/f.ron")).unwrap(), before);
    }
}

#[test]
fn free_texts_have_a_length_limit_and_a_refusal_echoes_an_excerpt() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let setup = "add Ana pc int 3 rea 3 body 4 will 4\nroll all\nstart\n";
    assert!(srtrack(d, &["exec", "f"], setup).status.success());
    let long = "y".repeat(201);
    for (line, field) in [
        (format!("status Ana {long} until never"), "status text"),
        (
            format!("ready Ana 2 when {long} do simple"),
            "ready trigger",
        ),
        (format!("remove Ana because {long}"), "reason"),
    ] {
        let out = srtrack(d, &["exec", "f"], &format!("{line}\n"));
        let err = clean(&line, &out.stderr);
        assert!(
            err.contains(&format!("the {field} has 201 characters: allowed 1 to 200")),
            "{err}"
        );
    }
    // A name as long as a script line may hold is refused in a short sentence; a megabyte-long
    // one goes past the line's bound, and is refused by it as shortly.
    let bound = srtrack::cli::MAX_SCRIPT_LINE_BYTES;
    for (n, says) in [
        (60_000, "60000 characters".to_string()),
        (1_000_000, format!("longer than {bound} bytes")),
    ] {
        let huge = format!("add {} pc int 3 rea 3\n", "Z".repeat(n));
        let out = srtrack(d, &["exec", "f"], &huge);
        let err = clean("huge", &out.stderr);
        assert!(err.contains(&says), "{err}");
        assert!(err.len() < 300, "{} bytes of message", err.len());
    }
    // So is a word the language does not know.
    let out = srtrack(
        d,
        &["exec", "f"],
        &format!("act {}{HOSTILE} simple\n", "Q".repeat(60_000)),
    );
    let err = clean("unknown word", &out.stderr);
    assert!(err.len() < 400, "{} bytes of message", err.len());
}

/// The hostile save folded as it is, unchecked.
fn hostile_encounter(save: &Path) -> srtrack::encounter::Encounter {
    let save = file::parse(&std::fs::read(save).unwrap(), "hostile.ron").unwrap();
    srtrack::encounter::Encounter::from_tail(
        save.system,
        Arc::new(save.rules),
        catalogue(),
        0,
        save.system.empty_state(),
        save.history,
        save.cursor,
    )
}

#[test]
fn a_hostile_save_is_refused_in_words_and_its_name_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let save = hostile_save(d);
    let p = save.to_str().unwrap();
    // Its events' texts: every command refuses the file, the text quoted escaped.
    for args in [
        ["show", p].as_slice(),
        &["export", p, "--log"],
        &["check", p],
        &["exec", p],
    ] {
        let out = srtrack(d, args, "why Ana Jinx\n");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = clean("refused", &out.stderr);
        assert!(err.contains("holds a control character"), "{args:?}: {err}");
        assert!(err.contains("\\e]0;PWNED"), "{args:?}: {err}");
    }
    // Its name alone is no event's: the save opens, its name written escaped.
    let mut named = file::parse(include_bytes!("../saves/demo.ron"), "demo.ron").unwrap();
    named.name = format!("demo{HOSTILE}");
    let named_path = d.join("named.ron");
    std::fs::write(&named_path, named.to_ron()).unwrap();
    let n = named_path.to_str().unwrap();
    let show = srtrack(d, &["show", n], "");
    assert!(
        show.status.success(),
        "{}",
        String::from_utf8_lossy(&show.stderr)
    );
    clean("show", &show.stdout);
    let in_md = srtrack::text::markdown(HOSTILE);
    for args in [["export", n, "--log"].as_slice(), &["export", n]] {
        let md = clean("export", &srtrack(d, args, "").stdout);
        assert!(md.starts_with(&format!("# demo{in_md}")), "{md}");
    }
    clean("check", &srtrack(d, &["check", n], "").stdout);
    let why = srtrack(d, &["exec", n], "why Ana Jinx\n");
    assert!(
        why.status.success(),
        "{}",
        String::from_utf8_lossy(&why.stderr)
    );
    clean("why", &why.stdout);
    // A save whose file name is hostile, and one that cannot be read, in the list.
    std::fs::create_dir_all(d.join("saves")).unwrap();
    std::fs::copy(&named_path, d.join(format!("saves/evil{HOSTILE}.ron"))).unwrap();
    std::fs::write(d.join(format!("saves/bad{HOSTILE}.ron")), HOSTILE).unwrap();
    let list = clean("list", &srtrack(d, &["list"], "").stdout);
    assert!(list.contains("evil\\e]0;PWNED"), "{list}");
    assert_eq!(list.lines().count(), 3, "{list}");
}

#[test]
fn errors_about_a_hostile_file_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A file name, and an entry the loader refuses, whose text it quotes.
    let name = d.join(format!("x{HOSTILE}.ron"));
    let mut save = file::parse(include_bytes!("../saves/demo.ron"), "demo.ron").unwrap();
    save.history[8].text = format!("end {}{HOSTILE}", "E".repeat(100_000));
    std::fs::write(&name, save.to_ron()).unwrap();
    for cmd in ["check", "show", "export", "open", "exec"] {
        let out = srtrack(d, &[cmd, name.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let err = clean(cmd, &out.stderr);
        assert!(err.contains("x\\e]0;PWNED"), "{cmd}: {err}");
        assert!(err.len() < 500, "{cmd}: {} bytes of message", err.len());
    }
    // A file that is not RON at all, with control characters where a word should be.
    std::fs::write(
        d.join("junk.ron"),
        format!("SaveFile(version: 1, {HOSTILE}: 3)"),
    )
    .unwrap();
    let out = srtrack(d, &["check", d.join("junk.ron").to_str().unwrap()], "");
    clean("junk", &out.stderr);
}

#[test]
fn every_pane_of_the_screen_shows_a_hostile_save_escaped_and_keeps_its_borders() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let dir = tempfile::tempdir().unwrap();
    let save = hostile_save(dir.path());
    let enc = hostile_encounter(&save);
    let app = srtrack::ui::App::new(
        enc,
        format!("demo{HOSTILE}"),
        Box::new(srtrack::save::NoSave),
        Some(format!("read-only{HOSTILE}")),
    );
    let mut term = Terminal::new(TestBackend::new(160, 48)).unwrap();
    term.draw(|f| f.render_widget(&app, f.area())).unwrap();
    let buf = term.backend().buffer().clone();
    let mut rows = Vec::new();
    for y in 0..buf.area.height {
        let mut row = String::new();
        for x in 0..buf.area.width {
            let sym = buf[(x, y)].symbol();
            assert!(
                !sym.chars().any(srtrack::text::is_control),
                "a raw control character at {x},{y}"
            );
            row.push_str(sym);
        }
        rows.push(row);
    }
    let screen = rows.join("\n");
    assert!(screen.contains("demo\\e]0;PWNED"), "the title:\n{screen}");
    assert!(screen.contains("\\e]0;PWNED\\u{7}"), "the panes:\n{screen}");
    // The order measures what it shows: a ready's trigger, escaped, is not cut short.
    let ready = rows
        .iter()
        .find(|r| r.contains("⏸ ready"))
        .expect("the ready's row in the order");
    assert!(
        ready.contains(&format!("when {SEEN}")),
        "the ready's row:\n{ready}"
    );
    // The rows inside the top panes have their borders in the same columns: nothing shifted.
    let borders: Vec<Vec<usize>> = rows[3..10]
        .iter()
        .map(|r| {
            r.chars()
                .enumerate()
                .filter(|(_, c)| *c == '│')
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    // Two panes side by side; from 100 columns the order pane holds the IP grid behind a rule.
    assert_eq!(borders[0].len(), 5, "two panes side by side:\n{screen}");
    assert!(
        borders.windows(2).all(|w| w[0] == w[1]),
        "the borders of the top panes line up:\n{screen}"
    );
}

/// Given command-line values holding an escape sequence, when clap refuses them, then the
/// refusal quotes them whole with the sequence written out, not the value without it (which
/// would be told as invalid though it reads as a good one).
#[test]
fn a_refused_command_line_value_is_told_with_its_escape_sequence_written_out() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (args, says) in [
        (
            vec!["exec", "--system", "sr5\u{1b}[0m", "x", "/dev/null"],
            "invalid value 'sr5\\e[0m' for '--system <SYSTEM>': \"sr5\\e[0m\" is not a rule system",
        ),
        (
            vec!["--seed", "1\u{1b}[2J", "exec", "x", "/dev/null"],
            "invalid value '1\\e[2J' for '--seed <N>'",
        ),
        (
            vec!["\u{1b}[31mfoo\u{7}"],
            "unrecognized subcommand '\\e[31mfoo\\u{7}'",
        ),
    ] {
        let out = srtrack(d, &args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = clean("args", &out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
