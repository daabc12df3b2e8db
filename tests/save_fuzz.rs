//! The loader against hostile files: random bytes, and RON-shaped mutations of `saves/demo.ron`
//! (numbers at their extremes, strings long or strange, spans cut, copied or nested, variants
//! swapped). Never a panic, and a file under 1 MiB never takes more than 1 s or 64 MiB.
//!
//! One test runs every property in turn, so that the process's peak memory is this test's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use srtrack::catalogue::Catalogue;
use srtrack::rules::HouseRules;
use srtrack::save::file;

const DEMO: &str = include_str!("../saves/demo.ron");
const MAX_TIME: Duration = Duration::from_secs(1);
const MAX_MEMORY: u64 = 64 * 1024 * 1024;

fn catalogue() -> Arc<Catalogue> {
    Arc::new(Catalogue::embedded(&HouseRules::embedded()).unwrap())
}

/// Peak resident memory since the last reset, in bytes (Linux: `/proc/self/status`).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .expect("VmHWM")
}

fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .expect("VmRSS")
}

/// Resets the peak to what is resident now.
fn reset_peak() {
    std::fs::write("/proc/self/clear_refs", "5").expect("the peak can be reset");
}

/// Loads `bytes` as a save: parse, check every event, replay. Fails the case if it took too
/// long or too much memory; a panic fails it too.
fn load(bytes: &[u8], catalogue: &Arc<Catalogue>) -> Result<(), TestCaseError> {
    reset_peak();
    let before = rss();
    let started = Instant::now();
    let result = file::parse(bytes, "f.ron")
        .and_then(|save| save.into_encounter("f.ron", Arc::clone(catalogue)))
        .map(|_| ());
    let took = started.elapsed();
    let grew = peak_rss().saturating_sub(before);
    prop_assert!(took <= MAX_TIME, "{} bytes took {took:?}", bytes.len());
    prop_assert!(
        grew <= MAX_MEMORY,
        "{} bytes took {grew} bytes of memory",
        bytes.len()
    );
    if let Err(e) = result {
        // Every refusal is a sentence that names the file.
        prop_assert!(e.to_string().starts_with("f.ron"), "{e}");
        prop_assert!(!e.message.is_empty());
    }
    Ok(())
}

/// A number where the file has one: the extremes of every integer type and then some.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "127",
    "128",
    "-129",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999999999",
    "1e309",
    "-0",
    "0x7f",
];

/// What a string may become.
fn strange_string(kind: usize) -> String {
    match kind % 6 {
        0 => String::new(),
        1 => "x".repeat(100_000),
        2 => "\u{1b}]0;PWNED\u{7}\u{1b}[2J\n\r\t\0".into(),
        3 => "Ganger 1".into(),
        4 => "𝔊𝔞𝔫𝔤𝔢𝔯 ́́́".into(),
        _ => "\\\"".into(),
    }
}

/// One change to the text, at places picked by the indices.
#[derive(Debug, Clone)]
enum Mutation {
    Number(prop::sample::Index, usize),
    String(prop::sample::Index, usize),
    Cut(prop::sample::Index, usize),
    Copy(prop::sample::Index, prop::sample::Index, usize),
    Nest(prop::sample::Index, usize),
    Swap(prop::sample::Index, prop::sample::Index),
    Truncate(prop::sample::Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<prop::sample::Index>;
    prop_oneof![
        4 => (at(), any::<usize>()).prop_map(|(a, n)| Mutation::Number(a, n)),
        2 => (at(), any::<usize>()).prop_map(|(a, n)| Mutation::String(a, n)),
        2 => (at(), 1..400usize).prop_map(|(a, n)| Mutation::Cut(a, n)),
        2 => (at(), at(), 1..4000usize).prop_map(|(a, b, n)| Mutation::Copy(a, b, n)),
        1 => (at(), 1..200usize).prop_map(|(a, n)| Mutation::Nest(a, n)),
        2 => (at(), at()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        1 => at().prop_map(Mutation::Truncate),
    ]
}

/// Byte ranges of the tokens of a kind: numbers, strings (their contents), identifiers.
fn tokens(text: &str, pick: fn(&str, usize) -> Option<usize>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        match pick(text, i) {
            Some(end) if end > i => {
                out.push((i, end));
                i = end;
            }
            _ => i += text[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    out
}

fn number_at(text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    let starts = (b[i].is_ascii_digit() || b[i] == b'-')
        && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
    if !starts {
        return None;
    }
    let len = text[i + 1..].bytes().take_while(u8::is_ascii_digit).count();
    (b[i].is_ascii_digit() || len > 0).then_some(i + 1 + len)
}

fn string_at(text: &str, i: usize) -> Option<usize> {
    if text.as_bytes()[i] != b'"' {
        return None;
    }
    // The contents, without the quotes (the demo's strings hold no escapes).
    text[i + 1..].find('"').map(|n| i + 1 + n)
}

fn ident_at(text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    if !b[i].is_ascii_uppercase() || (i > 0 && b[i - 1].is_ascii_alphanumeric()) {
        return None;
    }
    let len = text[i..]
        .bytes()
        .take_while(u8::is_ascii_alphanumeric)
        .count();
    Some(i + len)
}

/// A char boundary at or before `at`.
fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn mutate(text: &str, change: &Mutation) -> String {
    let mut t = text.to_string();
    match change {
        Mutation::Number(at, len) => {
            let all = tokens(&t, number_at);
            if !all.is_empty() {
                let (a, b) = all[at.index(all.len())];
                t.replace_range(a..b, NUMBERS[len % NUMBERS.len()]);
            }
        }
        Mutation::String(at, len) => {
            let all = tokens(&t, |t, i| string_at(t, i).map(|e| e + 1));
            if !all.is_empty() {
                let (a, b) = all[at.index(all.len())];
                let escaped = format!("{:?}", strange_string(*len));
                t.replace_range(a..b, &escaped);
            }
        }
        Mutation::Cut(at, len) => {
            let a = boundary(&t, at.index(t.len().max(1)));
            let b = boundary(&t, a + len);
            t.replace_range(a..b, "");
        }
        Mutation::Copy(from, to, len) => {
            let a = boundary(&t, from.index(t.len().max(1)));
            let b = boundary(&t, a + len);
            let piece = t[a..b].to_string();
            let at = boundary(&t, to.index(t.len().max(1)));
            t.insert_str(at, &piece);
        }
        Mutation::Nest(at, len) => {
            let a = boundary(&t, at.index(t.len().max(1)));
            t.insert_str(a, &format!("{}{}", "[".repeat(*len), "]".repeat(*len)));
        }
        Mutation::Swap(a, b) => {
            let all = tokens(&t, ident_at);
            if all.len() > 1 {
                let (x0, x1) = all[a.index(all.len())];
                let (y0, y1) = all[b.index(all.len())];
                let other = t[y0..y1].to_string();
                t.replace_range(x0..x1, &other);
            }
        }
        Mutation::Truncate(at) => {
            let a = boundary(&t, at.index(t.len().max(1)));
            t.truncate(a);
        }
    }
    t
}

fn run(cases: u32, strategy: impl Strategy<Value = Vec<u8>>, catalogue: &Arc<Catalogue>) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    if let Err(e) = runner.run(&strategy, |bytes| load(&bytes, catalogue)) {
        panic!("{e}");
    }
}

#[test]
fn hostile_files_never_panic_hang_or_blow_up() {
    let catalogue = catalogue();
    // The demo itself loads.
    file::parse(DEMO.as_bytes(), "f.ron")
        .and_then(|s| s.into_encounter("f.ron", Arc::clone(&catalogue)))
        .expect("the demo loads");
    // Random bytes, some of them after the start of a save.
    run(
        256,
        (prop::bool::ANY, prop::collection::vec(any::<u8>(), 0..8192)).prop_map(
            |(prefixed, mut bytes)| {
                if prefixed {
                    let mut b = b"SaveFile(\n  version: 1,\n  ".to_vec();
                    b.append(&mut bytes);
                    b
                } else {
                    bytes
                }
            },
        ),
        &catalogue,
    );
    // RON-shaped mutations of the demo: a few changes each.
    run(
        768,
        prop::collection::vec(mutation(), 1..6).prop_map(|ms| {
            ms.iter()
                .fold(DEMO.to_string(), |t, m| mutate(&t, m))
                .into_bytes()
        }),
        &catalogue,
    );
    // Big ones just under 1 MiB: the history repeated, and one long string.
    let start = DEMO.find("  history: [\n").unwrap() + "  history: [\n".len();
    let end = DEMO.rfind("  ],\n").unwrap();
    let entries = &DEMO[start..end];
    let repeat = (1024 * 1024 - DEMO.len()) / entries.len();
    let big = format!(
        "{}{}{}",
        &DEMO[..start],
        entries.repeat(repeat),
        &DEMO[start..]
    );
    assert!(big.len() < 1024 * 1024, "{}", big.len());
    load(big.as_bytes(), &catalogue).unwrap();
    // A real fight just under 1 MiB loads whole, in time.
    let mut enc = srtrack::encounter::Encounter::new(
        Arc::new(HouseRules::embedded()),
        Arc::clone(&catalogue),
    );
    let mut dice = srtrack::rules::RandomDice::seeded(5);
    let mut run_line = |enc: &mut srtrack::encounter::Encounter, line: &str| {
        if let Ok(srtrack::lang::Line::Command(c)) =
            srtrack::lang::parse(line, enc.state(), enc.catalogue())
        {
            let _ = srtrack::lang::execute(enc, c, &mut dice);
        }
    };
    for line in [
        "add Ann pc int 4 rea 5 edge 2 body 4 will 3",
        "add Gang x6 npc int 3 rea 3",
        "roll all",
        "start",
    ] {
        run_line(&mut enc, line);
    }
    let text = loop {
        for line in [
            "act Ann free",
            "next",
            "damage Ann 1 stun",
            "heal Ann 1 stun",
            "next",
        ] {
            run_line(&mut enc, line);
        }
        let text = srtrack::save::SaveFile::of(&enc, "big", "2026-01-01T00:00:00Z").to_ron();
        if text.len() > 1000 * 1024 {
            break text;
        }
    };
    assert!(text.len() < 1024 * 1024);
    let started = Instant::now();
    file::parse(text.as_bytes(), "f.ron")
        .and_then(|s| s.into_encounter("f.ron", Arc::clone(&catalogue)))
        .expect("a real fight loads");
    assert!(started.elapsed() <= MAX_TIME, "{:?}", started.elapsed());
    let long = DEMO.replacen(
        "name: \"demo\"",
        &format!("name: \"{}\"", "x".repeat(1_000_000)),
        1,
    );
    load(long.as_bytes(), &catalogue).unwrap();
}
