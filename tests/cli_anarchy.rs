//! `srtrack exec` at an Anarchy table: one line per test with its words, the odds before the
//! roll, and a refused line (exit 1) that leaves the save as it was.

#[path = "common/cli.rs"]
mod cli;
use cli::{refused_unchanged, srtrack, text};

const TABLE: &str = "add Ana pc edge 2 body 4 will 4\n\
                     add Bo pc edge 1 body 3 will 3\n\
                     add Guard npc body 4 will 3\n\
                     narrate\n";

#[test]
fn exec_prints_one_line_per_anarchy_test_with_hits_verdict_glitch_and_exploit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let script = format!(
        "{TABLE}pp Ana spend live dangerously\n\
         atest Ana 3+2 vs 2 glitchdie dice 5 6 1 1 2 1 vs 1 1\n\
         pp Ana award good narration\n\
         gm spend glitch die on Bo\n\
         atest Bo 2+2 vs 3 glitchdie dice 1 1 1 2 5 vs 5 5 6\n\
         atest Guard 3+3 vs 2 dice 1 2 3 4 1 2 vs 5 5\n"
    );
    let out = srtrack(
        d,
        &["exec", "--system", "anarchy", "--seed", "3", "heist"],
        &script,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // Three tests, nothing for the spends, awards and narrations around them.
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(
        lines[0],
        "Ana tests 3+2 vs 2, typed in: [5 6 1 1 2] + glitch 1 → 2 hits vs [1 1] → 0 hits: success; glitch die 1: glitch",
        "{stdout}"
    );
    // An exploit even on a failure.
    assert!(
        lines[1].starts_with("Bo tests 2+2 vs 3, typed in: [1 1 1 2] + glitch 5 → ")
            && lines[1].contains("hits: failure")
            && lines[1].ends_with("; glitch die 5: exploit"),
        "{stdout}"
    );
    assert!(
        lines[2].ends_with("→ 0 hits vs [5 5] → 2 hits: failure (no hit)"),
        "{stdout}"
    );
}

#[test]
fn aodds_prints_the_exact_odds_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "--system", "anarchy", "heist"], TABLE);
    let save = d.join("saves/heist.ron");
    let before = std::fs::read(&save).unwrap();
    let out = srtrack(
        d,
        &["exec", "heist"],
        "aodds 1 vs 0\naodds 2+2 vs 3 edge before glitchdie\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    // One die against none: a 5 or a 6 succeeds, anything else is no hit.
    assert!(
        lines[0].ends_with(
            "1 die (hits on 5+) vs 0 dice: success 33.3 %, failure 66.7 % (no hit 66.7 %)"
        ),
        "{stdout}"
    );
    assert!(lines[1].contains("glitch die: glitch"), "{stdout}");
    assert!(lines[1].contains("hits on 4+"), "{stdout}");
    // Every die rolled is counted: 2+2, one for Edge before, and the glitch die, whose hits count
    assert!(
        lines[1].contains(": 6 dice with the glitch die (hits on 4+)"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read(&save).unwrap(),
        before,
        "a query writes nothing"
    );
}

#[test]
fn a_refused_anarchy_line_exits_1_with_one_sentence_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(
        d,
        &["exec", "--system", "anarchy", "heist"],
        &format!(
            "{TABLE}pp Ana spend surprise threat\npp Ana award\npp Ana award\npp Ana award\n\
             gm spend surprise threat on Ana\ngm spend surprise threat on Ana\n"
        ),
    );
    for (line, says) in [
        (
            "pp Ana award\n",
            "Ana already has 5 Plot Points, the most a player may hold",
        ),
        (
            "pp Guard spend surprise threat\n",
            "Plot Points are the players': Guard is an NPC",
        ),
        (
            "gm spend other on Ana: a third twist\n",
            "the GM has spent 2 Plot Points",
        ),
        (
            "atest Ana 3+2 vs 2 glitchdie\n",
            "no glitch die was bought for Ana's test",
        ),
        (
            "cooldown Ana \u{202e}drone\n",
            "the thing on Cooldown holds a control character",
        ),
        (
            "odds2097 tn 20 bonus 3\n",
            "`odds2097` is a command of Shadowrun 2097; this encounter runs Shadowrun: Anarchy",
        ),
        (
            "why Ana Bo\n",
            "`why` is a command of SR5 and Shadowrun 2097; this encounter runs Shadowrun: Anarchy",
        ),
    ] {
        refused_unchanged(d, "heist", line, says);
    }
}

#[test]
fn a_name_after_on_in_a_spend_that_fits_no_one_or_several_is_refused_not_kept_as_words() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(
        d,
        &["exec", "--system", "anarchy", "heist"],
        &format!("{TABLE}add Goon x2 npc body 3 will 3\n"),
    );
    for (line, says) in [
        ("pp Ana spend frag it on Gaurd radio\n", "\"Gaurd\""),
        ("pp Bo spend live dangerously on Ana2\n", "\"Ana2\""),
        ("pp Ana spend surprise threat on Bp: drone\n", "\"Bp\""),
        ("gm spend twist on Bp: drone\n", "\"Bp\""),
        ("pp Ana spend frag it on Goon radio\n", "fits 2 of them"),
        ("pp Ana spend live dangerously on\n", "name"),
        (
            "pp Ana spend live dangerously on Ana on Bo\n",
            "`on NAME` once only",
        ),
    ] {
        refused_unchanged(d, "heist", line, says);
    }
    // Words with "on" in them still go after the colon.
    let out = srtrack(
        d,
        &["exec", "heist"],
        "pp Ana spend surprise threat on Bo: the lights go on\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_sheet_keyword_given_twice_is_refused_not_read_as_its_last() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "--system", "anarchy", "heist"], TABLE);
    for (line, says) in [
        ("sheet Ana armor 3 armor 4\n", "`armor` once only"),
        ("sheet Ana armor 3 armour 4\n", "`armour` once only"),
        ("sheet Ana matrix 2 amp on matrix 3\n", "`matrix` once only"),
        ("sheet Ana amp on amp off\n", "`amp` once only"),
    ] {
        refused_unchanged(d, "heist", line, says);
    }
}

#[test]
fn an_add_or_edit_keyword_given_twice_is_refused_not_read_as_its_last() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "--system", "anarchy", "heist"], TABLE);
    for (line, says) in [
        (
            "add X pc edge 2 edge 3",
            "word 6 \"edge\": expected `edge` once only",
        ),
        (
            "add X pc npc",
            "word 4 \"npc\": expected `pc` or `npc` once only",
        ),
        (
            "add X body 2 will 3 body 4",
            "word 7 \"body\": expected `body` once only",
        ),
        (
            "add X hidden hidden",
            "word 4 \"hidden\": expected `hidden` once only",
        ),
        (
            "edit Ana edge 2 edge 1",
            "word 5 \"edge\": expected `edge` once only",
        ),
        (
            "edit Ana will 2 will 3",
            "word 5 \"will\": expected `will` once only",
        ),
    ] {
        refused_unchanged(d, "heist", line, &format!("srtrack: stdin:1: {says}\n"));
    }
}

#[test]
fn show_numbers_the_seats_as_they_now_sit_after_a_remove() {
    // Given three players seated, the second removed
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = srtrack(
        d,
        &["exec", "--system", "anarchy", "heist"],
        "add Ana pc\nadd Bo pc\nadd Cy pc\nnarrate\nremove Bo\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // When the table is shown
    let shown = text(&srtrack(d, &["show", "heist"], "").stdout);
    // Then Ana sits 1 and Cy 2, no gap where Bo sat
    let seat = |name: &str| {
        shown
            .lines()
            .find(|l| l.contains(name) && l.contains("Plot Points"))
            .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
    };
    assert_eq!(
        (seat("Ana"), seat("Cy")),
        (Some("1".into()), Some("2".into())),
        "{shown}"
    );
}

#[test]
fn aodds_refuses_teamwork_for_an_untrained_leader_and_a_second_modifier() {
    // Given an Anarchy table
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    srtrack(d, &["exec", "--system", "anarchy", "heist"], TABLE);
    // When the odds take teamwork an untrained leader cannot, or two modifiers, Then one sentence
    for (line, says) in [
        (
            "aodds untrained 3 vs 4 team 2\n",
            "an untrained leader takes no teamwork dice",
        ),
        (
            "aodds 3+2+1+1 vs 2\n",
            "the pool 3+2+1+1 has 2 modifiers, and a pool takes one (SKILL+ATTRIBUTE+MOD)",
        ),
    ] {
        let out = srtrack(d, &["exec", "heist"], line);
        assert_eq!(out.status.code(), Some(1), "{line}");
        let err = text(&out.stderr);
        assert!(err.contains(says), "{line}: {err}");
    }
}

/// `show`, `export` and `check` of the Anarchy table `script` plays.
fn ended_pages(script: &str) -> [String; 3] {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = srtrack(
        d,
        &["exec", "--system", "anarchy", "--seed", "1", "heist"],
        script,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    ["show", "export", "check"].map(|verb| text(&srtrack(d, &[verb, "heist"], "").stdout))
}

#[test]
fn show_and_export_of_an_ended_table_give_the_plot_points_each_player_held_at_the_end() {
    // Given Ana who spent two Plot Points and Bo who was awarded one, then the end
    // When the GM shows and exports it
    let [shown, recap, _] = ended_pages(
        "add Ana pc\nadd Bo pc\nnarrate\npp Ana spend threat\npp Ana spend threat\n\
         pp Bo award good\nend\n",
    );
    // Then both give Ana 1 and Bo 4, not the 3 every player starts with
    let line = |page: &str, name: &str| {
        page.lines()
            .find(|l| l.contains(name) && l.contains("Plot Points"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    assert!(
        line(&shown, "Ana").contains("Plot Points 1 of 5"),
        "{shown}"
    );
    assert!(line(&shown, "Bo").contains("Plot Points 4 of 5"), "{shown}");
    assert!(
        recap.contains("- **Ana** (PC, Plot Points 1 of 5)")
            && recap.contains("- **Bo** (PC, Plot Points 4 of 5)"),
        "{recap}"
    );
}

#[test]
fn an_ended_table_is_told_in_turns_in_show_export_and_check() {
    // Given a Cooldown at an Anarchy table, then the end
    // When the GM shows, exports and checks it
    let [shown, recap, checked] =
        ended_pages("add Ana pc body 2\nsheet Ana armor 3\nnarrate\ncooldown Ana gun\nend\n");
    // Then each says turn, Anarchy's word, never round
    assert!(
        shown.contains("Cooldown: gun (until the end of the turn)"),
        "{shown}"
    );
    assert!(recap.contains("- The fight is ended in turn 1."), "{recap}");
    assert!(checked.contains("ended in turn 1"), "{checked}");
    for page in [&shown, &recap, &checked] {
        assert!(!page.contains("round"), "{page}");
    }
}

#[test]
fn export_gives_each_characters_armor_and_matrix_tracks_as_the_screen_does() {
    // Given Ana with 2 Armor boxes of 3 marked and a Matrix track, at the end
    // When the GM exports it
    let [_, recap, _] = ended_pages(
        "add Ana pc body 2\nsheet Ana armor 3 matrix 4\nnarrate\ndamage Ana 2 armor\nend\n",
    );
    // Then the cast gives what is left of every track Ana has
    assert!(
        recap.contains("- **Ana** (PC, Plot Points 3 of 5, Physical 0/9, Armor 2/3, Matrix 0/4)"),
        "{recap}"
    );
}
