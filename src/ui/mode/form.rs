//! A form: labelled inputs for a command, each value checked in its field as it is typed.
//! A value already there is replaced by typing over it; a choice of a few words is a toggle.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use tui_input::{Input, InputRequest};

use super::tracker::{delay_triggers, names_of};
use super::{Ctx, Mode, Outcome, choose, picker};
use crate::encounter::RuleError;
use crate::encounter::system::SheetField;
use crate::encounter::system::anarchy::{AnarchyCommand, GearTrack};
use crate::encounter::system::sr2097::Sr2097Command;
use crate::encounter::{
    AddCombatant, CombatantId, Command, Each, Event, GroupId, Phase, ReadyTrigger, RollTarget,
    SheetInput, Side, StatusUntil, System, Track, same_name,
};
use crate::roster::{Bring, Gear, Template};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::keymap::{self, ModeKind};
use crate::ui::view::{centered, clear, cut, draw_lines, pane_block, wrap};

/// What the form is for, and for whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    Add,
    Edit(CombatantId),
    /// Roll the initiative of one character (or of a group sharing a roll), or type in the
    /// table's roll.
    Initiative(RollTarget),
    /// A Shadowrun 2097 initiative: srtrack rolls it, or the table's dice are typed in.
    InitiativeDice(RollTarget),
    Delay(CombatantId),
    Ready(CombatantId),
    Damage(Vec<CombatantId>),
    Heal(Vec<CombatantId>),
    Status(Vec<CombatantId>),
}

/// Whether a text field's value is still the one it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fresh {
    /// Given by the form (or the field was just entered): the first character typed replaces it.
    Given,
    /// The GM has typed in it: keys edit it.
    Typed,
}

/// What a field holds.
#[derive(Debug, Clone)]
pub enum Value {
    Text {
        input: Input,
        fresh: Fresh,
    },
    /// One of a few words: Space or ←/→ step through them, a letter picks the next it starts.
    Toggle {
        options: &'static [&'static str],
        at: usize,
    },
}

/// One labelled input, with the reason its value is refused, if it is.
#[derive(Debug, Clone)]
pub struct Field {
    pub label: &'static str,
    pub hint: String,
    pub value: Value,
    pub error: Option<String>,
    /// The most characters the engine takes in this field (a name, a status's text), when it
    /// limits them: typing stops there.
    pub max_chars: Option<usize>,
}

impl Field {
    pub(super) fn text(label: &'static str, hint: impl Into<String>, value: &str) -> Self {
        Self {
            label,
            hint: hint.into(),
            value: Value::Text {
                input: Input::new(value.to_string()),
                fresh: Fresh::Given,
            },
            error: None,
            max_chars: None,
        }
    }

    /// The field takes at most `max` characters, the engine's limit (counted as the engine
    /// counts them: characters of the trimmed value, a wide one as one).
    pub(super) fn at_most(mut self, max: i32) -> Self {
        self.max_chars = usize::try_from(max).ok();
        self
    }

    pub(super) fn toggle(
        label: &'static str,
        hint: impl Into<String>,
        options: &'static [&'static str],
        at: usize,
    ) -> Self {
        Self {
            label,
            hint: hint.into(),
            value: Value::Toggle { options, at },
            error: None,
            max_chars: None,
        }
    }

    /// The value as text (a toggle's word).
    pub fn get(&self) -> String {
        match &self.value {
            Value::Text { input, .. } => input.value().trim().to_string(),
            Value::Toggle { options, at } => options.get(*at).copied().unwrap_or("").to_string(),
        }
    }

    /// A key in the field. A character past the field's limit is not taken: the reason, for
    /// the form's last line.
    fn handle(&mut self, req: InputRequest) -> Option<String> {
        match &mut self.value {
            Value::Text { input, fresh } => {
                if let (Some(max), InputRequest::InsertChar(_)) = (self.max_chars, req) {
                    let mut after = input.clone();
                    after.handle(req);
                    let kept = if *fresh == Fresh::Given {
                        1
                    } else {
                        chars_counted(after.value())
                    };
                    if kept > max {
                        *fresh = Fresh::Typed;
                        return Some(format!(
                            "{} takes at most {max} characters: typing stops there",
                            self.label
                        ));
                    }
                }
                match (*fresh, req) {
                    (Fresh::Given, InputRequest::InsertChar(c)) => {
                        *input = Input::new(c.to_string());
                    }
                    (
                        Fresh::Given,
                        InputRequest::DeletePrevChar
                        | InputRequest::DeleteNextChar
                        | InputRequest::DeletePrevWord
                        | InputRequest::DeleteLine,
                    ) => *input = Input::default(),
                    _ => {
                        input.handle(req);
                    }
                }
                *fresh = Fresh::Typed;
                None
            }
            Value::Toggle { options, at } => {
                let n = options.len().max(1);
                *at = match req {
                    InputRequest::InsertChar(' ') | InputRequest::GoToNextChar => (*at + 1) % n,
                    InputRequest::GoToPrevChar => (*at + n - 1) % n,
                    InputRequest::InsertChar(c) => {
                        let starts = (1..=n).map(|k| (*at + k) % n).find(|&i| {
                            options[i]
                                .chars()
                                .next()
                                .is_some_and(|f| f.eq_ignore_ascii_case(&c))
                        });
                        // A key that starts none of its words changes nothing, and says why.
                        let Some(i) = starts else {
                            return Some(format!(
                                "{} is a choice: {} (Space or ←/→ to change, or its first letter)",
                                self.label,
                                options.join(", ")
                            ));
                        };
                        i
                    }
                    _ => *at,
                };
                None
            }
        }
    }

    /// Puts a value in (a toggle takes the word it names); the next character replaces it.
    fn set(&mut self, v: &str) {
        match &mut self.value {
            Value::Text { input, fresh } => {
                *input = Input::new(v.to_string());
                *fresh = Fresh::Given;
            }
            Value::Toggle { options, at } => {
                if let Some(i) = options.iter().position(|o| *o == v) {
                    *at = i;
                }
            }
        }
    }

    /// Entering a field gives its value back to the form: the next character replaces it.
    fn enter(&mut self) {
        if let Value::Text { fresh, .. } = &mut self.value {
            *fresh = Fresh::Given;
        }
    }

    /// Entering a field by wrapping (Tab past the last, Shift-Tab before the first) keeps its
    /// value: the next character is typed on at the cursor, never over it (our ruling: a Tab
    /// too many must not lose the first field to the next key).
    fn keep(&mut self) {
        if let Value::Text { fresh, .. } = &mut self.value {
            *fresh = Fresh::Typed;
        }
    }
}

/// How many characters the engine counts in a field's value: those of the trimmed text, in
/// the composed form names are kept in (a wide character is one).
fn chars_counted(value: &str) -> usize {
    use unicode_normalization::UnicodeNormalization as _;
    value.trim().nfc().count()
}

/// The label column of a form: the focus mark, the label and a space.
const LABEL: usize = 13;

const SIDES: &[&str] = &["npc", "pc"];
pub(super) const NO_YES: &[&str] = &["no", "yes"];
/// The damage and heal forms' tracks: the condition monitors, and an Anarchy character's Armor
/// and Matrix tracks when its sheet has them (the words of `damage NAME N armor|matrix`).
const TRACKS: [&[&str]; 4] = [
    &["physical", "stun"],
    &["physical", "stun", "armor"],
    &["physical", "stun", "matrix"],
    &["physical", "stun", "armor", "matrix"],
];

/// The tracks the damage and heal forms offer `who`: an Anarchy character's gear tracks are one
/// character's, so a form for several offers the monitors only.
fn tracks_of(who: &[CombatantId], s: &crate::encounter::State) -> &'static [&'static str] {
    let gear = match who {
        [one] => s.narration().and_then(|n| n.gear_of(*one)),
        _ => None,
    };
    let has = |t: GearTrack| gear.is_some_and(|g| g.track(t).size > 0);
    TRACKS[usize::from(has(GearTrack::Armor)) + 2 * usize::from(has(GearTrack::Matrix))]
}
const UNTIL: &[&str] = &[
    "as the rules say",
    "this turn",
    "next turn",
    "round",
    "never",
];

#[derive(Debug, Clone)]
pub struct State {
    pub title: String,
    pub purpose: Purpose,
    /// A line above the fields: whom the form aims at, or where its values come from.
    pub about: Option<String>,
    pub fields: Vec<Field>,
    pub focus: usize,
    /// The engine's refusal of the whole form, when no field is to blame.
    pub error: Option<String>,
    /// The add form's roster sheets: a Name that is one of them fills the sheet on Tab.
    pub sheets: Vec<Template>,
    /// What the add form offers from the roster, or what it filled.
    pub offer: Option<String>,
    /// The name of the roster sheet that filled the add form: its gear comes along if the
    /// Name still names it on Enter.
    pub filled: Option<String>,
    /// The add and edit forms' fields a narration game (Anarchy) does not use (its initiative):
    /// not shown, their values kept (an edit keeps the sheet's).
    pub left_out: Vec<Field>,
    /// The members of a group that rolls one by one still to roll after this one, as the add
    /// names them: each gets this form in turn.
    pub joiners: Vec<(CombatantId, String)>,
}

/// Why the damage form would be of no use to `who`, said when `h` is pressed rather than after
/// the form is filled: no track it offers has a monitor (no Body, no Willpower, no gear track).
pub(super) fn damage_refusal(who: &[CombatantId], ctx: &Ctx) -> Option<String> {
    if tracks_of(who, ctx.state()).len() > 2 {
        return None;
    }
    let mut first = None;
    for track in [Track::Physical, Track::Stun] {
        let cmd = Command::aimed(who.to_vec(), Each::Damage { track, boxes: 1 });
        match ctx.refused(cmd) {
            Some(e @ RuleError::NoMonitor { .. }) => {
                first.get_or_insert(e);
            }
            _ => return None,
        }
    }
    let e = first?;
    Some(match own_damage(&e, ctx) {
        Some(way) => format!("{e}; {way}"),
        None => e.to_string(),
    })
}

/// Where a table has a damage roll of its own (a key for it, and a form of its command with no
/// attacker), how to roll it for the one a monitor refusal names: `w`, or `dmg - Bo NdM+ST`.
fn own_damage(refused: &RuleError, ctx: &Ctx) -> Option<String> {
    let RuleError::NoMonitor { who, .. } = refused else {
        return None;
    };
    let system = ctx.enc.system();
    let key = keymap::key_for(ModeKind::Tracker, system, Action::DamageRoll)?;
    let typed = crate::lang::synopses::forms(system)
        .into_iter()
        .find(|f| f.text.starts_with(&format!("{} - ", f.verb)))?;
    let typed = typed.text.split(" [").next().unwrap_or_default();
    let typed = typed.replacen("TARGET", who, 1);
    Some(format!(
        "this table's damage is a damage roll through armor: `{key}`, or `{typed}`"
    ))
}

/// The add and edit forms' labels of the sheet's fields: the system says which it uses.
const SHEET_LABELS: &[(&str, SheetField)] = &[
    ("Intuition", SheetField::Intuition),
    ("Reaction", SheetField::Reaction),
    ("Edge", SheetField::Edge),
    ("Dice mod", SheetField::DiceModifier),
    ("IP bonus", SheetField::IpBonus),
    ("Body", SheetField::Body),
    ("Willpower", SheetField::Willpower),
    ("Shared roll", SheetField::SharedRoll),
];

/// Whether the encounter's system asks this field of a sheet (a field not of the sheet, as the
/// Name, always).
fn asked(system: System, label: &str) -> bool {
    SHEET_LABELS
        .iter()
        .find(|(l, _)| *l == label)
        .is_none_or(|(_, f)| system.uses(*f))
}

/// Enter on a form of the 2097 rooms: the command runs, or its reason goes in the field to blame.
pub(super) fn confirm(
    fields: &mut [Field],
    focus: &mut usize,
    cmd: Result<Command, (usize, String)>,
) -> Outcome {
    for fl in fields.iter_mut() {
        fl.error = None;
    }
    match cmd {
        Ok(cmd) => Outcome::run(cmd),
        Err((i, e)) => {
            if let Some(fl) = fields.get_mut(i) {
                fl.error = Some(e);
                *focus = i;
            }
            Outcome::Stay
        }
    }
}

/// The keys a form's last line names: Enter `does`, and how a choice changes only when the
/// form has one (a form of numbers alone has nothing for Space to change).
fn keys_hint(does: &str, fields: &[Field]) -> String {
    let choice = if fields
        .iter()
        .any(|f| matches!(f.value, Value::Toggle { .. }))
    {
        "  Space, ←/→: change a choice"
    } else {
        ""
    };
    format!("Enter: {does}  Tab: next field{choice}  Esc: cancel")
}

/// A form's last line: the engine's refusal, or the keys (Enter `does`; how a choice changes,
/// when the form has one).
pub(super) fn last_line(
    error: Option<&str>,
    does: &str,
    fields: &[Field],
    app: &App,
) -> Line<'static> {
    match error {
        Some(e) => Line::styled(format!("✗ {e}"), app.theme.error()),
        None => Line::styled(keys_hint(does, fields), app.theme.dim()),
    }
}

/// Dice faces typed as numbers apart ("7 3", "7,3"); `None` when the field is empty.
pub(super) fn parse_faces(field: &Field) -> Result<Option<Vec<i32>>, String> {
    let v = field.get();
    if v.is_empty() {
        return Ok(None);
    }
    v.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse::<i32>()
                .map_err(|_| format!("\"{w}\" is not a die's face"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

pub(super) fn parse_num(field: &Field, required: bool) -> Result<Option<i32>, String> {
    let v = field.get();
    if v.is_empty() {
        return if required {
            Err("required".into())
        } else {
            Ok(None)
        };
    }
    // As the command language reads it: a number too big stands as the biggest there is, so
    // the engine says the range allowed.
    crate::text::int_word(&v)
        .map(Some)
        .ok_or_else(|| format!("\"{}\" is not a whole number", crate::text::excerpt(&v)))
}

/// The sheet and side of the combatant added last, and its name: the add form starts from them.
fn last_added(ctx: &Ctx) -> Option<(String, Side, crate::encounter::Sheet, bool)> {
    let applied = ctx.enc.applied();
    // A bounded look back: the add form wants the last few, not the whole fight.
    applied.iter().rev().take(300).find_map(|entry| {
        let shared = entry.events.iter().any(|e| {
            matches!(
                e,
                Event::GroupFormed {
                    shared_roll: true,
                    ..
                }
            )
        });
        entry.events.iter().rev().find_map(|e| match e {
            Event::CombatantAdded {
                name, side, sheet, ..
            } => Some((name.clone(), *side, *sheet, shared)),
            _ => None,
        })
    })
}

fn opt(v: Option<u8>) -> String {
    v.map(|b| b.to_string()).unwrap_or_default()
}

/// A text field for another room's form (the SR5 test form): same editing, same drawing.
pub(super) fn field(label: &'static str, hint: &'static str, value: &str) -> Field {
    Field::text(label, hint, value)
}

impl State {
    pub fn open(purpose: Purpose, ctx: &Ctx) -> Self {
        let s = ctx.state();
        let name = |id: CombatantId| s.name(id).to_string();
        let limits = ctx.enc.rules().limits;
        let mut about = None;
        let (title, fields) = match &purpose {
            Purpose::Add => {
                let last = last_added(ctx);
                if let Some((n, ..)) = &last {
                    about = Some(format!("values as {n}, the last added: type over them"));
                }
                let sheet = last.as_ref().map(|l| l.2);
                let num = |f: fn(&crate::encounter::Sheet) -> String, d: &str| {
                    sheet.as_ref().map_or(d.to_string(), f)
                };
                let side = last.as_ref().map_or(0, |l| usize::from(l.1 == Side::Pc));
                let shared = last.as_ref().map_or(0, |l| usize::from(l.3));
                (
                    "Add a combatant or a group".to_string(),
                    vec![
                        Field::text("Name", "unique; a group's members get numbers", "")
                            .at_most(limits.name_chars.max),
                        Field::toggle("Side", "Space or ←/→ to change", SIDES, side),
                        Field::text("Count", "empty for one; N for a group of N", ""),
                        Field::text("Intuition", "", &num(|s| s.intuition.to_string(), "3")),
                        Field::text("Reaction", "", &num(|s| s.reaction.to_string(), "3")),
                        Field::text("Edge", "", &num(|s| s.edge.to_string(), "0")),
                        Field::text(
                            "Dice mod",
                            "initiative dice modifier",
                            &num(|s| s.dice_modifier.to_string(), "0"),
                        ),
                        Field::text(
                            "IP bonus",
                            "extra starting IP",
                            &num(|s| s.ip_bonus.to_string(), "0"),
                        ),
                        Field::text(
                            "Body",
                            "for the Physical monitor",
                            &num(|s| opt(s.body), ""),
                        ),
                        Field::text(
                            "Willpower",
                            "for the Stun monitor",
                            &num(|s| opt(s.willpower), ""),
                        ),
                        Field::toggle("Shared roll", "yes: the group rolls once", NO_YES, shared),
                        // Never taken from the last added: a character hidden by mistake is
                        // one the players never see arrive.
                        Field::toggle(
                            "Hidden",
                            "yes: left out of the players' view (an ambush)",
                            NO_YES,
                            0,
                        ),
                    ],
                )
            }
            Purpose::Edit(id) => {
                let c = s.get(*id);
                let v = |f: &dyn Fn(&crate::encounter::Sheet) -> String| {
                    c.map(|c| f(&c.sheet)).unwrap_or_default()
                };
                let side = c.map_or(0, |c| usize::from(c.side == Side::Pc));
                // The rating, as the sheet has it: what a burn took is said beside it.
                let burned = s.edge_burned(*id);
                let edge_hint = if burned > 0 {
                    format!("the rating; {burned} burned for good, so {burned} at least")
                } else {
                    String::new()
                };
                (
                    format!("Edit {}", name(*id)),
                    vec![
                        Field::text("Name", "", &name(*id)).at_most(limits.name_chars.max),
                        Field::toggle("Side", "Space or ←/→ to change", SIDES, side),
                        Field::text("Intuition", "", &v(&|s| s.intuition.to_string())),
                        Field::text("Reaction", "", &v(&|s| s.reaction.to_string())),
                        Field::text("Edge", edge_hint, &v(&|s| s.edge.to_string())),
                        Field::text("Dice mod", "", &v(&|s| s.dice_modifier.to_string())),
                        Field::text("IP bonus", "", &v(&|s| s.ip_bonus.to_string())),
                        Field::text("Body", "", &v(&|s| opt(s.body))),
                        Field::text("Willpower", "", &v(&|s| opt(s.willpower))),
                    ],
                )
            }
            Purpose::Initiative(target) | Purpose::InitiativeDice(target) => {
                let (who, pool) = match target {
                    RollTarget::Group(g) => {
                        let group = s.groups.get(g.0 as usize);
                        let pool = group
                            .and_then(|g| g.members.first())
                            .and_then(|id| s.get(*id))
                            .map(|c| c.initiative_pool(ctx.enc.rules()));
                        (
                            group.map_or_else(String::new, |g| {
                                format!("{} (the group's one roll)", g.name)
                            }),
                            pool,
                        )
                    }
                    RollTarget::One(id) => (
                        name(*id),
                        s.get(*id).map(|c| c.initiative_pool(ctx.enc.rules())),
                    ),
                    RollTarget::All | RollTarget::Npcs => (String::new(), None),
                };
                let title = format!("Initiative for {who}");
                if matches!(purpose, Purpose::InitiativeDice(_)) {
                    (
                        title,
                        vec![Field::text(
                            "Dice",
                            "empty: srtrack rolls; or the d6s rolled at the table, e.g. 3 5",
                            "",
                        )],
                    )
                } else {
                    initiative_form(&title, pool)
                }
            }
            Purpose::Delay(id) => {
                let hint = s
                    .reserve_limits(*id, ctx.enc.rules())
                    .map_or_else(String::new, |l| {
                        format!(
                            "{} IP in the pool; allowed 1 to {}",
                            l.available,
                            l.delay_max.max(1)
                        )
                    });
                (
                    format!("Delay: {} holds IP", name(*id)),
                    vec![Field::text("IP", hint, "")],
                )
            }
            Purpose::Ready(id) => {
                let hint = s
                    .reserve_limits(*id, ctx.enc.rules())
                    .map_or_else(String::new, |l| {
                        format!(
                            "empty: what the actions cost; allowed 1 to {} ({} IP in the pool)",
                            l.ready_max.max(1),
                            l.available
                        )
                    });
                (
                    format!("Ready: {} waits for a trigger", name(*id)),
                    vec![
                        Field::text("Trigger", "when … (free text)", "")
                            .at_most(limits.text_chars.max),
                        Field::text("IP", hint, ""),
                    ],
                )
            }
            Purpose::Damage(who) | Purpose::Heal(who) => {
                let verb = if matches!(purpose, Purpose::Damage(_)) {
                    "Damage"
                } else {
                    "Heal"
                };
                about = (who.len() > 1).then(|| format!("each of {}", names_of(who, s)));
                (
                    format!("{verb} {}", title_names(who, s)),
                    vec![
                        Field::text("Boxes", "", "1"),
                        Field::toggle("Track", "Space or ←/→ to change", tracks_of(who, s), 0),
                    ],
                )
            }
            Purpose::Status(who) => {
                about = (who.len() > 1).then(|| format!("each of {}", names_of(who, s)));
                (
                    format!("Add a status to {}", title_names(who, s)),
                    vec![
                        Field::text("Status", "a name from the rules, or free text", "")
                            .at_most(limits.text_chars.max),
                        Field::toggle(
                            "Until",
                            "when it ends: the rules' end for its name, the end of this turn, \
                             of their next turn, of the round, or never",
                            UNTIL,
                            0,
                        ),
                    ],
                )
            }
        };
        let (fields, left_out) = if matches!(purpose, Purpose::Add | Purpose::Edit(_)) {
            let system = ctx.enc.system();
            fields.into_iter().partition(|f| asked(system, f.label))
        } else {
            (fields, Vec::new())
        };
        let sheets = match (&purpose, ctx.sheets) {
            (Purpose::Add, Some(r)) => r.templates(),
            _ => Vec::new(),
        };
        let offer = (!sheets.is_empty()).then(|| {
            let names: Vec<&str> = sheets.iter().map(|t| t.name.as_str()).collect();
            format!(
                "Roster: {} (a Name of these + Tab fills its sheet)",
                names.join(", ")
            )
        });
        Self {
            title,
            purpose,
            about,
            fields,
            focus: 0,
            error: None,
            sheets,
            offer,
            filled: None,
            left_out,
            joiners: Vec::new(),
        }
    }

    /// The initiative form for a combatant who has just joined the fight (`target` names it as
    /// the add will make it): the GM rolls it, or types in the table's roll.
    /// An initiative summed from d6s (Shadowrun 2097) is typed in as its dice.
    pub fn joined(target: RollTarget, name: &str, ctx: &Ctx) -> Self {
        let title = format!("{name} joins: initiative");
        let (purpose, fields, about) = if ctx.state().system.sums_initiative_dice() {
            (
                Purpose::InitiativeDice(target),
                vec![Field::text(
                    "Dice",
                    "the d6s rolled at the table, e.g. 3 5",
                    "",
                )],
                "Enter with Dice empty rolls it; Esc leaves it unrolled (r later)",
            )
        } else {
            (
                Purpose::Initiative(target),
                initiative_form(&title, None).1,
                "Enter with Hits empty rolls it; Esc leaves it unrolled (r later)",
            )
        };
        Self {
            title,
            purpose,
            about: Some(about.into()),
            fields,
            focus: 0,
            error: None,
            sheets: Vec::new(),
            offer: None,
            filled: None,
            left_out: Vec::new(),
            joiners: Vec::new(),
        }
    }

    /// The initiative form of the next member of a group that rolls one by one, if any waits.
    fn next_joiner(&self, ctx: &Ctx) -> Option<Self> {
        let ((id, name), rest) = self.joiners.split_first()?;
        let mut next = Self::joined(RollTarget::One(*id), name, ctx);
        next.joiners = rest.to_vec();
        Some(next)
    }

    /// Leaving the add form's Name field on a roster sheet's name: the sheet fills the fields.
    fn fill_from_roster(&mut self, system: System) {
        if self.purpose != Purpose::Add || self.focus != 0 {
            return;
        }
        let name = self.fields[0].get();
        let Some(t) = self.sheets.iter().find(|t| same_name(&t.name, &name)) else {
            return;
        };
        let s = t.sheet;
        let opt = |v: Option<u8>| v.map(|v| v.to_string()).unwrap_or_default();
        let values = [
            ("Name", t.name.clone()),
            (
                "Side",
                if t.side == Side::Pc { "pc" } else { "npc" }.to_string(),
            ),
            ("Intuition", s.intuition.to_string()),
            ("Reaction", s.reaction.to_string()),
            ("Edge", s.edge.to_string()),
            ("Dice mod", s.dice_modifier.to_string()),
            ("IP bonus", s.ip_bonus.to_string()),
            ("Body", opt(s.body)),
            ("Willpower", opt(s.willpower)),
        ];
        for (label, v) in values {
            let mut all = self.fields.iter_mut().chain(self.left_out.iter_mut());
            if let Some(fl) = all.find(|f| f.label == label) {
                fl.set(&v);
                fl.error = None;
            }
        }
        let gear = Some(&t.gear)
            .filter(|g| g.system() == Some(system))
            .and_then(Gear::summary);
        self.offer = Some(match gear {
            Some(g) => format!(
                "Filled from the roster sheet {}, with its gear: {g}",
                t.name
            ),
            None => match t.gear.system().filter(|&g| g != system) {
                Some(other) => format!(
                    "Filled from the roster sheet {}; its {} gear stays on the sheet: this fight runs {}",
                    t.name,
                    other.name(),
                    system.name()
                ),
                None => format!("Filled from the roster sheet {}", t.name),
            },
        });
        self.filled = Some(t.name.clone());
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => return Outcome::Close,
            Action::NextField | Action::PrevField => {
                self.fill_from_roster(ctx.enc.system());
                self.error = edit_fields(&mut self.fields, &mut self.focus, action);
            }
            Action::Input(_) => {
                self.error = edit_fields(&mut self.fields, &mut self.focus, action);
                // Live check of the field being typed in (an empty field is fine while typing).
                if let Err((i, e)) = self.command()
                    && i == self.focus
                    && !e.starts_with("required")
                {
                    self.fields[i].error = Some(e);
                }
            }
            Action::Confirm => return self.submit(ctx),
            _ => {}
        }
        Outcome::Stay
    }

    /// Enter: a bad value stays in its field; a delay goes on to its trigger, a ready to its
    /// actions, a roll over one typed in from the table asks first; anything else is run.
    fn submit(&mut self, ctx: &Ctx) -> Outcome {
        for fl in &mut self.fields {
            fl.error = None;
        }
        let cmd = match self.command() {
            Ok(c) => c,
            Err((i, e)) => {
                if let Some(fl) = self.fields.get_mut(i) {
                    fl.error = Some(e);
                    self.focus = i;
                }
                return Outcome::Stay;
            }
        };
        // A member of a group that rolls one by one: the next member's form follows.
        if let Some(next) = self.next_joiner(ctx) {
            return Outcome::Run {
                cmd,
                then: Some(Mode::Form(next)),
            };
        }
        match (&self.purpose, cmd) {
            (Purpose::Delay(who), Command::Delay { ip, .. }) => {
                let who = *who;
                // A delay needs its trigger character: first check the IP, then choose.
                let delay = |trigger| Command::Delay { who, ip, trigger };
                if let Some(e) = ctx.refusal(delay(None)) {
                    self.fields[0].error = Some(e.clone());
                    return Outcome::Fail(e);
                }
                let mut items = vec![choose::Item::run(
                    "(no trigger yet: name it later)".into(),
                    delay(None),
                    ctx,
                )];
                items.extend(delay_triggers(who, ctx, |t| delay(Some(t))));
                let list = choose::State::open("Delay until after whom?".into(), items);
                Outcome::Open(Mode::Choose(list))
            }
            (Purpose::Ready(who), Command::Ready { ip, trigger, .. }) => {
                let purpose = picker::Purpose::Ready {
                    trigger,
                    ip,
                    chosen: Vec::new(),
                };
                Outcome::Open(Mode::Picker(picker::State::open(*who, purpose, ctx)))
            }
            (Purpose::Initiative(target), cmd @ Command::Roll { typed: None, .. }) => {
                match typed_roll_of(*target, ctx) {
                    Some((who, hits)) => Outcome::Open(Mode::Choose(choose::State::open(
                        format!("Roll {who} again? The table's roll ({hits} hits) is lost"),
                        vec![
                            choose::Item::new(
                                "no: keep the table's roll".into(),
                                choose::Choice::Back,
                            ),
                            choose::Item::run("yes: roll again".into(), cmd, ctx),
                        ],
                    ))),
                    None => Outcome::run(cmd),
                }
            }
            (Purpose::Add, cmd @ Command::Add(_)) => {
                let then = joins(&cmd, ctx).map(Mode::Form);
                // Filled from a roster sheet and still named after it: its gear comes along.
                let name = self.fields[0].get();
                let gear = self
                    .filled
                    .as_ref()
                    .filter(|filled| same_name(filled, &name))
                    .and_then(|filled| self.sheets.iter().find(|t| same_name(&t.name, filled)))
                    .map(|t| t.gear.clone())
                    .filter(|gear| !gear.is_empty());
                match gear {
                    Some(gear) => Outcome::Bring {
                        brings: vec![Bring { add: cmd, gear }],
                        then,
                    },
                    None => Outcome::Run { cmd, then },
                }
            }
            (Purpose::Damage(_), cmd) => match ctx.refused(cmd.clone()) {
                // A table whose damage is a roll of its own (a key bound to it): the GM pressing
                // `h` for damage is pointed to that roll, not only to a monitor's attribute.
                Some(e @ RuleError::NoMonitor { .. }) if let Some(way) = own_damage(&e, ctx) => {
                    let why = format!("{e}; {way}");
                    self.error = Some(why.clone());
                    Outcome::Fail(why)
                }
                _ => Outcome::run(cmd),
            },
            (_, cmd) => Outcome::run(cmd),
        }
    }

    /// The engine refused the form's command: its reason goes in the field it names, if it names
    /// one, else under the form.
    pub fn refused(&mut self, why: &str) {
        let lower = why.to_lowercase();
        let at = self
            .fields
            .iter()
            .position(|fl| lower.starts_with(&fl.label.to_lowercase()))
            .or_else(|| {
                lower
                    .starts_with("the name")
                    .then(|| self.fields.iter().position(|fl| fl.label == "Name"))
                    .flatten()
            });
        match at {
            Some(i) => {
                self.fields[i].error = Some(why.to_string());
                self.focus = i;
            }
            None => self.error = Some(why.to_string()),
        }
    }

    /// Where the field of this label is; the add and edit forms leave out what a system does
    /// not use.
    fn at(&self, label: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.label == label)
    }

    /// The number in the field of this label (`None` if empty or not on this form).
    fn num_of(&self, label: &str, required: bool) -> Result<Option<i32>, (usize, String)> {
        match self.at(label) {
            Some(i) => parse_num(&self.fields[i], required).map_err(|e| (i, e)),
            None => match self.left_out.iter().find(|f| f.label == label) {
                Some(f) => parse_num(f, false).map_err(|e| (0, format!("{label}: {e}"))),
                None => Ok(None),
            },
        }
    }

    /// The sheet of the add and edit forms; a field the form leaves out takes its default.
    fn sheet_input(&self) -> Result<SheetInput, (usize, String)> {
        let or = |v: Option<i32>, d: i32| v.unwrap_or(d);
        Ok(SheetInput {
            intuition: or(self.num_of("Intuition", true)?, 3),
            reaction: or(self.num_of("Reaction", true)?, 3),
            edge: or(self.num_of("Edge", false)?, 0),
            dice_modifier: or(self.num_of("Dice mod", false)?, 0),
            ip_bonus: or(self.num_of("IP bonus", false)?, 0),
            body: self.num_of("Body", false)?,
            willpower: self.num_of("Willpower", false)?,
        })
    }

    /// The form's command, or the field to blame and why.
    fn command(&self) -> Result<Command, (usize, String)> {
        let num = |i: usize, req: bool| parse_num(&self.fields[i], req).map_err(|e| (i, e));
        let text = |i: usize| self.fields[i].get();
        let yes = |i: usize| text(i) == "yes";
        let side = |i: usize| if text(i) == "pc" { Side::Pc } else { Side::Npc };
        let track = |i: usize| {
            if text(i) == "stun" {
                Track::Stun
            } else {
                Track::Physical
            }
        };
        let or = |v: Option<i32>, d: i32| v.unwrap_or(d);
        Ok(match &self.purpose {
            Purpose::Add => {
                if text(0).is_empty() {
                    return Err((0, "required".into()));
                }
                let count = self.num_of("Count", false)?;
                Command::Add(AddCombatant {
                    name: text(0),
                    side: side(1),
                    count,
                    sheet: self.sheet_input()?,
                    // The toggle kept from a group added before means nothing for one alone.
                    shared_roll: count.is_some() && self.at("Shared roll").is_some_and(yes),
                    hidden: self.at("Hidden").is_some_and(yes),
                })
            }
            Purpose::Edit(who) => Command::Edit {
                who: *who,
                name: Some(text(0)).filter(|n| !n.is_empty()),
                side: Some(side(1)),
                sheet: self.sheet_input()?,
            },
            Purpose::Initiative(target) => Command::Roll {
                target: *target,
                typed: num(0, false)?.map(|hits| (hits, yes(1))),
            },
            Purpose::InitiativeDice(target) => {
                match parse_faces(&self.fields[0]).map_err(|e| (0, e))? {
                    Some(dice) => Command::Sr2097(Sr2097Command::Initiative {
                        target: *target,
                        dice,
                    }),
                    None => Command::Roll {
                        target: *target,
                        typed: None,
                    },
                }
            }
            Purpose::Delay(who) => Command::Delay {
                who: *who,
                ip: or(num(0, true)?, 0),
                trigger: None,
            },
            Purpose::Ready(who) => {
                if ReadyTrigger::words(&text(0)).is_empty() {
                    return Err((0, "required: what the character waits for".into()));
                }
                Command::Ready {
                    who: *who,
                    ip: num(1, false)?,
                    // The form's label says "when": a typed one is not kept twice.
                    trigger: ReadyTrigger::words(&text(0)).to_string(),
                    actions: Vec::new(),
                }
            }
            Purpose::Damage(who) | Purpose::Heal(who) => {
                let boxes = or(num(0, true)?, 0);
                let damage = matches!(self.purpose, Purpose::Damage(_));
                // The form offers a gear track only for one character that has it.
                let gear = match (who.as_slice(), text(1).as_str()) {
                    ([one], "armor") => Some((*one, GearTrack::Armor)),
                    ([one], "matrix") => Some((*one, GearTrack::Matrix)),
                    _ => None,
                };
                match (gear, damage) {
                    (Some((who, track)), true) => {
                        Command::Anarchy(AnarchyCommand::Damage { who, track, boxes })
                    }
                    (Some((who, track)), false) => {
                        Command::Anarchy(AnarchyCommand::Repair { who, track, boxes })
                    }
                    (None, true) => Command::aimed(
                        who.clone(),
                        Each::Damage {
                            boxes,
                            track: track(1),
                        },
                    ),
                    (None, false) => Command::aimed(
                        who.clone(),
                        Each::Heal {
                            boxes,
                            track: track(1),
                        },
                    ),
                }
            }
            Purpose::Status(who) => {
                if text(0).is_empty() {
                    return Err((0, "required".into()));
                }
                let until = match text(1).as_str() {
                    "this turn" => Some(StatusUntil::ThisTurn),
                    "next turn" => Some(StatusUntil::NextTurn),
                    "round" => Some(StatusUntil::Round),
                    "never" => Some(StatusUntil::Never),
                    _ => None,
                };
                Command::aimed(
                    who.clone(),
                    Each::AddStatus {
                        text: text(0),
                        until,
                    },
                )
            }
        })
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let w = area.width.min(78);
        let inner_w = usize::from(w.saturating_sub(2));
        let mut lines: Vec<Line> = Vec::new();
        if let Some(about) = &self.about {
            for l in wrap(about, inner_w, 2) {
                lines.push(Line::styled(l, t.dim()));
            }
        }
        lines.extend(field_lines(&self.fields, self.focus, inner_w, t));
        if let Some(offer) = &self.offer {
            // Sheet names come from files: escaped where wrapped.
            for l in wrap(offer, inner_w, 2) {
                lines.push(Line::styled(l, t.dim()));
            }
        }
        let foot = match &self.error {
            Some(e) => (format!("✗ {e}"), t.error()),
            None => (keys_hint("submit", &self.fields), t.dim()),
        };
        for l in wrap(&foot.0, inner_w, 2) {
            lines.push(Line::styled(l, foot.1));
        }
        let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
        let r = centered(area, w, h);
        clear(r, buf);
        let block = pane_block(&self.title, true, t);
        let inner = block.inner(r);
        block.render(r, buf);
        draw_lines(&lines, inner, buf);
    }
}

/// Draws a form of the 2097 rooms: its fields, each with its error or hint, then the footer
/// lines (wrapped where too wide), as the other forms draw theirs.
pub(super) fn draw(
    title: &str,
    fields: &[Field],
    focus: usize,
    footer: Vec<Line<'static>>,
    app: &App,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = app.theme;
    let w = area.width.min(78);
    let inner_w = usize::from(w.saturating_sub(2));
    let mut lines = field_lines(fields, focus, inner_w, t);
    // A footer line too wide for the form (a refusal, a choice's words) wraps under itself, as
    // the other forms' last lines do: none is cut.
    for line in footer {
        match line.spans.as_slice() {
            [one] if line.width() > inner_w => {
                lines.extend(
                    wrap(&one.content, inner_w, 2)
                        .into_iter()
                        .map(|l| Line::from(Span::styled(l, one.style)).style(line.style)),
                );
            }
            _ => lines.push(line),
        }
    }
    let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let r = centered(area, w, h);
    clear(r, buf);
    let block = pane_block(title, true, t);
    let inner = block.inner(r);
    block.render(r, buf);
    draw_lines(&lines, inner, buf);
}

/// The initiative form's title and fields.
fn initiative_form(title: &str, pool: Option<u8>) -> (String, Vec<Field>) {
    let hint = match pool {
        Some(p) => format!("empty: srtrack rolls {p} dice; or the hits rolled at the table"),
        None => "empty: srtrack rolls; or the hits rolled at the table".into(),
    };
    (
        title.to_string(),
        vec![
            Field::text("Hits", hint, ""),
            Field::toggle("Glitch", "yes if the table's roll glitched", NO_YES, 0),
        ],
    )
}

/// Names for a form's title: one name, or how many are marked (listed above the fields).
fn title_names(who: &[CombatantId], s: &crate::encounter::State) -> String {
    match who {
        [one] => s.name(*one).to_string(),
        many => format!("{} marked", many.len()),
    }
}

/// Whose roll, typed in from the table, a new roll for `target` would replace, and its hits.
fn typed_roll_of(target: RollTarget, ctx: &Ctx) -> Option<(String, u8)> {
    let s = ctx.state();
    let id = match target {
        RollTarget::One(id) => id,
        RollTarget::Group(g) => *s.groups.get(g.0 as usize)?.members.first()?,
        RollTarget::All | RollTarget::Npcs => return None,
    };
    let c = s.get(id)?;
    let roll = c.initiative.as_ref()?;
    let name = match target {
        RollTarget::Group(g) => s.groups.get(g.0 as usize).map(|g| g.name.clone())?,
        _ => c.name.clone(),
    };
    roll.dice.is_none().then_some((name, roll.hits))
}

/// For a combatant added mid-fight: the initiative form that follows the add. Ids are indices,
/// so the new combatant's (or group's) id is the next one.
fn joins(cmd: &Command, ctx: &Ctx) -> Option<State> {
    let Command::Add(add) = cmd else { return None };
    let s = ctx.state();
    if !matches!(s.phase, Phase::Fight(_)) {
        return None;
    }
    let (target, name) = match add.count {
        None => (
            RollTarget::One(CombatantId(u32::try_from(s.combatants.len()).ok()?)),
            add.name.trim().to_string(),
        ),
        Some(count) if !add.shared_roll => {
            // Each rolls its own: a form for each member in turn, named as the add names them
            // (a count the engine refuses opens none).
            let size = ctx.enc.rules().limits.group_size;
            if count < size.min || count > size.max {
                return None;
            }
            let first = s.combatants.len();
            let base = add.name.trim();
            let mut members = (0..count).filter_map(|i| {
                let id = u32::try_from(first)
                    .ok()?
                    .checked_add(u32::try_from(i).ok()?)?;
                Some((CombatantId(id), crate::encounter::member_name(base, i + 1)))
            });
            let (id, name) = members.next()?;
            let mut form = State::joined(RollTarget::One(id), &name, ctx);
            form.joiners = members.collect();
            return Some(form);
        }
        Some(_) => (
            RollTarget::Group(GroupId(u32::try_from(s.groups.len()).ok()?)),
            add.name.trim().to_string(),
        ),
    };
    Some(State::joined(target, &name, ctx))
}

/// Tab and Shift-Tab move between a form's fields, round from the last to the first and back
/// (the one entered gives its value back: the next character replaces it; one entered by
/// going round keeps it, to type on); typing edits the focused one and clears its refusal. What
/// comes back is the form's last line, for every key that acts, Tab too: a character past the
/// field's limit is not taken, and says why; anything else clears the message there.
pub(super) fn edit_fields(
    fields: &mut [Field],
    focus: &mut usize,
    action: Action,
) -> Option<String> {
    let n = fields.len().max(1);
    match action {
        Action::NextField | Action::PrevField => {
            let forward = action == Action::NextField;
            let next = if forward {
                (*focus + 1) % n
            } else {
                (*focus + n - 1) % n
            };
            // Past the last field to the first, or back past the first to the last.
            let wrapped = if forward {
                next <= *focus
            } else {
                next >= *focus
            };
            *focus = next;
            if let Some(fl) = fields.get_mut(next) {
                if wrapped {
                    fl.keep();
                } else {
                    fl.enter();
                }
            }
        }
        Action::Input(req) => {
            if let Some(fl) = fields.get_mut(*focus) {
                fl.error = None;
                return fl.handle(req);
            }
        }
        _ => {}
    }
    None
}

/// The value column's least width in cells: a text longer than it scrolls inside it.
const TEXT_W: usize = 16;
/// The hint column's least width in cells: a toggle whose words would leave it less takes the
/// row, its hint under it.
const HINT_MIN: usize = 24;

/// The cells a toggle takes: every word, the chosen one in brackets, the others in spaces.
fn toggle_w(options: &[&str]) -> usize {
    options.iter().map(|o| crate::text::shown_len(o) + 2).sum()
}

/// The focused text in its column of `width` cells, scrolled to keep the cursor in sight: `…`
/// in place of what is hidden before it and of what is hidden after it, measured in cells (a
/// wide character is left out whole, never split); control characters escaped.
fn scrolled_spans(input: &Input, width: usize) -> Vec<Span<'static>> {
    let shown: Vec<String> = input
        .value()
        .chars()
        .map(|c| crate::text::escaped(c.encode_utf8(&mut [0; 4])).into_owned())
        .collect();
    let n = shown.len();
    let cur = input.cursor().min(n);
    // The cursor at the end stands on a blank cell.
    let cells = |i: usize| shown.get(i).map_or(1, |c| crate::text::shown_len(c));
    let upto = |from: usize, to: usize| (from..to).map(cells).sum::<usize>();
    let later = usize::from(cur + 1 < n);
    // The first character shown: the earliest that keeps the cursor in the column.
    let first = (0..=cur)
        .find(|&s| usize::from(s > 0) + upto(s, cur + 1) + later <= width)
        .unwrap_or(cur);
    let mut room = width.saturating_sub(usize::from(first > 0) + upto(first, cur + 1));
    let mut last = (cur + 1).min(n);
    if upto(last, n) <= room {
        last = n;
    } else {
        room = room.saturating_sub(1);
        while last < n && cells(last) <= room {
            room -= cells(last);
            last += 1;
        }
    }
    let text = |from: usize, to: usize| shown[from..to].concat();
    let mut spans = Vec::with_capacity(5);
    if first > 0 {
        spans.push(Span::raw("…"));
    }
    spans.push(Span::raw(text(first, cur)));
    spans.push(Span::styled(
        shown.get(cur).cloned().unwrap_or_else(|| " ".into()),
        ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::REVERSED),
    ));
    spans.push(Span::raw(text((cur + 1).min(n), last)));
    if last < n {
        spans.push(Span::raw("…"));
    }
    spans
}

/// A form's fields, one line each (hints and refusals wrap under themselves, none is cut):
/// label, value (the cursor in the focused one; toggles show every word), and the hint or the
/// reason the value is refused. The columns are measured in terminal cells and do not follow
/// what is typed: a text value scrolls inside its column, cut with `…`; a toggle too wide for
/// the column puts its hint under it.
pub(super) fn field_lines(
    fields: &[Field],
    focus: usize,
    inner_w: usize,
    t: crate::ui::theme::Theme,
) -> Vec<Line<'static>> {
    let widest = inner_w.saturating_sub(LABEL + 1 + HINT_MIN);
    let value_w = fields
        .iter()
        .filter_map(|fl| match &fl.value {
            // A cell more, so the hint stands apart from a chosen last word (`[armor]`).
            Value::Toggle { options, .. } => Some(toggle_w(options) + 1),
            Value::Text { .. } => None,
        })
        .filter(|w| *w <= widest)
        .fold(TEXT_W, usize::max);
    let hint_at = LABEL + value_w + 1;
    let hint_w = inner_w.saturating_sub(hint_at).max(10);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (i, fl) in fields.iter().enumerate() {
        let focused = i == focus;
        let mut spans = vec![Span::styled(
            format!("{}{:<12}", if focused { "▶" } else { " " }, fl.label),
            if focused { t.title() } else { t.base() },
        )];
        match &fl.value {
            Value::Text { input, fresh } if focused => {
                // A value the next key replaces shows as selected.
                if *fresh == Fresh::Given && !input.value().is_empty() {
                    spans.push(Span::styled(cut(input.value(), value_w), t.current()));
                } else {
                    spans.extend(scrolled_spans(input, value_w));
                }
            }
            Value::Text { input, .. } => spans.push(Span::raw(cut(input.value(), value_w))),
            Value::Toggle { options, at } => {
                for (k, o) in options.iter().enumerate() {
                    spans.push(if k == *at {
                        Span::styled(
                            format!("[{o}]"),
                            if focused { t.current() } else { t.title() },
                        )
                    } else {
                        Span::styled(format!(" {o} "), t.dim())
                    });
                }
            }
        }
        let used: usize = spans.iter().map(Span::width).sum();
        let (note, style) = match &fl.error {
            Some(e) => (format!("✗ {e}"), t.error()),
            None => (fl.hint.clone(), t.dim()),
        };
        // Hints and reasons wrap under themselves: none is cut. A row wider than its column
        // (a toggle of many words) has its hint start on the line under it.
        let mut parts = wrap(&note, hint_w, 0).into_iter();
        if used < hint_at
            && let Some(first) = parts.next()
        {
            spans.push(Span::raw(" ".repeat(hint_at - used)));
            spans.push(Span::styled(first, style));
        }
        lines.push(Line::from(spans));
        for more in parts.filter(|p| !p.is_empty()) {
            lines.push(Line::from(vec![
                Span::raw(" ".repeat(hint_at)),
                Span::styled(more, style),
            ]));
        }
    }
    lines
}
