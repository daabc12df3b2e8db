//! What typing would refuse of the texts a saved event holds.

use crate::encounter::system::anarchy::{AnarchyEvent, AwardReason};
use crate::encounter::system::sr5::Sr5Event;
use crate::encounter::{Event, RuleError};
use crate::rules::HouseRules;
use crate::rules::house::Range;

/// Whether the texts `event` holds are what the commands that make them take. Every text is
/// visited, nested ones and those of each rule system's events included (the walk of
/// [`crate::text::first_with_control`] reaches all the event serde writes), so a new event's
/// text cannot be missed: none may hold a control character, as no typed command can and the
/// screen builds commands from them (`clear NAME STATUS`). The free texts a command takes
/// whole are held to its length too.
pub fn check(event: &Event, rules: &HouseRules) -> Result<(), String> {
    if let Some(text) = crate::text::first_with_control(event) {
        return Err(format!(
            "the text \"{}\" it records holds a control character, which no typed command can",
            crate::text::excerpt(&text)
        ));
    }
    for (field, text, range) in free_texts(event, rules) {
        match RuleError::check_text(field, text, range) {
            // As for names: a mark first or an invisible character got in before it was
            // refused, and the file still loads.
            Ok(_) | Err(RuleError::LeadingMark { .. } | RuleError::InvisibleCharacter { .. }) => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

/// The free texts an event records whose command has held them to a length from the first
/// (SR5's weapon names, Anarchy's notes and reasons), with the range. A reason for leaving and
/// a ready trigger are not among them: saves from before 2026-11-23 hold them longer.
/// Names are rechecked through the engine (`recheck_sheet`).
fn free_texts<'e>(event: &'e Event, rules: &HouseRules) -> Vec<(&'static str, &'e str, Range)> {
    let anarchy = rules.anarchy.limits.text_chars;
    match event {
        Event::Sr5(Sr5Event::WeaponAdded { weapon, .. }) => {
            vec![("weapon name", &weapon.name, rules.sr5.weapon_name_chars)]
        }
        Event::Anarchy(AnarchyEvent::Spent { note, .. } | AnarchyEvent::GmSpent { note, .. }) => {
            note.iter().map(|n| ("note", n.as_str(), anarchy)).collect()
        }
        Event::Anarchy(AnarchyEvent::Awarded { reason, .. }) => match reason {
            AwardReason::Cue(t) => vec![("Cue", t.as_str(), anarchy)],
            AwardReason::Disposition(t) => vec![("Disposition", t.as_str(), anarchy)],
            AwardReason::Other(t) => vec![("reason", t.as_str(), anarchy)],
            AwardReason::Unsaid | AwardReason::ShadowAmp => Vec::new(),
        },
        _ => Vec::new(),
    }
}
