//! What help says of the screen: each rule system's own panes, in that system's words.

use crate::encounter::System;
use crate::rules::HouseRules;

/// The paragraphs of help's "The screen" for a table of `system`.
pub fn paragraphs(system: System, rules: &HouseRules) -> Vec<String> {
    match system {
        System::Sr5 => passes(rules, &[]),
        System::Sr2097 => passes(
            rules,
            &[
                "  Edge: left/maximum (Edge Burn lowers the maximum for good)",
                "Status, too: ♥ a character's injuries and their severity, ▸ a boost of \
                 initiative under way.",
            ],
        ),
        System::Anarchy => anarchy(rules),
    }
}

/// The initiative-pass screen SR5 and SR 2097 share, then `own` lines of the system's.
fn passes(rules: &HouseRules, own: &[&str]) -> Vec<String> {
    let cap = rules.turn_spend_cap;
    let edge = rules.edge.ip_gained;
    let mut out: Vec<String> = vec![
        format!(
            "Header: the round, its passes (▸ the one under way), whose turn it is, their IP \
             now, the IP spent in this turn against the cap of {cap} (and in this pass when \
             that differs: interrupts out of turn count there), Edge IP, IP held back."
        ),
        "Initiative order, one row a character:".into(),
        "  › selected (j/k; / finds a name; Esc goes back to the actor)".into(),
        "  ● marked (v; V unmarks all): damage, heal and statuses act on each".into(),
        "  ▶ acting  ✓ acted this pass  ✗ Downed  » takes its skipped turn later  \
         – skipped or lost its turn this pass"
            .into(),
        "  #: place in the order; Side: PC or NPC; Group; Edge: left/rating; \
         Wd: wound modifier; Ini: initiative score (! glitched); IP: in the pool now"
            .into(),
        "  Status: short marks: initials (FD Full Defense), two letters for one word \
         (Pr Prone), stacks as a number (TA2 Take Aim ×2); ◌ hidden from the players' \
         view (w shows it again; `srtrack watch` leaves it out)"
            .into(),
        "  ↳ a delay waiting on this character's turn; ⏸ a ready and its trigger".into(),
        "IP per pass, one column a pass of the round (▸ the one under way):".into(),
        "  5/2    started its turn with 5 IP and spent 2 in that pass (out of turn too)".into(),
        format!("  2+{edge}/{edge}  bought {edge} IP with Edge in that pass"),
        "  5/2⏸2  held 2 IP back in that pass (a delay or a ready)".into(),
        "  →6     a pass to come: the IP at the start of its turn if it spends no more".into(),
        "  blank  a Downed character: no turn to come".into(),
    ];
    out.extend(own.iter().map(|l| (*l).to_string()));
    out.extend(
        [
            "▲ N more, ▼ N more: rows out of sight. Tab focuses a pane (its title says \
             focus); j/k and PgUp/PgDn scroll it.",
            "Status: the selected character whole, the marked ones, who is Downed, \
             condition monitors, statuses and when they end, readies, delays.",
        ]
        .map(String::from),
    );
    out.extend(shared());
    out
}

/// Shadowrun: Anarchy's table: narration turns and Plot Points.
fn anarchy(rules: &HouseRules) -> Vec<String> {
    let pp = &rules.anarchy.plot_points;
    let mut out: Vec<String> = vec![
        "Header: the turn, who narrates and their Movements (a glitch die waiting), the \
         GM's Plot Points and what the GM spent this turn against its limit."
            .into(),
        "Table, one row a seat in the order around the table:".into(),
        "  › selected (j/k; / finds a name); ● marked (v; V unmarks all)".into(),
        "  ▶ narrates now  ✓ has narrated this turn  ✗ Downed (its narration is skipped)".into(),
        format!(
            "  ●●●○○ 3/{}  a player's Plot Points (at most {}); NPC for the GM's \
             characters; E 2/3  Edge left/rating",
            pp.player_cap, pp.player_cap
        ),
        "Narration: the turn's order and how it was made (reversed, random), the GM's \
         pool, the GM's spends on each player this turn (Vex 1/2), glitch dice waiting, \
         and everyone's condition boxes, damage/size: P Physical, S Stun, A Armor, M Matrix."
            .into(),
        "▲ N more, ▼ N more: rows out of sight. Tab focuses a pane (its title says \
         focus); j/k and PgUp/PgDn scroll it."
            .into(),
        "Status: the selected character whole (Plot Points, Edge, boxes), the marked \
         ones, who is Downed, statuses and Cooldowns and when they end."
            .into(),
    ];
    out.extend(shared());
    out
}

/// What every system's screen has below its panes.
fn shared() -> [String; 2] {
    [
        "Log: every command and what it did, newest at the bottom; long lines wrap.".into(),
        "Status line: what the last command did, or why it was refused (✗): then nothing \
         changed."
            .into(),
    ]
}
