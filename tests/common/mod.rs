//! A table to play scripted fights on: commands in the command language, dice scripted.
#![allow(dead_code)]

use std::sync::Arc;

use srtrack::catalogue::{
    ActionDef, ActionGroup, ActionKind, AttackRole, Catalogue, Effect, Restriction, TestBy,
};
use srtrack::encounter::{Combatant, Encounter, Event, RuleError, State, System};
use srtrack::lang::{self, Line};
use srtrack::rules::{HouseRules, ScriptedDice};

pub struct Table {
    pub enc: Encounter,
}

fn action(name: &str, group: ActionGroup, kind: ActionKind) -> ActionDef {
    ActionDef {
        name: name.into(),
        group,
        kind,
        test: None,
        test_by: TestBy::Actor,
        marks: None,
        threshold: None,
        ammo: None,
        restrictions: Vec::new(),
        effect: None,
        attack: None,
        page: None,
        summary: format!("{name} for tests"),
    }
}

/// A few actions with the shapes the rules care about.
pub fn test_catalogue() -> Catalogue {
    let mut full_defense = action(
        "Full Defense",
        ActionGroup::Interrupt,
        ActionKind::Interrupt { initiative: -10 },
    );
    full_defense.effect = Some(Effect::Start("Full Defense".into()));
    let dodge = action(
        "Dodge",
        ActionGroup::Interrupt,
        ActionKind::Interrupt { initiative: -5 },
    );
    let mut drop_prone = action("Drop Prone", ActionGroup::Free, ActionKind::Free);
    drop_prone.effect = Some(Effect::Start("Prone".into()));
    drop_prone.restrictions = vec![Restriction::NotWhile("Surprised".into())];
    let mut stand_up = action("Stand Up", ActionGroup::Simple, ActionKind::Simple);
    stand_up.effect = Some(Effect::End("Prone".into()));
    stand_up.restrictions = vec![Restriction::OnlyWhile("Prone".into())];
    let mut take_aim = action("Take Aim", ActionGroup::Simple, ActionKind::Simple);
    take_aim.effect = Some(Effect::Stack("Take Aim".into()));
    let mut fire_gun = action("Fire Gun", ActionGroup::Simple, ActionKind::Simple);
    fire_gun.effect = Some(Effect::Uses("Take Aim".into()));
    fire_gun.attack = Some(AttackRole::Attack);
    let mut sprint = action("Sprint", ActionGroup::Complex, ActionKind::Complex);
    sprint.restrictions = vec![Restriction::NotWhile("Prone".into())];
    let mut full_auto = action(
        "Fire Full-Auto Weapon (6 Bullets)",
        ActionGroup::Simple,
        ActionKind::Simple,
    );
    full_auto.ammo = Some(6);
    full_auto.attack = Some(AttackRole::Attack);
    let mut evasive = action(
        "Evasive Driving",
        ActionGroup::Chase,
        ActionKind::Interrupt { initiative: -10 },
    );
    evasive.effect = Some(Effect::Start("Evasive Driving".into()));
    let mut melee = action("Melee Attack", ActionGroup::Complex, ActionKind::Complex);
    melee.attack = Some(AttackRole::Attack);
    Catalogue::from_actions(vec![
        full_defense,
        dodge,
        drop_prone,
        stand_up,
        take_aim,
        sprint,
        fire_gun,
        melee,
        evasive,
        action("Control Device", ActionGroup::Matrix, ActionKind::Variable),
        action("Matrix Search", ActionGroup::Matrix, ActionKind::Special),
        full_auto,
        action("Reload Firearm", ActionGroup::Complex, ActionKind::Complex),
        action(
            "Block",
            ActionGroup::Interrupt,
            ActionKind::Interrupt { initiative: -5 },
        ),
        action(
            "Intercept",
            ActionGroup::Interrupt,
            ActionKind::Interrupt { initiative: -5 },
        ),
        action(
            "Parry",
            ActionGroup::Interrupt,
            ActionKind::Interrupt { initiative: -5 },
        ),
    ])
}

/// Every table's fight must save and load as it is: a command whose entry the load would
/// refuse (its text and its events disagreeing, say) makes a save that no longer opens.
impl Drop for Table {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let text = srtrack::save::SaveFile::of(&self.enc, "t", "2026-01-01T00:00:00Z").to_ron();
        let back = srtrack::save::file::parse(text.as_bytes(), "t.ron")
            .and_then(|save| save.into_encounter("t.ron", Arc::clone(self.enc.shared().1)))
            .unwrap_or_else(|e| panic!("the table's fight does not load back: {e}"));
        assert_eq!(
            back.history(),
            self.enc.history(),
            "the history loads back changed"
        );
        assert_eq!(
            back.state(),
            self.enc.state(),
            "the state loads back changed"
        );
    }
}

impl Table {
    /// The log lines of the last command.
    pub fn last_lines(&self) -> Vec<String> {
        let log = srtrack::report::log_lines(&self.enc);
        let last = log.last().map_or(0, |(i, _)| *i);
        log.into_iter()
            .filter(|(i, _)| *i == last)
            .map(|(_, l)| l)
            .collect()
    }

    pub fn new() -> Self {
        Self {
            enc: Encounter::new(Arc::new(HouseRules::embedded()), Arc::new(test_catalogue())),
        }
    }

    /// An empty table under house rules of its own (the built-in ones, changed by `change`).
    pub fn with_rules(change: impl FnOnce(&mut HouseRules)) -> Self {
        let mut rules = HouseRules::embedded();
        change(&mut rules);
        Self {
            enc: Encounter::new(Arc::new(rules), Arc::new(test_catalogue())),
        }
    }

    /// An empty table running another rule system.
    pub fn under(system: System) -> Self {
        Self {
            enc: Encounter::for_system(
                system,
                Arc::new(HouseRules::embedded()),
                Arc::new(test_catalogue()),
            ),
        }
    }

    /// Runs one line with these dice; panics on a parse error, returns the rule outcome.
    pub fn try_run(&mut self, line: &str, dice: &[u8]) -> Result<Vec<Event>, RuleError> {
        let parsed = self
            .read(line)
            .unwrap_or_else(|e| panic!("`{line}` is not read: {e}"));
        let mut d = ScriptedDice::new(dice.iter().copied());
        let out = match parsed {
            Line::Command(c) => lang::execute(&mut self.enc, c, &mut d).map(|e| e.events.clone()),
            Line::Undo(n) => {
                self.enc.undo(n);
                Ok(Vec::new())
            }
            Line::Redo(n) => {
                self.enc.redo(n);
                Ok(Vec::new())
            }
            Line::Odds(q) => srtrack::report::sr5::odds_answer(&self.enc, &q).map(|_| Vec::new()),
            Line::Odds2097(q) => srtrack::report::sr2097::odds_answer(&q, &self.enc.rules().sr2097)
                .map(|_| Vec::new()),
            Line::Why(..) | Line::AnarchyOdds(_) | Line::Nothing => Ok(Vec::new()),
            Line::FromRoster(r) => panic!("`{line}` asks for the roster ({r:?}): a Table has none"),
        };
        assert_eq!(d.remaining(), 0, "`{line}` left scripted dice unrolled");
        out
    }

    /// Reads `line` as the command line and `exec` read it.
    fn read(&self, line: &str) -> Result<Line, String> {
        lang::read(line, &self.enc)
    }

    /// The sentence a line is refused with as it is read (a wrong word, a question of another
    /// system, an attack roll's attacker the engine refuses), nothing changed.
    pub fn unread(&mut self, line: &str) -> String {
        let before = self.enc.state().clone();
        let err = self
            .read(line)
            .expect_err(&format!("`{line}` should have been refused as it is read"));
        assert_eq!(
            self.enc.state(),
            &before,
            "reading a line changed the state"
        );
        err
    }

    pub fn run(&mut self, line: &str) -> Vec<Event> {
        self.roll(line, &[])
    }

    pub fn roll(&mut self, line: &str, dice: &[u8]) -> Vec<Event> {
        self.try_run(line, dice)
            .unwrap_or_else(|e| panic!("`{line}` was refused: {e}"))
    }

    pub fn refuse(&mut self, line: &str) -> RuleError {
        let before = self.enc.state().clone();
        let len = self.enc.history().len();
        let err = self
            .try_run(line, &[])
            .expect_err(&format!("`{line}` should have been refused"));
        assert_eq!(
            self.enc.state(),
            &before,
            "a refused command changed the state"
        );
        assert_eq!(
            self.enc.history().len(),
            len,
            "a refused command entered the history"
        );
        err
    }

    pub fn state(&self) -> &State {
        self.enc.state()
    }

    pub fn c(&self, name: &str) -> &Combatant {
        self.state()
            .find(name)
            .unwrap_or_else(|| panic!("no combatant {name}"))
    }

    pub fn ip(&self, name: &str) -> u8 {
        self.c(name).ip
    }

    /// Whose turn it is, by name.
    pub fn turn(&self) -> String {
        self.state()
            .turn()
            .map(|t| self.state().name(t.who).to_string())
            .unwrap_or_default()
    }

    pub fn round_pass(&self) -> (u32, u8) {
        let f = self.state().fight().expect("in a fight");
        (f.round, f.pass)
    }

    pub fn order(&self) -> Vec<String> {
        self.state().ordered().map(|c| c.name.clone()).collect()
    }

    /// Three combatants with typed-in rolls, fight started: Ana (3 hits), Bob (2), Cy (1).
    pub fn three() -> Self {
        let mut t = Self::new();
        t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
        t.run("add Bob pc int 3 rea 3 edge 1 body 3 will 3");
        t.run("add Cy int 3 rea 2 edge 2 body 4 will 2");
        t.run("roll Ana hits 3");
        t.run("roll Bob hits 2");
        t.run("roll Cy hits 1");
        t.run("start");
        t
    }
}

/// A setup line of `add` or `edit` in the words `system` takes: at an Anarchy table, which has
/// no initiative, without `int`, `rea`, `mod`, `ip` (each with its number) and `shared`.
pub fn sheet_line(system: System, line: &str) -> String {
    if system != System::Anarchy {
        return line.to_string();
    }
    let mut out: Vec<&str> = Vec::new();
    let mut words = line.split(' ');
    while let Some(w) = words.next() {
        match w {
            "int" | "rea" | "mod" | "ip" => {
                words.next();
            }
            "shared" => {}
            _ => out.push(w),
        }
    }
    out.join(" ")
}
