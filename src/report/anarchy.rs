//! Shadowrun: Anarchy in plain text: the log line of each event, a test's result line, the
//! odds before a test, and the table on the `show` page.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::recap::{Recap, Told, counts, in_turn_of, list};
use crate::text::markdown as md;

use crate::encounter::system::anarchy::{
    Amp, AnarchyEvent, AwardReason, Narration, Slot, Stage, TestInput,
};
use crate::encounter::{Combatant, CombatantId, Encounter, Sheet, Side, State};
use crate::rules::anarchy::AnarchyRules;
use crate::rules::anarchy::glitch::Fate;
use crate::rules::anarchy::narration::{Movements, TurnOrder};
use crate::rules::anarchy::test::{self, Edge, Outcome, Pool, Roll, Source, Spec, Verdict};

fn points(n: impl Into<u32>) -> String {
    match n.into() {
        1 => "1 Plot Point".into(),
        n => format!("{n} Plot Points"),
    }
}

fn hits(n: u8) -> String {
    if n == 1 {
        "1 hit".into()
    } else {
        format!("{n} hits")
    }
}

fn faces(d: &[u8]) -> String {
    let f: Vec<String> = d.iter().map(u8::to_string).collect();
    format!("[{}]", f.join(" "))
}

/// How a turn's order was made, in words.
pub fn order_how(how: TurnOrder<CombatantId>, state: &State) -> String {
    match how {
        TurnOrder::Seating => "as seated".into(),
        TurnOrder::Reversed => "reversed".into(),
        TurnOrder::From { seat, die } => format!("from {} (die {die})", state.name(seat)),
    }
}

fn names(ids: &[CombatantId], state: &State) -> String {
    let n: Vec<&str> = ids.iter().map(|id| state.name(*id)).collect();
    n.join(", ")
}

fn pool_text(p: Pool) -> String {
    let signed = |m: i8| match m {
        0 => String::new(),
        m if m > 0 => format!("+{m}"),
        m => m.to_string(),
    };
    match p {
        Pool::Dice(n) => n.to_string(),
        Pool::Skill {
            skill,
            attribute,
            modifier,
        } => format!("{skill}+{attribute}{}", signed(modifier)),
        Pool::Untrained {
            attribute,
            modifier,
        } => format!("untrained {attribute}{}", signed(modifier)),
        Pool::Attributes {
            first,
            second,
            modifier,
        } => format!("attribute-only {first}+{second}{}", signed(modifier)),
    }
}

/// A test's one line: the pools, every die, the hits, success or failure, the glitch die (and
/// Edge after the roll declared but kept, no die having missed).
pub fn test_line(who: &str, spec: &Spec, roll: &Roll, outcome: &Outcome, edge_spent: u8) -> String {
    let mut line = format!(
        "{who} tests {} vs {}",
        pool_text(spec.pool),
        pool_text(spec.opposing)
    );
    if spec.teamwork > 0 {
        let _ = write!(line, ", teamwork +{}", spec.teamwork_dice().unwrap_or(0));
    }
    match spec.edge {
        Edge::None => {}
        Edge::Before => line.push_str(", Edge before (4s hit)"),
        Edge::After => line.push_str(", Edge after"),
    }
    tail_of_test(&mut line, roll, *outcome, " re-rolled → ");
    if spec.edge == Edge::After && edge_spent == 0 {
        line.push_str("; every die hit: none rolled again, Edge kept");
    }
    line
}

/// The log line of Edge spent on seeing a test's roll: its misses rolled again.
pub fn reroll_line(who: &str, spec: &Spec, roll: &Roll, outcome: &Outcome) -> String {
    let mut line = format!(
        "{who} spends Edge after the roll of {} vs {}: the misses rolled again",
        pool_text(spec.pool),
        pool_text(spec.opposing)
    );
    tail_of_test(&mut line, roll, *outcome, " → ");
    line
}

/// A test line from its dice on: whether they were typed in, the dice before a re-roll (then
/// `rolled_again`), the dice, the hits on each side, the verdict, the glitch die.
fn tail_of_test(line: &mut String, roll: &Roll, outcome: Outcome, rolled_again: &str) {
    if roll.source != Source::Rolled {
        line.push_str(", typed in");
    }
    line.push_str(": ");
    if let Some(first) = &roll.first {
        let _ = write!(line, "{}{rolled_again}", faces(first));
    }
    // The glitch die is one more die of the pool: shown beside it, its hit in the count.
    let glitch = roll
        .glitch_die
        .map_or_else(String::new, |f| format!(" + glitch {f}"));
    let _ = write!(
        line,
        "{}{glitch} → {} vs {} → {}: {}",
        faces(&roll.dice),
        hits(outcome.hits),
        faces(&roll.opposing),
        hits(outcome.opposing_hits),
        match outcome.verdict {
            Verdict::Success => "success",
            Verdict::Failure if outcome.hits == 0 => "failure (no hit)",
            Verdict::Failure => "failure",
        }
    );
    if let (Some(face), Some(fate)) = (roll.glitch_die, outcome.fate) {
        let said = match fate {
            Fate::Glitch => "glitch",
            Fate::Exploit => "exploit",
            Fate::Quiet => "no glitch, no exploit",
        };
        let _ = write!(line, "; glitch die {face}: {said}");
    }
}

/// What of a joining character's sheet Anarchy plays with: Edge, and the Body and Willpower
/// that size its Physical and Stun tracks (no initiative: it narrates at its seat).
pub fn sheet_joins_text(sheet: &Sheet) -> String {
    let mut out = format!("Edge {}", sheet.edge);
    super::push_monitor_attributes(&mut out, sheet);
    out
}

/// The log line of an Anarchy event, given the state just before it; `None` for bookkeeping.
pub fn log_line(before: &State, event: &AnarchyEvent) -> Option<String> {
    let n = |id: CombatantId| before.name(id).to_string();
    let table = before.narration();
    let gm = table.map_or(0, |t| t.gm_points);
    let held = |id| {
        table
            .and_then(|t| t.player(id))
            .map_or(0, |p| p.plot_points)
    };
    Some(match event {
        AnarchyEvent::SessionBegan { gm_points } => {
            format!("The Anarchy table opens: the GM's pool starts at {gm_points}")
        }
        AnarchyEvent::Seated { who, plot_points } => {
            format!("{} takes a seat with {}", n(*who), points(*plot_points))
        }
        AnarchyEvent::SeatingSet { seating } => {
            format!("Seating (from the next turn): {}", names(seating, before))
        }
        AnarchyEvent::SheetSet {
            who,
            armor,
            matrix,
            amp,
        } => {
            let amp = match amp {
                Amp::BonusPlotPoint => ", Shadow Amp: a Plot Point at the start of combat",
                Amp::None => "",
            };
            format!("{}'s sheet: Armor {armor}, Matrix {matrix}{amp}", n(*who))
        }
        AnarchyEvent::JoinedTurn { who } => {
            format!("{} narrates in this turn too, at its end", n(*who))
        }
        AnarchyEvent::TurnBegan { turn, order, how } => format!(
            "── Turn {turn} ── order {}: {}",
            order_how(*how, before),
            names(order, before)
        ),
        AnarchyEvent::NarrationStarted { who, slot } => match slot {
            Slot::Seat => format!("{} narrates", n(*who)),
            Slot::OutOfTurn => format!("{} narrates now, out of turn", n(*who)),
            Slot::NextAnyway => format!(
                "{} narrates: the next seat anyway, no Shake It Up and no Plot Point",
                n(*who)
            ),
            Slot::Flashback => format!("{} narrates the Flashback now", n(*who)),
        },
        AnarchyEvent::NarrationSkipped { who } => {
            format!("{} is Downed: narration skipped", n(*who))
        }
        // Told by the lines around them: the next narration's, the test's or the spend's own.
        AnarchyEvent::NarrationEnded { .. } | AnarchyEvent::Revenged { .. } => return None,
        AnarchyEvent::TurnEnded { turn } => format!("── Turn {turn} ends ──"),
        AnarchyEvent::OrderChosen { how, points: p } => format!(
            "The GM spends {} for the next turn's order: {} (GM {} left)",
            points(*p),
            order_how(*how, before),
            gm.saturating_sub(u32::from(*p))
        ),
        AnarchyEvent::Awarded {
            who,
            points: 0,
            reason: AwardReason::ShadowAmp,
        } => format!(
            "{}'s Shadow Amp gives no Plot Point: {} holds {} already, the most a player may",
            n(*who),
            n(*who),
            held(*who)
        ),
        AnarchyEvent::Awarded {
            who,
            points: p,
            reason,
        } => {
            let why = why_awarded(reason, str::to_string);
            format!(
                "{} gains {}{why}: now {}",
                n(*who),
                points(*p),
                held(*who).saturating_add(*p)
            )
        }
        AnarchyEvent::Spent {
            who,
            what,
            points: p,
            on,
            note,
            gm_gained,
        } => {
            let on = on
                .filter(|o| o != who)
                .map(|o| format!(" on {}", n(o)))
                .unwrap_or_default();
            let note = note.as_ref().map(|t| format!(": {t}")).unwrap_or_default();
            format!(
                "{} spends {}: {what}{on}{note} ({} left; GM +{gm_gained}, now {})",
                n(*who),
                points(*p),
                held(*who).saturating_sub(*p),
                gm.saturating_add(*gm_gained)
            )
        }
        AnarchyEvent::GmSpent {
            what,
            points: p,
            on,
            note,
        } => {
            let on = on.map(|o| format!(" on {}", n(o))).unwrap_or_default();
            let note = note.as_ref().map(|t| format!(": {t}")).unwrap_or_default();
            format!(
                "The GM spends {}: {what}{on}{note} (GM {} left)",
                points(*p),
                gm.saturating_sub(u32::from(*p))
            )
        }
        AnarchyEvent::EdgeGiven { who, edge } => match before.get(*who) {
            Some(c) => format!(
                "{} regains {edge} Edge ({} of {})",
                c.name,
                c.edge_left.saturating_add(*edge).min(c.sheet.edge),
                c.sheet.edge
            ),
            None => format!("{} regains {edge} Edge", n(*who)),
        },
        AnarchyEvent::EdgeRegained { who, edge } => match before.get(*who) {
            Some(c) if *edge > 0 => format!(
                "Interesting Times: {} regains {edge} Edge ({} of {})",
                c.name,
                c.edge_left.saturating_add(*edge),
                c.sheet.edge
            ),
            _ => format!("Interesting Times: {}'s Edge is already full", n(*who)),
        },
        AnarchyEvent::GlitchDieReady { who } => {
            format!("A glitch die waits for {}'s next test", n(*who))
        }
        AnarchyEvent::FlashbackNarrated { who } => {
            format!("{}'s narration is the Flashback", n(*who))
        }
        AnarchyEvent::DoubleTime { who } => {
            format!(
                "{} takes Double-Time It's Movements in this narration",
                n(*who)
            )
        }
        AnarchyEvent::Tested {
            who,
            spec,
            roll,
            outcome,
            rerolled: true,
            ..
        } => reroll_line(&n(*who), spec, roll, outcome),
        AnarchyEvent::Tested {
            who,
            spec,
            roll,
            outcome,
            edge_spent,
            ..
        } => test_line(&n(*who), spec, roll, outcome, *edge_spent),
        AnarchyEvent::GearDamaged { who, track, boxes } => {
            let size = table.and_then(|t| t.gear_of(*who)).map(|g| g.track(*track));
            let now = size.map_or(String::new(), |b| {
                format!(
                    " ({}/{})",
                    b.damage.saturating_add(*boxes).min(b.size),
                    b.size
                )
            });
            format!("{} takes {boxes} {} damage{now}", n(*who), track.label())
        }
        AnarchyEvent::GearRepaired { who, track, boxes } => {
            let size = table.and_then(|t| t.gear_of(*who)).map(|g| g.track(*track));
            let now = size.map_or(String::new(), |b| {
                format!(" ({}/{})", b.damage.saturating_sub(*boxes), b.size)
            });
            format!(
                "{} recovers {boxes} {} box{}{now}",
                n(*who),
                track.label(),
                if *boxes == 1 { "" } else { "es" }
            )
        }
    })
}

/// Whether an Anarchy event is a test's result.
pub fn is_test_result(event: &AnarchyEvent) -> bool {
    matches!(event, AnarchyEvent::Tested { .. })
}

fn dice(n: u8) -> String {
    if n == 1 {
        "1 die".into()
    } else {
        format!("{n} dice")
    }
}

fn percent(p: f64) -> String {
    format!("{:.1} %", p * 100.0)
}

/// The exact odds of a test, as `aodds` prints them; the reason when its numbers are refused.
pub fn odds_line(input: &TestInput, rules: &AnarchyRules) -> Result<String, String> {
    let spec = input.spec(rules).map_err(|e| e.to_string())?;
    let o = test::odds(&spec, &rules.test, &rules.glitch_die);
    let hit_at = match spec.edge {
        Edge::Before => rules.test.edge_before_hit_at_least,
        Edge::None | Edge::After => rules.test.hit_at_least,
    };
    // Every die rolled, the glitch die too (its hits count, as in the test's line).
    let rolled = match (spec.glitch_die, rules.glitch_die.counts_for_hits) {
        (true, true) => format!("{} with the glitch die", dice(o.dice.saturating_add(1))),
        (true, false) => format!("{} + the glitch die (no hits)", dice(o.dice)),
        (false, _) => dice(o.dice),
    };
    let mut line = format!(
        "aodds {}: {rolled} (hits on {hit_at}+{}) vs {}: success {}, failure {} (no hit {})",
        crate::lang::test_words(input),
        if spec.edge == Edge::After {
            ", misses re-rolled"
        } else {
            ""
        },
        dice(o.opposing_dice),
        percent(o.success),
        percent(1.0 - o.success),
        percent(o.zero_hits)
    );
    if let Some((glitch, exploit)) = o.glitch {
        let _ = write!(
            line,
            "; glitch die: glitch {}, exploit {}",
            percent(glitch),
            percent(exploit)
        );
    }
    Ok(line)
}

/// Where the narration stands, for the top of the `show` page.
pub fn show_where(n: &Narration, state: &State, rules: &AnarchyRules) -> String {
    let mut out = match &n.stage {
        Stage::Between { next } if n.turn == 0 => format!(
            "Before the first turn: `narrate` begins it (order {})",
            order_how(*next, state)
        ),
        Stage::Between { next } => format!(
            "Turn {} is over: `narrate` begins turn {} (order {})",
            n.turn,
            n.turn + 1,
            order_how(*next, state)
        ),
        Stage::Turn(t) => {
            let now = match &t.narrator {
                Some(x) => format!(
                    "{} narrates ({} Movement{})",
                    state.name(x.who),
                    x.movements.count(&rules.movements),
                    if x.movements == Movements::Usual && rules.movements.per_narration == 1 {
                        ""
                    } else {
                        "s"
                    }
                ),
                None => "nobody narrates".into(),
            };
            // Those who left the encounter are no longer in the order (a name given again
            // is another character, seated anew).
            let present = present_of(&t.order, state);
            format!(
                "Turn {}: {now}; order {}: {}",
                n.turn,
                order_how(t.how, state),
                names(&present, state)
            )
        }
    };
    out.push('\n');
    out
}

/// The GM's pool and this turn's spends against the turn's limit: `GM pool 7 · spent 1/3`.
pub fn gm_pool_text(n: &Narration, state: &State, rules: &AnarchyRules) -> String {
    format!(
        "GM pool {} · spent {}/{} this turn",
        n.gm_points,
        n.gm_spent(None),
        gm_turn_limit(n, state, rules)
    )
}

fn players_at(n: &Narration, state: &State) -> Vec<CombatantId> {
    n.players
        .iter()
        .map(|p| p.who)
        .filter(|id| {
            state
                .get(*id)
                .is_some_and(|c| c.is_present() && c.side == Side::Pc)
        })
        .collect()
}

fn gm_turn_limit(n: &Narration, state: &State, rules: &AnarchyRules) -> u32 {
    u32::try_from(players_at(n, state).len()).unwrap_or(u32::MAX)
        * u32::from(rules.plot_points.gm_turn_points_per_player)
}

/// This turn's GM spends on each player, against the limit on one: `Nix 0/2 · Vex 1/2`.
pub fn gm_players_text(n: &Narration, state: &State, rules: &AnarchyRules) -> String {
    gm_players(n, state, rules, str::to_string).join(" · ")
}

/// Each player's `Name spent/limit` of the GM's points this turn, the name as `name` gives it
/// (a narrow pane cuts it, so the numbers show).
pub fn gm_players(
    n: &Narration,
    state: &State,
    rules: &AnarchyRules,
    name: impl Fn(&str) -> String,
) -> Vec<String> {
    players_at(n, state)
        .iter()
        .map(|id| {
            format!(
                "{} {}/{}",
                name(state.name(*id)),
                n.gm_spent(Some(*id)),
                rules.plot_points.gm_on_one_player_per_turn
            )
        })
        .collect()
}

/// The GM's pool and this turn's spends, in all and per player.
pub fn gm_text(n: &Narration, state: &State, rules: &AnarchyRules) -> String {
    let per = gm_players_text(n, state, rules);
    if per.is_empty() {
        gm_pool_text(n, state, rules)
    } else {
        format!("{} (on players: {per})", gm_pool_text(n, state, rules))
    }
}

/// Those of `ids` still in the encounter, in their order.
fn present_of(ids: &[CombatantId], state: &State) -> Vec<CombatantId> {
    ids.iter()
        .copied()
        .filter(|id| state.get(*id).is_some_and(Combatant::is_present))
        .collect()
}

/// Where the narration stands, the GM's pool, and one line per character at the table.
pub fn show_table(enc: &Encounter, n: &Narration) -> String {
    let state = enc.state();
    let rules = &enc.rules().anarchy;
    let mut out = show_where(n, state, rules);
    let _ = writeln!(out, "{}", gm_text(n, state, rules));
    out.push_str(&table_rows(enc, n, true));
    out
}

/// One line per character at the table: seat, Plot Points, Edge, tracks, a waiting glitch die.
/// `under_way`: the turn's marks too (▶ the narrator, ✓ who has narrated); a table the end left
/// has no turn to mark.
pub fn table_rows(enc: &Encounter, n: &Narration, under_way: bool) -> String {
    let state = enc.state();
    let mut out = String::from("\nTable:\n");
    let current = n.narrator().map(|x| x.who).filter(|_| under_way);
    let mut ids: Vec<CombatantId> = n.seating.clone();
    ids.extend(
        state
            .present()
            .map(|c| c.id)
            .filter(|id| !n.seating.contains(id)),
    );
    let width = super::name_column(state.present().map(|c| c.name.as_str()));
    // Seats are numbered as they now sit: one removed leaves no gap.
    let seated = present_of(&n.seating, state);
    for id in ids {
        let Some(c) = state.get(id).filter(|c| c.is_present()) else {
            continue;
        };
        let seat = seated
            .iter()
            .position(|s| *s == id)
            .map_or("  ".to_string(), |i| format!("{:>2}", i + 1));
        let mark = if current == Some(id) {
            "▶"
        } else if under_way && n.has_narrated(id) {
            "✓"
        } else {
            " "
        };
        let bits = character_bits(enc, Some(n), c);
        let _ = writeln!(
            out,
            "{seat} {mark} {} {}",
            crate::text::pad(&c.name, width),
            bits.join(", ")
        );
    }
    out
}

/// A character at the Anarchy table in short: side, Plot Points, Edge, tracks, gear, a waiting
/// glitch die, Downed (for `show` and the GM's status pane).
pub fn character_bits(enc: &Encounter, n: Option<&Narration>, c: &Combatant) -> Vec<String> {
    let rules = &enc.rules().anarchy;
    let mut bits = vec![c.side.label().to_string()];
    // A player character made an NPC keeps its seat's points, but holds none as an NPC. Before
    // the table opens, a player holds what every player starts with.
    let points = match n {
        Some(n) => n.player(c.id).map(|p| p.plot_points),
        None => Some(rules.plot_points.player_start),
    };
    if let Some(points) = points.filter(|_| c.side == Side::Pc) {
        bits.push(points_text(points, rules));
    }
    bits.push(format!("Edge {}/{}", c.edge_left, c.sheet.edge));
    // No wound modifier: the Anarchy text has none, and its tests take none off.
    let m = super::boxes_text(c, enc.rules());
    if !m.is_empty() {
        bits.push(m);
    }
    if let Some(g) = n.and_then(|n| n.gear_of(c.id)) {
        bits.extend(tracks_text(g));
        if g.amp == Amp::BonusPlotPoint {
            bits.push("Shadow Amp".into());
        }
    }
    if n.is_some_and(|n| n.has_glitch_die(c.id)) {
        bits.push("glitch die waiting".into());
    }
    if c.is_downed() {
        bits.push("DOWNED".into());
    }
    bits
}

/// The Armor and Matrix tracks the character has: `Armor 2/3`, `Matrix 0/4`.
fn tracks_text(g: &crate::encounter::system::anarchy::Gear) -> Vec<String> {
    [("Armor", g.armor), ("Matrix", g.matrix)]
        .into_iter()
        .filter(|(_, b)| b.size > 0)
        .map(|(label, b)| format!("{label} {}/{}", b.damage, b.size))
        .collect()
}

/// The Armor and Matrix tracks a character has at the table (at the end, once it has ended),
/// for the recap's cast, as the screen shows them.
pub(super) fn cast_tracks(n: &Narration, c: &Combatant) -> Vec<String> {
    n.gear_of(c.id).map(tracks_text).unwrap_or_default()
}

/// `Plot Points 2 of 5`.
fn points_text(points: u8, rules: &AnarchyRules) -> String {
    format!("Plot Points {points} of {}", rules.plot_points.player_cap)
}

// ----- the recap ----------------------------------------------------------------------------

/// The Plot Points a player character holds at the table (at the end, once it has ended), for
/// the recap's cast. None for an NPC.
pub(super) fn cast_points(n: &Narration, c: &Combatant, rules: &AnarchyRules) -> Option<String> {
    n.player(c.id)
        .filter(|_| c.side == Side::Pc)
        .map(|p| points_text(p.plot_points, rules))
}

/// What the recap counts at an Anarchy table.
#[derive(Default)]
pub(super) struct Tally {
    /// Plot Points spent, by player.
    spent: BTreeMap<CombatantId, u32>,
    /// Plot Points awarded, by player.
    awarded: BTreeMap<CombatantId, u32>,
    gm_spent: u32,
    /// Narrations taken, by character.
    narrations: BTreeMap<CombatantId, u32>,
}

/// A test as the recap tells it: the pools, the hits on each side, the verdict, the glitch die.
fn recap_test(spec: &Spec, roll: &Roll, outcome: Outcome, edge_spent: u8) -> String {
    let mut line = format!(
        "tests {} vs {}",
        pool_text(spec.pool),
        pool_text(spec.opposing)
    );
    if spec.teamwork > 0 {
        let _ = write!(
            line,
            " with teamwork +{}",
            spec.teamwork_dice().unwrap_or(0)
        );
    }
    match spec.edge {
        Edge::None => {}
        Edge::Before => line.push_str(", Edge before the roll"),
        // Declared, but every die hit: nothing was rolled again, and the Edge was kept.
        Edge::After if edge_spent == 0 => {}
        Edge::After => line.push_str(", Edge to re-roll"),
    }
    if roll.source != Source::Rolled {
        line.push_str(", typed in");
    }
    let _ = write!(
        line,
        ": {} vs {}, {}",
        hits(outcome.hits),
        outcome.opposing_hits,
        verdict_word(outcome.verdict)
    );
    match outcome.fate {
        Some(Fate::Glitch) => line.push_str(", glitch die: glitch"),
        Some(Fate::Exploit) => line.push_str(", glitch die: exploit"),
        Some(Fate::Quiet) | None => {}
    }
    line
}

/// A verdict in the recap's words.
fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Success => "success",
        Verdict::Failure => "failure",
    }
}

/// The recap's words for Edge spent on seeing a roll.
fn recap_reroll(outcome: Outcome) -> String {
    format!(
        "spends Edge to roll the misses again: {} vs {}, {}",
        hits(outcome.hits),
        outcome.opposing_hits,
        verdict_word(outcome.verdict)
    )
}

/// A Plot Point spend's words: "Live Dangerously on Vex (the hallway lights die)".
fn spend_text(state: &State, what: &str, on: Option<CombatantId>, note: Option<&str>) -> String {
    let mut text = md(what);
    if let Some(on) = on {
        let _ = write!(text, " on {}", md(state.name(on)));
    }
    if let Some(note) = note {
        let _ = write!(text, " ({})", md(note));
    }
    text
}

/// What the recap says of an Anarchy event: a section per narration turn, each narration with
/// what its narrator did, the tests, Plot Points given and spent (the GM's too), Edge, and damage
/// to gear; the table's bookkeeping is left out.
pub(super) fn recap_told(before: &State, e: &AnarchyEvent, rec: &mut Recap) -> Option<Told> {
    let name = |id: CombatantId| md(before.name(id));
    Some(match e {
        AnarchyEvent::TurnBegan { turn, order, how } => {
            rec.tell(
                Told::Section {
                    heading: format!("Turn {turn}"),
                    part: None,
                },
                before,
            );
            let order = rec.seen(order, name).unwrap_or_default();
            Told::Line(format!(
                "- Order ({}): {}",
                md(&order_how(*how, before)),
                order.join(", ")
            ))
        }
        AnarchyEvent::NarrationStarted { who, slot } => {
            *rec.anarchy.narrations.entry(*who).or_default() += 1;
            rec.tell(Told::Turn, before);
            Told::Deed {
                by: *who,
                what: match slot {
                    Slot::Seat | Slot::NextAnyway => "narrates".into(),
                    Slot::OutOfTurn => "narrates out of turn".into(),
                    Slot::Flashback => "narrates the Flashback".into(),
                },
            }
        }
        AnarchyEvent::NarrationSkipped { who } => Told::Deed {
            by: *who,
            what: "is Downed: no narration".into(),
        },
        AnarchyEvent::Seated { who, .. } if before.narration().is_some_and(|n| n.turn > 0) => {
            Told::Deed {
                by: *who,
                what: "takes a seat at the table".into(),
            }
        }
        AnarchyEvent::SeatingSet { seating } => {
            let seating = rec.seen(seating, name)?;
            Told::Line(format!("- Seating: {}", seating.join(", ")))
        }
        AnarchyEvent::OrderChosen { how, points: p } => {
            rec.anarchy.gm_spent += u32::from(*p);
            Told::Line(format!(
                "- The GM spends {} on the next turn's order: {}",
                points(*p),
                md(&order_how(*how, before))
            ))
        }
        // A Shadow Amp's point lost at the cap: nothing to tell in the recap.
        AnarchyEvent::Awarded { points: 0, .. } => return None,
        AnarchyEvent::Awarded {
            who,
            points: p,
            reason,
        } => {
            *rec.anarchy.awarded.entry(*who).or_default() += u32::from(*p);
            let why = why_awarded(reason, md);
            Told::Deed {
                by: *who,
                what: format!("gains {}{why}", points(*p)),
            }
        }
        AnarchyEvent::Spent {
            who,
            what,
            points: p,
            on,
            note,
            ..
        } => {
            *rec.anarchy.spent.entry(*who).or_default() += u32::from(*p);
            let on = on.filter(|o| o != who);
            Told::Deed {
                by: *who,
                what: format!(
                    "spends {}: {}",
                    points(*p),
                    spend_text(before, what, on, note.as_deref())
                ),
            }
        }
        AnarchyEvent::GmSpent {
            what,
            points: p,
            on,
            note,
        } => {
            rec.anarchy.gm_spent += u32::from(*p);
            Told::Line(format!(
                "- The GM spends {}: {}",
                points(*p),
                spend_text(before, what, *on, note.as_deref())
            ))
        }
        AnarchyEvent::EdgeGiven { who, edge } => Told::Deed {
            by: *who,
            what: format!("regains {edge} Edge"),
        },
        AnarchyEvent::EdgeRegained { who, edge } if *edge > 0 => Told::Deed {
            by: *who,
            what: format!("regains {edge} Edge (Interesting Times)"),
        },
        AnarchyEvent::Tested {
            who,
            spec,
            roll,
            outcome,
            edge_spent,
            rerolled,
        } => {
            if *edge_spent > 0 {
                *rec.edge.entry(*who).or_default() += u32::from(*edge_spent);
            }
            Told::Deed {
                by: *who,
                what: if *rerolled {
                    recap_reroll(*outcome)
                } else {
                    recap_test(spec, roll, *outcome, *edge_spent)
                },
            }
        }
        AnarchyEvent::GearDamaged { who, track, boxes } => {
            *rec.damage.entry((*who, track.label())).or_default() += u32::from(*boxes);
            in_turn_of(
                rec,
                before,
                *who,
                &format!("takes {boxes} {}", track.label()),
            )
        }
        AnarchyEvent::GearRepaired { who, track, boxes } => in_turn_of(
            rec,
            before,
            *who,
            &format!("recovers {boxes} {}", track.label()),
        ),
        _ => return None,
    })
}

/// The recap's own summary lines at an Anarchy table: narrations and Plot Points.
pub(super) fn in_short(rec: &Recap, state: &State) -> Vec<String> {
    let t = &rec.anarchy;
    let mut spent = counts(state, &t.spent);
    if t.gm_spent > 0 {
        spent.push(format!("the GM {}", t.gm_spent));
    }
    vec![
        format!("- Narrations: {}.", list(&counts(state, &t.narrations))),
        format!("- Plot Points spent: {}.", list(&spent)),
        format!(
            "- Plot Points awarded: {}.",
            list(&counts(state, &t.awarded))
        ),
    ]
}

/// Why Plot Points were awarded, " for the Cue \"Smash First\"", with the texts from input as
/// `text` writes them (as they are in the log, escaped for Markdown in the recap).
fn why_awarded(reason: &AwardReason, text: impl Fn(&str) -> String) -> String {
    match reason {
        AwardReason::Unsaid => String::new(),
        AwardReason::Cue(c) => format!(" for the Cue \"{}\"", text(c)),
        AwardReason::Disposition(d) => format!(" for the Disposition \"{}\"", text(d)),
        AwardReason::ShadowAmp => " from a Shadow Amp at the start of combat".into(),
        AwardReason::Other(o) => format!(" for {}", text(o)),
    }
}
