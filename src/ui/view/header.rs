//! Header: encounter, rule system, round, pass, whose turn, their IP, Edge, saved mark.

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::encounter::{Combatant, Phase, State, Turn, TurnKind};
use crate::rules::HouseRules;
use crate::ui::app::{App, SaveMark};
use crate::ui::theme::Theme;

pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let s = app.state();
    let rules = app.enc.rules();
    let mut first = vec![Span::raw(format!("  {}", app.enc.system()))];
    let mut second = Vec::new();
    let passes = app.enc.system().plays_in_passes();
    match &s.phase {
        Phase::Setup if !passes => {
            first.push(Span::raw("  setup"));
            second.push(Span::raw(
                " add characters (a; players as PC), then narrate (n) to begin the first turn",
            ));
        }
        Phase::Narration(n) => {
            super::narration::header(app, n, area.width, &mut first, &mut second);
        }
        Phase::Setup => {
            first.push(Span::raw("  setup"));
            second.push(Span::raw(
                " add combatants (a), roll initiative (r), start the fight (s)",
            ));
        }
        Phase::Ended { round } => {
            let what = if passes { "round" } else { "turn" };
            first.push(Span::raw(format!("  ended after {what} {round}")));
            second.push(Span::raw(
                " the encounter is over: undo (u) to go back to it",
            ));
        }
        Phase::Fight(f) => {
            first.extend(round_and_passes(f.round, f.pass, rules.passes_per_round, t));
            match f
                .turn
                .as_ref()
                .and_then(|tu| s.get(tu.who).map(|c| (tu, c)))
            {
                Some((tu, c)) => second.extend(fitted_turn_line(s, rules, tu, c, area.width, t)),
                None => second.push(Span::raw(" nobody can act: everyone is Downed")),
            }
        }
    }
    let mark = match &app.saved {
        SaveMark::Nothing => None,
        SaveMark::Pending | SaveMark::Writing => Some(Span::styled("  … saving", t.dim())),
        SaveMark::Saved => Some(Span::styled("  ✓ saved", t.ok())),
        SaveMark::Failed(_) => Some(Span::styled("  ✗ NOT SAVED", t.error())),
    };
    // The title takes the room the rest of the line leaves it (a few cells at least), `…`
    // where cut.
    let rest: usize = first.iter().chain(&mark).map(Span::width).sum();
    let room = usize::from(area.width)
        .saturating_sub(rest + 2)
        .max(TITLE_AT_LEAST);
    first.insert(
        0,
        Span::styled(format!(" {} ", super::cut(&app.title, room)), t.title()),
    );
    if let Some(r) = &app.read_only {
        // Why it is read-only takes the room the line has left, `…` where cut.
        let used: usize = first.iter().chain(&mark).map(Span::width).sum();
        let room = usize::from(area.width).saturating_sub(used);
        let said = super::cut(&format!("  read-only: {r}"), room);
        first.push(Span::styled(said, t.error()));
    }
    first.extend(mark);
    // The title is the save's own name, and may say anything.
    let mut lines = [Line::from(first), Line::from(second)];
    super::escape_lines(&mut lines);
    d.lines(lines.into(), area);
}

/// The cells a title keeps however much else the header's first line says.
const TITLE_AT_LEAST: usize = 12;

/// "Round 2  Pass 1 ▸2 3 4 5": the passes gone by dim, the one under way marked.
/// The turn under way: who (`name`, cut or not), what kind of turn, IP, spent, Edge and
/// reserve; `short` in fewer words, for a narrow screen.
fn turn_line(
    s: &State,
    rules: &HouseRules,
    tu: &Turn,
    c: &Combatant,
    (name, trigger): (&str, &str),
    short: bool,
    t: Theme,
) -> Vec<Span<'static>> {
    let mut line = vec![
        Span::raw(" Turn: "),
        Span::styled(format!("▶ {name}"), t.current()),
    ];
    match (tu.kind, short) {
        (TurnKind::Own, _) => {}
        (TurnKind::Resumed, false) => line.push(Span::raw(" (skipped turn, taken here)")),
        (TurnKind::Resumed, true) => line.push(Span::raw(" (skipped turn)")),
        (TurnKind::Delayed { .. }, false) => line.push(Span::styled(
            format!(" (delay after {trigger}: spends the IP held)"),
            t.reserve(),
        )),
        (TurnKind::Delayed { .. }, true) => line.push(Span::styled(
            format!(" (delay after {trigger})"),
            t.reserve(),
        )),
    }
    // IP spent out of turn (an interrupt in another's turn) counts in that turn, yet in this
    // pass's cell: said apart, so the header and grid agree.
    let in_turn = s.spent_in_turn(c.id);
    let in_pass = s.spent_this_pass(c.id);
    let pass = if in_pass == in_turn {
        String::new()
    } else {
        format!(", {in_pass} this pass")
    };
    let used = c.edge_ip_used_up(rules);
    let held = c
        .reserve
        .as_ref()
        .map(|r| Span::styled(format!("  held {} IP", r.ip()), t.reserve()));
    if short {
        // The IP and the IP held first: what does not fit is cut from the end.
        line.push(Span::raw(format!("  IP {}", c.ip)));
        line.extend(held);
        line.push(Span::raw(format!(
            "  spent {in_turn}/{}{pass}  Edge {}",
            rules.turn_spend_cap,
            if used { "used" } else { "unused" }
        )));
        return line;
    }
    line.push(Span::raw({
        format!(
            "  IP {}  spent {in_turn}/{} this turn{pass}  Edge IP {}",
            c.ip,
            rules.turn_spend_cap,
            if used { "used this round" } else { "unused" }
        )
    }));
    if let Some(r) = &c.reserve {
        line.push(Span::styled(
            format!("  reserve {} IP", r.ip()),
            t.reserve(),
        ));
    }
    line
}

/// The cells a name keeps, at least, before the turn line is cut at its end instead: the
/// actor's more than the trigger's of a delay.
const ACTOR_AT_LEAST: usize = 10;
const TRIGGER_AT_LEAST: usize = 6;

/// The turn line in `width` cells: in full where it fits, else in short words; then the
/// delay's trigger's name is cut, then the actor's (each down to a few cells, a member's
/// number kept), and what still does not fit is cut at the end, `…`.
fn fitted_turn_line(
    s: &State,
    rules: &HouseRules,
    tu: &Turn,
    c: &Combatant,
    width: u16,
    t: Theme,
) -> Vec<Span<'static>> {
    let room = usize::from(width);
    let trigger = match tu.kind {
        TurnKind::Delayed { trigger } => s.name(trigger),
        _ => "",
    };
    let full = turn_line(s, rules, tu, c, (&c.name, trigger), false, t);
    if super::spans_width(&full) <= room {
        return full;
    }
    let mut names = [c.name.clone(), trigger.to_string()];
    let mut line = turn_line(s, rules, tu, c, (&names[0], &names[1]), true, t);
    for (i, least) in [(1, TRIGGER_AT_LEAST), (0, ACTOR_AT_LEAST)] {
        let over = super::spans_width(&line).saturating_sub(room);
        if over == 0 {
            break;
        }
        let whole = if i == 0 { c.name.as_str() } else { trigger };
        let len = crate::text::shown_len(whole);
        names[i] = super::cut_name(whole, len.saturating_sub(over).max(least.min(len)));
        line = turn_line(s, rules, tu, c, (&names[0], &names[1]), true, t);
    }
    super::cut_spans(line, room)
}

pub fn round_and_passes(round: u32, pass: u8, passes: u8, t: Theme) -> Vec<Span<'static>> {
    let mut out = vec![Span::raw(format!("  Round {round}  Pass "))];
    for p in 1..=passes {
        out.push(match p.cmp(&pass) {
            std::cmp::Ordering::Equal => Span::styled(format!("▸{p}"), t.current()),
            std::cmp::Ordering::Less => Span::styled(p.to_string(), t.dim()),
            std::cmp::Ordering::Greater => Span::raw(p.to_string()),
        });
        out.push(Span::raw(" "));
    }
    out
}
