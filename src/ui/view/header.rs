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
    let mut first = Line::from(vec![Span::raw(format!("  {}", app.enc.system()))]);
    let mut second = Vec::new();
    let passes = app.enc.system().plays_in_passes();
    match &s.phase {
        Phase::Setup if !passes => {
            first.spans.push(Span::raw("  setup"));
            second.push(Span::raw(
                " add characters (a; players as PC), then narrate (n) to begin the first turn",
            ));
        }
        Phase::Narration(n) => {
            super::narration::header(app, n, area.width, &mut first.spans, &mut second);
        }
        Phase::Setup => {
            first.spans.push(Span::raw("  setup"));
            second.push(Span::raw(
                " add combatants (a), roll initiative (r), start the fight (s)",
            ));
        }
        Phase::Ended { round } => {
            let what = app.enc.system().round_word();
            first
                .spans
                .push(Span::raw(format!("  ended after {what} {round}")));
            second.push(Span::raw(
                " the encounter is over: undo (u) to go back to it",
            ));
        }
        Phase::Fight(f) => {
            first
                .spans
                .extend(round_and_passes(f.round, f.pass, rules.passes_per_round, t));
            match f
                .turn
                .as_ref()
                .and_then(|tu| s.get(tu.who).map(|c| (tu, c)))
            {
                Some(turn) => second.extend(fitted_turn_line(s, rules, turn, area.width, t).spans),
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
    let rest = first.width() + mark.as_ref().map_or(0, Span::width);
    let room = usize::from(area.width)
        .saturating_sub(rest + 2)
        .max(TITLE_AT_LEAST);
    let title = Span::styled(format!(" {} ", super::cut(&app.title, room)), t.title());
    let used = rest + title.width();
    first.spans.insert(0, title);
    if let Some(r) = &app.read_only {
        // Why it is read-only takes the room the line has left, `…` where cut.
        let room = usize::from(area.width).saturating_sub(used);
        let said = super::cut(&format!("  read-only: {r}"), room);
        first.spans.push(Span::styled(said, t.error()));
    }
    first.spans.extend(mark);
    // The title is the save's own name, and may say anything.
    let mut lines = [first, Line::from(second)];
    super::escape_lines(&mut lines);
    d.lines(lines.into(), area);
}

/// The cells a title keeps however much else the header's first line says.
const TITLE_AT_LEAST: usize = 12;

/// A turn line in two parts: who acts and what kind of turn (`head`, where names are cut),
/// then the numbers the GM acts on (`tail`: IP, held, spent, Edge).
struct TurnLine {
    head: Line<'static>,
    tail: Line<'static>,
}

impl TurnLine {
    fn width(&self) -> usize {
        self.head.width() + self.tail.width()
    }

    fn joined(self) -> Line<'static> {
        let mut line = self.head;
        line.spans.extend(self.tail.spans);
        line
    }
}

/// Which of a turn line's names is cut.
#[derive(Clone, Copy)]
enum Named {
    Actor,
    Trigger,
}

/// The names a turn line shows: the actor's and, in a delay, the trigger's.
struct Names {
    actor: String,
    trigger: String,
}

impl Names {
    fn get_mut(&mut self, who: Named) -> &mut String {
        match who {
            Named::Actor => &mut self.actor,
            Named::Trigger => &mut self.trigger,
        }
    }
}

/// The turn under way: who (`names`, cut or not), what kind of turn, IP, spent, Edge and
/// reserve; `short` in fewer words, for a narrow screen.
fn turn_line(
    s: &State,
    rules: &HouseRules,
    (tu, c): (&Turn, &Combatant),
    names: &Names,
    short: bool,
    t: Theme,
) -> TurnLine {
    let (name, trigger) = (&names.actor, &names.trigger);
    let mut acting = vec![
        Span::raw(" Turn: "),
        Span::styled(format!("▶ {name}"), t.current()),
    ];
    match (tu.kind, short) {
        (TurnKind::Own, _) => {}
        (TurnKind::Resumed, false) => acting.push(Span::raw(" (skipped turn, taken here)")),
        (TurnKind::Resumed, true) => acting.push(Span::raw(" (skipped turn)")),
        (TurnKind::Delayed { .. }, false) => acting.push(Span::styled(
            format!(" (delay after {trigger}: spends the IP held)"),
            t.reserve(),
        )),
        (TurnKind::Delayed { .. }, true) => acting.push(Span::styled(
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
    let mut tail = Vec::new();
    if short {
        // The IP and the IP held first.
        tail.push(Span::raw(format!("  IP {}", c.ip)));
        tail.extend(held);
        tail.push(Span::raw(format!(
            "  spent {in_turn}/{}{pass}  Edge {}",
            rules.turn_spend_cap,
            if used { "used" } else { "unused" }
        )));
    } else {
        tail.push(Span::raw(format!(
            "  IP {}  spent {in_turn}/{} this turn{pass}  Edge IP {}",
            c.ip,
            rules.turn_spend_cap,
            if used { "used this round" } else { "unused" }
        )));
        if let Some(r) = &c.reserve {
            tail.push(Span::styled(
                format!("  reserve {} IP", r.ip()),
                t.reserve(),
            ));
        }
    }
    TurnLine {
        head: Line::from(acting),
        tail: Line::from(tail),
    }
}

/// The cells a name keeps: the actor's more than the delay's trigger's, which is cut first, and
/// cut again down to its last few cells before the actor's is cut.
const ACTOR_AT_LEAST: usize = 10;
const TRIGGER_AT_LEAST: usize = 6;
const NAME_AT_LEAST: usize = 3;

/// The turn line in `width` cells: in full where it fits, else in short words; then the names
/// give way to the numbers the GM acts on (IP, held, spent, Edge), which are kept whole: the
/// delay's trigger's name is cut, then the actor's (each down to a few cells, a member's number
/// kept), then the trigger's further; what still does not fit is cut, `…`, before the numbers.
fn fitted_turn_line(
    s: &State,
    rules: &HouseRules,
    turn: (&Turn, &Combatant),
    width: u16,
    t: Theme,
) -> Line<'static> {
    let room = usize::from(width);
    let (tu, c) = turn;
    let trigger = match tu.kind {
        TurnKind::Delayed { trigger } => s.name(trigger),
        _ => "",
    };
    let whole = |who: Named| match who {
        Named::Actor => c.name.as_str(),
        Named::Trigger => trigger,
    };
    let mut names = Names {
        actor: c.name.clone(),
        trigger: trigger.to_string(),
    };
    let full = turn_line(s, rules, turn, &names, false, t);
    if full.width() <= room {
        return full.joined();
    }
    let mut line = turn_line(s, rules, turn, &names, true, t);
    let head_room = room.saturating_sub(line.tail.width());
    for (who, least) in [
        (Named::Trigger, TRIGGER_AT_LEAST),
        (Named::Actor, ACTOR_AT_LEAST),
        (Named::Trigger, NAME_AT_LEAST),
    ] {
        let over = line.head.width().saturating_sub(head_room);
        if over == 0 {
            break;
        }
        let name = names.get_mut(who);
        let len = crate::text::shown_len(name);
        let keep = len
            .saturating_sub(over)
            .max(least.min(crate::text::shown_len(whole(who))));
        if keep < len {
            *name = super::cut_name(whole(who), keep);
            line = turn_line(s, rules, turn, &names, true, t);
        }
    }
    line.head = super::cut_spans(line.head, head_room);
    super::cut_spans(line.joined(), room)
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
