//! What help says of the screen: each rule system's own panes, in that system's words.

use crate::encounter::System;
use crate::rules::HouseRules;
use crate::ui::action::Action;
use crate::ui::keymap::{self, ModeKind};

/// The tracker's key for `action` at a table of `system`, as the keymap binds it.
fn key(system: System, action: Action) -> String {
    keymap::key_for(ModeKind::Tracker, system, action).unwrap_or_default()
}

/// The keys every system's order pane names: selecting, finding, marking.
fn selecting(system: System) -> (String, String) {
    let k = |a| key(system, a);
    (
        format!(
            "› selected ({}/{}; {} finds a name",
            k(Action::Down),
            k(Action::Up),
            k(Action::Find)
        ),
        format!(
            "● marked ({}; {} unmarks all)",
            k(Action::Mark),
            k(Action::UnmarkAll)
        ),
    )
}

/// What the line under the panes says of scrolling them.
fn scrolling(system: System) -> String {
    let k = |a| key(system, a);
    format!(
        "▲ N more, ▼ N more: rows out of sight. {} focuses a pane (its title says focus); \
         {}/{} and {}/{} scroll it.",
        k(Action::FocusNext),
        k(Action::Down),
        k(Action::Up),
        k(Action::PageUp),
        k(Action::PageDown)
    )
}

/// The paragraphs of help's "The screen" for a table of `system`.
pub fn paragraphs(system: System, rules: &HouseRules) -> Vec<String> {
    match system {
        System::Sr5 => passes(system, rules, &[]),
        System::Sr2097 => passes(
            system,
            rules,
            &[
                "  Edge: left/maximum (Edge Burn lowers the maximum for good)",
                "Status, too: ♥ a character's injuries and their severity, ▸ a boost of \
                 initiative under way.",
            ],
        ),
        System::Anarchy => anarchy(system, rules),
    }
}

/// The initiative-pass screen SR5 and SR 2097 share, then `own` lines of the system's.
fn passes(system: System, rules: &HouseRules, own: &[&str]) -> Vec<String> {
    let cap = rules.turn_spend_cap;
    let edge = rules.edge.ip_gained;
    let hide = key(system, Action::ToggleHidden);
    let (selected, marked) = selecting(system);
    let back = key(system, Action::Cancel);
    let mut out: Vec<String> = vec![
        format!(
            "Header: the round, its passes (▸ the one under way), whose turn it is, their IP \
             now, the IP spent in this turn against the cap of {cap} (and in this pass when \
             that differs: interrupts out of turn count there), Edge IP, IP held back."
        ),
        "Initiative order, one row a character:".into(),
        format!("  {selected}; {back} goes back to the actor)"),
        format!("  {marked}: damage, heal and statuses act on each"),
        "  ▶ acting  ✓ acted this pass  ✗ Downed  » takes its skipped turn later  \
         – skipped or lost its turn this pass"
            .into(),
        "  #: place in the order; Side: PC or NPC; Group; Edge: left/rating; \
         Wd: wound modifier; Ini: initiative score (! glitched); IP: in the pool now"
            .into(),
        format!(
            "  Status: short marks: initials (FD Full Defense), two letters for one word \
             (Pr Prone), stacks as a number (TA2 Take Aim ×2); ◌ hidden from the players' \
             view ({hide} shows it again; `srtrack watch` leaves it out)"
        ),
        "  ↳ a delay waiting on this character's turn; ⏸ a ready and its trigger".into(),
        "IP per pass, one column a pass of the round (▸ the one under way):".into(),
        "  5/2    started its turn with 5 IP and spent 2 in that pass (out of turn too)".into(),
        format!("  2+{edge}/{edge}  bought {edge} IP with Edge in that pass"),
        "  5/2⏸2  held 2 IP back in that pass (a delay or a ready)".into(),
        "  →6     a pass to come: the IP at the start of its turn if it spends no more".into(),
        "  blank  a Downed character: no turn to come".into(),
    ];
    out.extend(own.iter().map(|l| (*l).to_string()));
    out.extend([
        scrolling(system),
        "Status: the selected character whole, the marked ones, who is Downed, condition \
         monitors, statuses and when they end, readies, delays."
            .into(),
    ]);
    out.extend(shared());
    out
}

/// Shadowrun: Anarchy's table: narration turns and Plot Points.
fn anarchy(system: System, rules: &HouseRules) -> Vec<String> {
    let pp = &rules.anarchy.plot_points;
    let (selected, marked) = selecting(system);
    let mut out: Vec<String> = vec![
        "Header: the turn, who narrates and their Movements (a glitch die waiting), the \
         GM's Plot Points and what the GM spent this turn against its limit."
            .into(),
        "Table, one row a seat in the order around the table:".into(),
        format!("  {selected}); {marked}"),
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
        scrolling(system),
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
