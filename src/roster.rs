//! The roster: named sheets kept between fights in `DATA/roster/NAME.ron`, PCs (the party) and
//! NPC templates, and the self-contained `add` commands `add … from template` and `add party`
//! become. Files are checked on load like saves; a bad one is reported and never overwritten.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::catalogue::Catalogue;
use crate::encounter::system::{sr5, sr2097};
use crate::encounter::{
    AddCombatant, Combatant, CombatantId, Command, Encounter, Event, Sheet, SheetInput, Side,
    State, System, same_name,
};
use crate::lang::RosterAdd;
use crate::rules::HouseRules;

/// The format of a roster file; a file of another version is refused, not guessed at.
pub const VERSION: u32 = 1;

/// A roster file bigger than this is not a sheet (a sheet is a few hundred bytes).
const MAX_BYTES: u64 = 64 * 1024;

/// One named sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Template {
    pub version: u32,
    pub name: String,
    pub side: Side,
    /// The rule system of the fight it was kept from.
    pub system: System,
    pub sheet: Sheet,
    /// Weapons, armor and Strength, for a fight of `system`. Sheets kept before gear was kept
    /// have none.
    #[serde(default, skip_serializing_if = "Gear::is_empty")]
    pub gear: Gear,
}

/// What a sheet carries into a fight of the system it was kept from: what its `weapon`,
/// `armor` and `strength` lines set. It comes in as those lines, one entry each, after the
/// `add` (for each member of a group), so the history never needs the roster.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Gear {
    #[default]
    None,
    Sr5 {
        armor: Option<i32>,
        weapons: Vec<sr5::WeaponInput>,
    },
    Sr2097 {
        strength: Option<i32>,
        /// PT and DR.
        armor: Option<(i32, i32)>,
        weapons: Vec<sr2097::WeaponInput>,
    },
}

impl Gear {
    /// A combatant's gear in an encounter of `system` (`die`: the sides of 2097's damage dice).
    pub fn of(state: &State, id: CombatantId, system: System, die: u8) -> Self {
        let gear = match system {
            System::Sr5 => state.sr5.kit(id).map_or(Self::None, |kit| Self::Sr5 {
                armor: kit.armor.map(i32::from),
                weapons: kit
                    .weapons
                    .iter()
                    .map(|w| sr5::WeaponInput {
                        name: w.name.clone(),
                        dv: i32::from(w.dv),
                        damage: w.damage,
                        ap: i32::from(w.ap),
                        accuracy: i32::from(w.accuracy),
                        ammo: w.ammo.map(|a| i32::from(a.capacity)),
                    })
                    .collect(),
            }),
            System::Sr2097 => state.sr2097.as_ref().map_or(Self::None, |x| {
                let sheet = x.sheet(id);
                Self::Sr2097 {
                    strength: sheet.strength.map(i32::from),
                    armor: sheet.armor.map(|a| (i32::from(a.pt), i32::from(a.dr))),
                    weapons: sheet
                        .weapons
                        .iter()
                        .map(|w| sr2097::WeaponInput {
                            name: w.name.clone(),
                            dice: i32::from(w.dice),
                            sides: i32::from(die),
                            st: match w.reach {
                                sr2097::Reach::Melee => None,
                                sr2097::Reach::Ranged { st } => Some(i32::from(st)),
                            },
                            track: w.track,
                        })
                        .collect(),
                }
            }),
            System::Anarchy => Self::None,
        };
        if gear.is_empty() { Self::None } else { gear }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            Self::None => true,
            Self::Sr5 { armor, weapons } => armor.is_none() && weapons.is_empty(),
            Self::Sr2097 {
                strength,
                armor,
                weapons,
            } => strength.is_none() && armor.is_none() && weapons.is_empty(),
        }
    }

    /// The system whose fights it is for.
    pub fn system(&self) -> Option<System> {
        match self {
            Self::None => None,
            Self::Sr5 { .. } => Some(System::Sr5),
            Self::Sr2097 { .. } => Some(System::Sr2097),
        }
    }

    /// The commands that put it on `who`, in the order a GM would type them.
    pub fn commands(&self, who: CombatantId) -> Vec<Command> {
        match self {
            Self::None => Vec::new(),
            Self::Sr5 { armor, weapons } => armor
                .map(|rating| sr5::Sr5Command::Armor { who, rating })
                .into_iter()
                .chain(weapons.iter().map(|w| sr5::Sr5Command::AddWeapon {
                    who,
                    weapon: w.clone(),
                }))
                .map(Command::Sr5)
                .collect(),
            Self::Sr2097 {
                strength,
                armor,
                weapons,
            } => strength
                .map(|strength| sr2097::Sr2097Command::Strength { who, strength })
                .into_iter()
                .chain(armor.map(|(pt, dr)| sr2097::Sr2097Command::Armor { who, pt, dr }))
                .chain(weapons.iter().map(|w| sr2097::Sr2097Command::AddWeapon {
                    who,
                    weapon: w.clone(),
                }))
                .map(Command::Sr2097)
                .collect(),
        }
    }

    /// "armor 9, Ares Predator" for lists; `None` when it carries nothing.
    pub fn summary(&self) -> Option<String> {
        let (mut parts, names): (Vec<String>, Vec<&str>) = match self {
            Self::None => return None,
            Self::Sr5 { armor, weapons } => (
                armor.iter().map(|a| format!("armor {a}")).collect(),
                weapons.iter().map(|w| w.name.as_str()).collect(),
            ),
            Self::Sr2097 {
                strength,
                armor,
                weapons,
            } => (
                strength
                    .iter()
                    .map(|s| format!("ST {s}"))
                    .chain(armor.iter().map(|(pt, dr)| format!("PT {pt}/DR {dr}")))
                    .collect(),
                weapons.iter().map(|w| w.name.as_str()).collect(),
            ),
        };
        parts.extend(names.into_iter().map(str::to_string));
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// A roster sheet brought into a fight: its `add`, then its gear on each combatant it adds.
#[derive(Debug, Clone, PartialEq)]
pub struct Bring {
    pub add: Command,
    pub gear: Gear,
}

impl Template {
    /// A combatant's sheet and gear, kept under `name` (its own name if `None`).
    pub fn of(c: &Combatant, enc: &Encounter, name: Option<&str>) -> Self {
        let system = enc.system();
        Self {
            version: VERSION,
            name: name.unwrap_or(&c.name).trim().to_string(),
            side: c.side,
            system,
            // Edge burned in a fight is gone for good: the sheet keeps the rating left.
            sheet: Sheet {
                edge: enc.state().edge_max(c),
                ..c.sheet
            },
            gear: Gear::of(enc.state(), c.id, system, enc.rules().sr2097.damage.die),
        }
    }

    /// Its `add` with its gear.
    pub fn bring(&self, count: Option<i32>, shared_roll: bool) -> Bring {
        Bring {
            add: self.add(count, shared_roll),
            gear: self.gear.clone(),
        }
    }

    /// The `add` command that brings it in: everything written out, so that the history never
    /// needs the roster.
    pub fn add(&self, count: Option<i32>, shared_roll: bool) -> Command {
        Command::Add(AddCombatant {
            name: self.name.clone(),
            side: self.side,
            sheet: SheetInput::from(self.sheet),
            count,
            shared_roll,
            hidden: false,
        })
    }

    /// "NPC, Intuition 3 Reaction 3 Edge 0, Body 4" for lists.
    pub fn summary(&self) -> String {
        let s = &self.sheet;
        let mut out = format!(
            "{}, Intuition {} Reaction {} Edge {}",
            self.side.label(),
            s.intuition,
            s.reaction,
            s.edge
        );
        if s.dice_modifier != 0 {
            out.push_str(&format!(" mod {:+}", s.dice_modifier));
        }
        if s.ip_bonus != 0 {
            out.push_str(&format!(" IP +{}", s.ip_bonus));
        }
        if let Some(b) = s.body {
            out.push_str(&format!(" Body {b}"));
        }
        if let Some(w) = s.willpower {
            out.push_str(&format!(" Willpower {w}"));
        }
        if let Some(gear) = self.gear.summary() {
            out.push_str(&format!("; {gear}"));
        }
        out
    }

    /// Pretty RON, as the file holds it.
    pub fn to_ron(&self) -> String {
        let mut text =
            ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// What `add` and the gear's lines would refuse of a sheet (a name too long, Intuition 99, a
/// weapon of DV 99): asked of the engine, in a fight of the sheet's own system.
fn check(t: &Template, rules: &Arc<HouseRules>) -> Result<(), String> {
    if t.gear.system().is_some_and(|s| s != t.system) {
        return Err(format!(
            "its gear is for {} fights, its sheet for {}",
            t.gear.system().map_or("", System::name),
            t.system.name()
        ));
    }
    let mut enc =
        Encounter::for_system(t.system, Arc::clone(rules), Arc::new(Catalogue::default()));
    // Adding to a fight not yet started and setting gear roll nothing.
    let mut dice = crate::rules::dice::RandomDice::new();
    execute_all(&mut enc, vec![t.bring(None, false)], &mut dice).map(|_| ())
}

/// A roster file's text as a sheet, checked; the reason in words if it is not one.
pub fn parse(text: &[u8], rules: &Arc<HouseRules>) -> Result<Template, String> {
    let text = std::str::from_utf8(text).map_err(|_| "not UTF-8 text".to_string())?;
    let text = crate::text::without_bom(text);
    let t: Template = ron::from_str(text).map_err(|e| {
        let ((line, col), words) = crate::text::ron_error_words(&e, text);
        // A file that ends early says where in its words already.
        if crate::text::ron_ends_early(&e, text).is_some() {
            format!("not a roster sheet: {words}")
        } else {
            format!("not a roster sheet: {line}:{col}: {words}")
        }
    })?;
    if t.version != VERSION {
        return Err(format!(
            "roster format {} is not one this srtrack reads (it reads {VERSION})",
            t.version
        ));
    }
    check(&t, rules)?;
    Ok(t)
}

/// One file of the roster directory, read or not.
#[derive(Debug, Clone)]
pub struct Listed {
    pub path: PathBuf,
    /// The file name without `.ron`.
    pub stem: String,
    pub sheet: Result<Template, String>,
}

/// The roster directory of a data directory.
#[derive(Debug, Clone)]
pub struct Roster {
    pub dir: PathBuf,
    rules: Arc<HouseRules>,
}

impl Roster {
    pub fn in_data_dir(data_dir: &Path, rules: Arc<HouseRules>) -> Self {
        Self {
            dir: data_dir.join("roster"),
            rules,
        }
    }

    fn read(&self, path: &Path) -> Result<Template, String> {
        let bytes = crate::save::read::read(path, MAX_BYTES).map_err(|e| {
            e.message("a roster sheet", |size| {
                format!("{size}: too big for a roster sheet")
            })
        })?;
        parse(&bytes, &self.rules)
    }

    /// Every `.ron` file of the roster, by name; the unreadable ones with the reason.
    pub fn list(&self) -> Vec<Listed> {
        let Ok(dir) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<Listed> = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .map(|path| Listed {
                stem: crate::save::store::Store::name_of(&path),
                sheet: self.read(&path),
                path,
            })
            .collect();
        out.sort_by_key(|l| l.stem.to_lowercase());
        Self::one_sheet_a_name(&mut out);
        out
    }

    /// A name is one sheet's: a second file holding a sheet of the same name (a copy of
    /// `Ganger.ron` as `Dup.ron`) is listed as unreadable, naming the file that keeps it, so
    /// that `add NAME from template` never picks one of two unsaid. The file named after the
    /// sheet keeps the name; else the first in the list.
    fn one_sheet_a_name(out: &mut [Listed]) {
        let holder = |out: &[Listed], name: &str| {
            let holds = |l: &Listed| l.sheet.as_ref().is_ok_and(|t| same_name(&t.name, name));
            out.iter()
                .position(|l| holds(l) && same_name(&l.stem, name))
                .or_else(|| out.iter().position(holds))
        };
        for i in 0..out.len() {
            let Ok(name) = out[i].sheet.as_ref().map(|t| t.name.clone()) else {
                continue;
            };
            if let Some(keeper) = holder(out, &name).filter(|&k| k != i) {
                let file = crate::save::store::Store::name_of(&out[keeper].path);
                out[i].sheet = Err(format!(
                    "it holds the sheet \"{name}\", as {file}.ron does: a name is one sheet's, so rename this one (its `name`) or remove it"
                ));
            }
        }
    }

    /// The good sheets, by name.
    pub fn templates(&self) -> Vec<Template> {
        self.list()
            .into_iter()
            .filter_map(|l| l.sheet.ok())
            .collect()
    }

    /// The file a sheet of this name is in: by the name it holds, else by its file name.
    fn listed(&self, name: &str) -> Option<Listed> {
        let all = self.list();
        let by_sheet = all
            .iter()
            .position(|l| l.sheet.as_ref().is_ok_and(|t| same_name(&t.name, name)));
        let at = by_sheet.or_else(|| all.iter().position(|l| same_name(&l.stem, name)))?;
        all.into_iter().nth(at)
    }

    /// Why no sheet can be kept or found at all: the roster directory's name taken by a file.
    pub fn unusable(&self) -> Option<String> {
        let meta = std::fs::metadata(&self.dir).ok()?;
        (!meta.is_dir()).then(|| {
            format!(
                "{} is a file, not a directory: the roster keeps its sheets in a directory of that name (move the file away)",
                self.dir.display()
            )
        })
    }

    fn unknown(&self, name: &str) -> String {
        // Echoed as every refusal echoes what it refuses: 40 characters at most.
        let name = crate::text::excerpt(name);
        if let Some(why) = self.unusable() {
            return format!("no sheet \"{name}\": {why}");
        }
        let all = self.list();
        let names: Vec<String> = all
            .iter()
            .filter_map(|l| l.sheet.as_ref().ok().map(|t| t.name.clone()))
            .collect();
        if all.is_empty() {
            format!(
                "no sheet \"{name}\" in the roster, which is empty: `srtrack roster save SAVE NAME` keeps one"
            )
        } else if names.is_empty() {
            let files = match all.len() {
                1 => "its one file cannot".to_string(),
                n => format!("none of its {n} files can"),
            };
            format!(
                "no sheet \"{name}\" in the roster: {files} be read (`srtrack roster list` says why)"
            )
        } else {
            format!(
                "no sheet \"{name}\" in the roster: it holds {}",
                names.join(", ")
            )
        }
    }

    /// One sheet by name (ignoring case); a bad file of that name is reported.
    pub fn find(&self, name: &str) -> Result<Template, String> {
        let listed = self.listed(name).ok_or_else(|| self.unknown(name))?;
        listed.sheet.map_err(|e| {
            format!(
                "the roster sheet {} cannot be read: {e}",
                listed.path.display()
            )
        })
    }

    /// Writes a sheet (atomically). One of the same name is replaced only if `replace`; a file
    /// that cannot be read is never written over.
    pub fn put(&self, t: &Template, replace: bool) -> Result<PathBuf, String> {
        crate::save::store::Store::check_name(&t.name).map_err(|_| {
            format!(
                "\"{}\" cannot name a roster file: use letters, digits, spaces, - or _",
                crate::text::excerpt(&t.name)
            )
        })?;
        check(t, &self.rules)?;
        if let Some(why) = self.unusable() {
            return Err(why);
        }
        let path = match self.listed(&t.name) {
            Some(l) => match &l.sheet {
                Err(e) => {
                    return Err(format!(
                        "{} cannot be read ({e}): srtrack leaves it as it is; mend it or `srtrack roster remove {}`",
                        l.path.display(),
                        l.stem
                    ));
                }
                Ok(old) if !replace => {
                    return Err(format!(
                        "the roster already holds \"{}\": --replace writes over it",
                        old.name
                    ));
                }
                Ok(_) => l.path,
            },
            None => self.dir.join(format!("{}.ron", t.name)),
        };
        std::fs::create_dir_all(&self.dir).map_err(|e| {
            format!(
                "cannot create {}: {}",
                self.dir.display(),
                crate::save::io_message(&e)
            )
        })?;
        crate::save::write_atomic(&path, &t.to_ron()).map_err(|e| {
            format!(
                "cannot write {}: {}",
                path.display(),
                crate::save::io_message(&e)
            )
        })?;
        Ok(path)
    }

    /// Removes a sheet's file (a bad one too, by its file name).
    pub fn remove(&self, name: &str) -> Result<PathBuf, String> {
        let listed = self.listed(name).ok_or_else(|| self.unknown(name))?;
        if listed.path.is_dir() {
            // A directory named like a sheet holds what srtrack did not write: not its to remove.
            return Err(format!(
                "{} is a directory, not a roster sheet: srtrack removes only the sheets it keeps",
                listed.path.display()
            ));
        }
        std::fs::remove_file(&listed.path).map_err(|e| {
            format!(
                "cannot remove {}: {}",
                listed.path.display(),
                crate::save::io_message(&e)
            )
        })?;
        Ok(listed.path)
    }

    /// The sheets a roster line brings in, each self-contained.
    pub fn brings(&self, add: &RosterAdd) -> Result<Vec<Bring>, String> {
        match add {
            RosterAdd::Template {
                name,
                count,
                shared_roll,
            } => Ok(vec![self.find(name)?.bring(*count, *shared_roll)]),
            RosterAdd::Party => {
                let all = self.list();
                // A file that cannot be read may be a PC's (unless it says it is an NPC's): the
                // party comes whole or not at all, never a runner short.
                let unread: Vec<&Listed> = all
                    .iter()
                    .filter(|l| l.sheet.is_err() && side_of(&l.path) != Some(Side::Npc))
                    .collect();
                if let Some(first) = unread.first() {
                    return Err(party_unread(&unread, first));
                }
                let party: Vec<Bring> = all
                    .iter()
                    .filter_map(|l| l.sheet.as_ref().ok())
                    .filter(|t| t.side == Side::Pc)
                    .map(|t| t.bring(None, false))
                    .collect();
                if party.is_empty() {
                    Err(
                        "the roster holds no PC sheet: `srtrack roster save SAVE NAME` keeps one"
                            .into(),
                    )
                } else {
                    Ok(party)
                }
            }
        }
    }
}

/// The side a roster file says it holds, read alone: a sheet refused for its numbers still
/// tells whether it is a PC's. `None` when even that cannot be read.
fn side_of(path: &Path) -> Option<Side> {
    #[derive(Deserialize)]
    struct SideOnly {
        side: Side,
    }
    let bytes = crate::save::read::read(path, MAX_BYTES).ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    ron::from_str::<SideOnly>(crate::text::without_bom(text))
        .ok()
        .map(|s| s.side)
}

/// Why `add party` is refused whole: the files that may be PC sheets and cannot be read, and
/// the first one's reason.
fn party_unread(unread: &[&Listed], first: &Listed) -> String {
    let file = |l: &Listed| {
        let name = l.path.file_name().map_or_else(
            || l.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        crate::text::escaped_unseen(&name).into_owned()
    };
    let why = first.sheet.as_ref().err().map_or("", String::as_str);
    let told = if let [one] = unread {
        format!(
            "the PC sheet {} cannot be read ({why}): mend it or `srtrack roster remove {}`",
            file(one),
            crate::text::escaped_unseen(&one.stem)
        )
    } else {
        let files: Vec<String> = unread.iter().map(|l| file(l)).collect();
        format!(
            "the PC sheets {} cannot be read ({}: {why}): mend them or remove them (`srtrack roster list` says why)",
            files.join(", "),
            file(first)
        )
    };
    format!("`add party` brings every PC sheet or none, and {told}")
}

impl Bring {
    /// What a fight of `system` leaves on the roster sheet: its gear, when it is another
    /// system's (an SR5 pistol means nothing at a 2097 table), told so the GM does not look
    /// for it. `None` when the gear comes too, or there is none.
    pub fn gear_left_in(&self, system: System) -> Option<String> {
        let gear = self.gear.system()?;
        if gear == system {
            return None;
        }
        let Command::Add(add) = &self.add else {
            return None;
        };
        Some(format!(
            "{}'s {} gear stays on the roster sheet: this fight runs {}",
            add.name,
            gear.name(),
            system.name()
        ))
    }
}

/// Brings sheets in as one: each `add`, then its gear on every combatant that `add` made (in a
/// fight of the gear's system; a fight of another system takes the sheet alone). All of it, or
/// (if one line is refused) none, the state and the history left as they were; the entries
/// make one undo step. Returns how many entries were recorded.
pub fn execute_all(
    enc: &mut Encounter,
    brings: Vec<Bring>,
    dice: &mut dyn crate::rules::Dice,
) -> Result<usize, String> {
    let mut trial = enc.clone();
    let from = trial.cursor();
    for b in brings {
        let added: Vec<CombatantId> = crate::lang::execute(&mut trial, b.add, dice)
            .map_err(|e| e.to_string())?
            .events
            .iter()
            .filter_map(|e| match e {
                Event::CombatantAdded { id, .. } => Some(*id),
                _ => None,
            })
            .collect();
        if b.gear.system() != Some(trial.system()) {
            continue;
        }
        for who in added {
            for c in b.gear.commands(who) {
                crate::lang::execute(&mut trial, c, dice).map_err(|e| e.to_string())?;
            }
        }
    }
    // One line typed, one step: undo and redo take the sheets and their gear together.
    trial.join_since(from);
    *enc = trial;
    Ok(enc.cursor() - from)
}
