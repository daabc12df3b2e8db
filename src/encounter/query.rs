//! Questions the GM asks of the encounter: why this order, what IP lies ahead, who may attack,
//! what attack is still to roll.

use std::cmp::Ordering;

use super::decide::Draft;
use super::error::RuleError;
use super::event::Event;
use super::history::{Encounter, Entry};
use super::model::{
    ActionUse, Combatant, CombatantId, PassMark, Phase, Reserve, State, TurnKind, Unit,
};
use super::system::anarchy::Narration;
use super::system::sr5::{Sr5Event, is_attack_action};
use crate::rules::HouseRules;
use crate::rules::initiative::{Decider, RollOff};

/// One cell of the IP grid: a pass of the round for one character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassCell {
    /// A pass gone by (or the current one): IP at the start of its turn, IP spent in it, IP
    /// bought with Edge in it and IP set aside in it for a delay or a ready.
    Seen {
        start: Option<u8>,
        spent: u8,
        edge: u8,
        reserved: u8,
    },
    /// A pass ahead: the IP it will have at the start of its turn if it spends nothing more.
    Ahead { projected: u8 },
    /// A pass ahead of a Downed character: it has no turn there to project.
    Downed,
    /// A pass ahead of a character in the fight with no initiative yet (joined, its roll left
    /// for later): no turn until it is rolled. `first` is the first such pass, where the grid
    /// says so.
    Unrolled { first: bool },
}

/// How much a character could hold back now, for a delay or a ready (the forms show it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReserveLimits {
    /// IP in the pool now.
    pub available: u8,
    /// The most a delay may hold: what the sub-turn could spend, and what the pool has.
    pub delay_max: u8,
    /// The most a ready may set aside: the reserve cap, and what the pool has.
    pub ready_max: u8,
}

impl Combatant {
    /// The initiative test's pool less the wound modifier, as every pool but the damage
    /// resistance test's (our ruling): the pool rolled, by srtrack or at the table. A pool the
    /// wounds empty rolls no die.
    pub fn initiative_pool(&self, rules: &HouseRules) -> u8 {
        let wound = rules.wound_modifier(self.damage.physical, self.damage.stun);
        let pool = i32::from(self.sheet.pool()).saturating_add(wound).max(0);
        u8::try_from(pool).unwrap_or(u8::MAX)
    }
}

impl State {
    /// How a character enters the tie steps: alone, or as its group when the group shares a roll.
    pub(crate) fn unit_of(&self, c: &Combatant) -> Unit {
        match c.group.and_then(|g| self.groups.get(g.0 as usize)) {
            Some(g) if g.shared_roll => Unit::Group(g.id),
            _ => Unit::One(c.id),
        }
    }

    /// Why `a` and `b` stand where they do in the order, in a sentence.
    pub fn explain_order(&self, a: CombatantId, b: CombatantId) -> String {
        let (Some(ca), Some(cb)) = (self.get(a), self.get(b)) else {
            return "no such combatant".into();
        };
        if !self.system.plays_in_passes() {
            return "Shadowrun: Anarchy plays in narration turns: there is no initiative order"
                .into();
        }
        if let Some(c) = [ca, cb].into_iter().find(|c| c.initiative.is_none()) {
            return self.no_initiative(c);
        }
        // Before `start` the order is the one the screen lists, as the rolls will give it.
        let setup = matches!(self.phase, Phase::Setup);
        let roster = if setup { self.roster() } else { Vec::new() };
        let place = |id: CombatantId| {
            if setup {
                roster.iter().position(|x| *x == id)
            } else {
                self.position(id)
            }
        };
        let (Some(pa), Some(pb)) = (place(a), place(b)) else {
            let missing = if place(a).is_none() { ca } else { cb };
            return format!("{} has no place in the order yet", missing.name);
        };
        if a == b {
            return format!("{} is one and the same", ca.name);
        }
        let (first, second) = if pa < pb { (ca, cb) } else { (cb, ca) };
        let mut parts = Vec::new();
        for c in [first, second] {
            if let Some(w) = c.waits {
                parts.push(format!(
                    "{} skipped its turn to take it {} {}'s, and moves there then",
                    c.name,
                    w.relative.word(),
                    self.name(w.target)
                ));
            }
            if let Some(m) = c.moved {
                // The one it chose may have left: its slot stays, and this place by it.
                let gone = if self.get(m.target).is_some_and(Combatant::is_present) {
                    ""
                } else {
                    " (who has since left the fight)"
                };
                parts.push(format!(
                    "{} changed initiative to {} {}{gone} in round {}, pass {}",
                    c.name,
                    m.relative.word(),
                    self.name(m.target),
                    m.round,
                    m.pass
                ));
            }
        }
        let (Some(kf), Some(ks)) = (self.order_key(first), self.order_key(second)) else {
            return format!("{} stands before {}", first.name, second.name);
        };
        let score = kf.score;
        // SR 2097's initiative is a sum of d6s: its tie step counts dice, SR5's its pool.
        let dice = self.system.sums_initiative_dice();
        let keys = match kf.compare(&ks) {
            (_, Decider::Score) => format!(
                "{} scored {}, {} scored {}",
                first.name, kf.score, second.name, ks.score
            ),
            (o, Decider::Glitch) => {
                let glitched = if o == Ordering::Less { second } else { first };
                format!(
                    "same score {score}; {} glitched, so goes last among them",
                    glitched.name
                )
            }
            (o, Decider::Pool) => {
                let (big, small) = if o == Ordering::Less {
                    (first, second)
                } else {
                    (second, first)
                };
                format!(
                    "same score {score}; {} has {}, {} to {}",
                    big.name,
                    if dice { "more dice" } else { "the bigger pool" },
                    self.order_key(big).map_or(0, |k| k.pool),
                    self.order_key(small).map_or(0, |k| k.pool)
                )
            }
            (o, Decider::Edge) => {
                let (high, low) = if o == Ordering::Less {
                    (first, second)
                } else {
                    (second, first)
                };
                format!(
                    "same score {score} and {}; {} has the higher Edge, {} to {}",
                    if dice {
                        format!("{} dice", kf.pool)
                    } else {
                        format!("pool {}", kf.pool)
                    },
                    high.name,
                    self.edge_max(high),
                    self.edge_max(low)
                )
            }
            (_, Decider::RollOff) => self.explain_rolloff(first, second, score, kf.pool),
        };
        parts.push(keys);
        parts.extend(self.explain_boost(first, second));
        format!(
            "{} stands before {}{}: {}",
            first.name,
            second.name,
            if setup {
                " in the order the rolls give at `start`"
            } else {
                ""
            },
            parts.join("; ")
        )
    }

    /// One with no initiative yet (not rolled, not typed in): how to give it one.
    fn no_initiative(&self, c: &Combatant) -> String {
        let typed = if self.system.sums_initiative_dice() {
            format!("`roll {} dice A B …` types in the table's dice", c.name)
        } else {
            format!("`roll {} hits N` types in the table's roll", c.name)
        };
        format!(
            "{} has no initiative yet: `roll {}` rolls it, or {typed}",
            c.name, c.name
        )
    }

    /// A boost of initiative (SR 2097) counting in this pass for either of two: who of them
    /// takes the turn first this pass (if both are still to act), and what decided it.
    fn explain_boost(&self, first: &Combatant, second: &Combatant) -> Option<String> {
        // Before `start` a boost counts in the fight's first pass: the order `start` will give.
        let (slice, (round, pass)) = (self.sr2097.as_ref()?, self.pass_now()?);
        let boost = |c: &Combatant| {
            slice
                .sheet(c.id)
                .boost_in(round, pass)
                .map(super::system::sr2097::Boost::sum)
        };
        if boost(first).is_none() && boost(second).is_none() {
            return None;
        }
        let key = |c: &Combatant| {
            let mut k = self.order_key(c)?;
            k.score = k.score.saturating_add(boost(c).unwrap_or(0));
            Some(k)
        };
        let (kf, ks) = (key(first)?, key(second)?);
        let score = |c: &Combatant, k: u8| match boost(c) {
            Some(b) => format!("{} boosted to {k} (+{b})", c.name),
            None => format!("{} {k}", c.name),
        };
        // A boosted character goes ahead only by beating the other; otherwise the order stands.
        let (o, decider) = kf.compare(&ks);
        let (lead, other) = if o == Ordering::Greater && boost(second).is_some() {
            (second, first)
        } else {
            (first, second)
        };
        let (kl, ko) = if lead.id == first.id {
            (kf, ks)
        } else {
            (ks, kf)
        };
        let why = match decider {
            Decider::Score => String::new(),
            Decider::Pool => format!(", same score, more dice {} to {}", kl.pool, ko.pool),
            Decider::Edge => format!(
                ", same score, higher Edge {} to {}",
                self.edge_max(lead),
                self.edge_max(other)
            ),
            Decider::Glitch | Decider::RollOff => ", same score: the order stands".to_string(),
        };
        Some(format!(
            "in round {round}, pass {pass} {}, {}: {} goes first if both are still to act{why}",
            score(first, kf.score),
            score(second, ks.score),
            lead.name
        ))
    }

    fn explain_rolloff(
        &self,
        first: &Combatant,
        second: &Combatant,
        score: u8,
        pool: u8,
    ) -> String {
        let (uf, us) = (self.unit_of(first), self.unit_of(second));
        if uf == us {
            return format!(
                "{} and {} share their group's roll, so they act in number order",
                first.name, second.name
            );
        }
        let tied = if self.system.sums_initiative_dice() {
            format!(
                "same score {score}, {pool} dice and Edge {}",
                self.edge_max(first)
            )
        } else {
            format!(
                "same score {score}, pool {pool} and Edge {}",
                self.edge_max(first)
            )
        };
        if matches!(self.phase, Phase::Setup) {
            return format!(
                "{tied}; a roll-off at `start` decides (till then, the order they were added)"
            );
        }
        let found = self.rolloffs.iter().rev().find_map(|r| {
            (r.involves(uf) && r.involves(us))
                .then(|| r.compare(uf, us).map(|(_, round)| (r, round)))
                .flatten()
        });
        if let Some((r, round)) = found {
            let (df, ds, again) = rolled(r, uf, us, round);
            return format!(
                "{tied}; roll-off {} {df}, {} {ds}{again}",
                first.name, second.name
            );
        }
        // Never rolled off against each other: one who joined later rolled off from the top
        // down and went before the first it beat, so before all who stand below that one.
        let (pf, ps) = (self.position(first.id), self.position(second.id));
        let place = |id: &CombatantId| {
            self.get(*id)
                .filter(|c| c.is_present())
                .and_then(|c| self.position(c.id))
        };
        let at = |u: Unit| match u {
            Unit::One(id) => place(&id),
            Unit::Group(g) => self
                .groups
                .get(g.0 as usize)
                .and_then(|g| g.members.iter().filter_map(place).min()),
        };
        let against = |me: Unit, won: bool| {
            self.rolloffs.iter().rev().find_map(|r| {
                r.rounds.first()?.iter().find_map(|(other, _)| {
                    let (o, round) = r.compare(me, *other)?;
                    let between = if won {
                        at(*other).is_some_and(|p| Some(p) < ps)
                    } else {
                        at(*other).is_some_and(|p| Some(p) > pf)
                    };
                    (between && (o == Ordering::Less) == won).then_some((r, *other, round))
                })
            })
        };
        // The first beat one who stands before the second, or the second lost to one who
        // stands after the first.
        let told = [
            (uf, true, first, second, "won a roll-off against", "before"),
            (us, false, second, first, "lost a roll-off to", "after"),
        ];
        for (me, won, who, other, did, side) in told {
            if let Some((r, x, round)) = against(me, won) {
                let (mine, theirs, again) = rolled(r, me, x, round);
                let x = self.unit_name(x);
                return format!(
                    "{tied}; {} {did} {x}, {mine} to {theirs}{again}, and {x} stands {side} {}",
                    who.name, other.name
                );
            }
        }
        format!("{tied}; placed by the order of arrival")
    }

    /// A unit of the tie steps by name: one character's, or its group's when it shares a roll.
    fn unit_name(&self, unit: Unit) -> &str {
        match unit {
            Unit::One(id) => self.name(id),
            Unit::Group(g) => self
                .groups
                .get(g.0 as usize)
                .map_or("?", |g| g.name.as_str()),
        }
    }

    /// Every present character in the order the screens list them: at an Anarchy table the
    /// seating, else the initiative order, then whoever has no place yet.
    pub fn roster(&self) -> Vec<CombatantId> {
        let mut seen = vec![false; self.combatants.len()];
        let mut ids: Vec<CombatantId> = Vec::with_capacity(self.combatants.len());
        // At an Anarchy table the seating is the order.
        let seated = self
            .narration()
            .map(|n| n.seating.as_slice())
            .unwrap_or_default();
        for c in seated
            .iter()
            .filter_map(|id| self.get(*id))
            .chain(self.ordered())
        {
            if !c.is_present() || seen[c.id.index()] {
                continue;
            }
            seen[c.id.index()] = true;
            ids.push(c.id);
        }
        let mut rest: Vec<&Combatant> = self.present().filter(|c| !seen[c.id.index()]).collect();
        if matches!(self.phase, Phase::Setup) {
            // Before the fight the rows stand as the rolls will order them (a roll-off waits
            // for `start`, so those still tied keep the order they were added); unrolled last.
            rest.sort_by(|a, b| match (self.order_key(a), self.order_key(b)) {
                (Some(x), Some(y)) => x.compare(&y).0,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            });
        }
        ids.extend(rest.into_iter().map(|c| c.id));
        ids
    }

    /// The catalogue actions `id` took in the character turn under way, in order.
    pub fn taken_in_turn(&self, id: CombatantId) -> impl Iterator<Item = &str> + '_ {
        self.fight()
            .into_iter()
            .flat_map(|f| f.taken.iter())
            .filter(move |(who, _)| *who == id)
            .map(|(_, name)| name.as_str())
    }

    /// IP `id` has spent in the character turn under way (0 when no turn is).
    pub fn spent_in_turn(&self, id: CombatantId) -> u8 {
        self.fight()
            .and_then(|f| f.spent.iter().find(|(who, _)| *who == id))
            .map_or(0, |(_, ip)| *ip)
    }

    /// The character whose turn is under way: a delay's sub-turn is part of its trigger's turn.
    pub fn turn_holder(&self) -> Option<CombatantId> {
        self.turn().map(|t| match t.kind {
            TurnKind::Own | TurnKind::Resumed => t.who,
            TurnKind::Delayed { trigger } => trigger,
        })
    }

    /// Who, besides the turn's holder, has spent IP in the turn under way, and how much.
    pub fn spent_by_others(&self) -> Vec<(CombatantId, u8)> {
        let holder = self.turn_holder();
        self.fight().map_or_else(Vec::new, |f| {
            f.spent
                .iter()
                .filter(|(who, ip)| Some(*who) != holder && *ip > 0)
                .copied()
                .collect()
        })
    }

    /// Whether `id` joined this pass with its slot gone by: it has no turn left in the pass,
    /// nor has it acted, so a skipped turn taken at it comes at the pass's end (our ruling).
    pub fn joined_this_pass(&self, id: CombatantId) -> bool {
        self.get(id).is_some_and(|c| c.mark == PassMark::Joined)
    }

    /// Whether the encounter is over (`end`).
    pub fn has_ended(&self) -> bool {
        matches!(self.phase, Phase::Ended { .. })
    }

    /// What `c` holds back (a delay or a ready) while the encounter goes on. The fold keeps
    /// what stood at `end`, so that undo finds it; once the fight is over nothing is held.
    pub fn held<'a>(&self, c: &'a Combatant) -> Option<&'a Reserve> {
        c.reserve.as_ref().filter(|_| !self.has_ended())
    }

    /// `c`'s delay, as [`Combatant::delay`], while the encounter goes on.
    pub fn delay_held(&self, c: &Combatant) -> Option<(u8, Option<CombatantId>)> {
        if self.has_ended() { None } else { c.delay() }
    }

    /// Where `c` stands in the pass under way; once the encounter has ended there is no pass,
    /// and every mark reads as none (the fold keeps the last pass's marks for undo).
    pub fn pass_mark(&self, c: &Combatant) -> PassMark {
        if self.has_ended() {
            PassMark::Waiting
        } else {
            c.mark
        }
    }

    /// The IP grid row of one character for the current round.
    pub fn pass_cells(&self, id: CombatantId, rules: &HouseRules) -> Vec<PassCell> {
        let Some(c) = self.get(id) else {
            return Vec::new();
        };
        // Once ended, every pass of the last round has gone by: its cells are what was spent.
        let current = if self.has_ended() {
            usize::MAX
        } else {
            self.fight().map_or(0, |f| usize::from(f.pass))
        };
        let round = self.fight().map_or(0, |f| f.round);
        // A lapsing reserve comes back to the pool, save a ready's IP lost with an earlier round.
        let mut projected =
            c.ip.saturating_add(c.reserve.as_ref().map_or(0, |r| r.returnable_ip(round)));
        let gains_this_pass = c.mark == PassMark::Waiting;
        let mut asked_roll = false;
        c.ledger
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let pass = i + 1;
                if pass < current || (pass == current && !gains_this_pass) {
                    PassCell::Seen {
                        start: l.start,
                        spent: l.spent,
                        edge: l.edge,
                        reserved: l.reserved,
                    }
                } else if c.is_downed() {
                    PassCell::Downed
                } else if c.initiative.is_none() && self.fight().is_some() {
                    let first = !asked_roll;
                    asked_roll = true;
                    PassCell::Unrolled { first }
                } else {
                    projected = projected.saturating_add(rules.ip_per_turn);
                    PassCell::Ahead { projected }
                }
            })
            .collect()
    }

    /// The wound modifier as the encounter's system shows it: in a system of initiative passes
    /// (SR5's, kept by 2097) the damage's; 0 at an Anarchy table (its text has none, and its
    /// tests never take it off). Every pane, report and the players' view ask here.
    pub fn wounds_shown(&self, c: &Combatant, rules: &HouseRules) -> i32 {
        if self.system.plays_in_passes() {
            rules.wound_modifier(c.damage.physical, c.damage.stun)
        } else {
            0
        }
    }

    /// IP the character has spent in the pass under way, in and out of its turns.
    pub fn spent_this_pass(&self, id: CombatantId) -> u8 {
        let pass = self.fight().map_or(0, |f| usize::from(f.pass));
        self.get(id)
            .and_then(|c| c.ledger.get(pass.wrapping_sub(1)))
            .map_or(0, |l| l.spent)
    }

    /// What `id` could hold back now, by the rules' caps and its pool.
    pub fn reserve_limits(&self, id: CombatantId, rules: &HouseRules) -> Option<ReserveLimits> {
        let c = self.get(id)?;
        Some(ReserveLimits {
            available: c.ip,
            delay_max: c.ip.min(rules.turn_spend_cap),
            ready_max: c.ip.min(rules.ready_reserve_cap),
        })
    }
}

/// The attack whose attacker is checked, as far as the check goes before a target is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack<'a> {
    /// An attack roll made with a weapon of the sheet's kit (SR5's `attack`), for the attack
    /// action that waits for it: the one named, else the melee weapon for a melee attack, else
    /// the firearm in hand, else the first.
    Armed(Option<&'a str>),
    /// A damage roll (SR 2097's `dmg`): its weapon or dice are checked with the damage.
    Damage,
}

impl Encounter {
    /// The Anarchy table as it stood when the encounter ended: the Plot Points each player held
    /// then, the Armor and Matrix left. The ended phase keeps only its turn, so the table is
    /// folded again from the entry that ended it, up to the end. None unless the encounter has
    /// ended, and ended at a table.
    pub fn table_at_end(&self) -> Option<Narration> {
        if !matches!(self.state().phase, Phase::Ended { .. }) {
            return None;
        }
        let applied = self.applied();
        let at = applied
            .iter()
            .rposition(|e| e.events.contains(&Event::EncounterEnded))?;
        let mut state = self.state_after(at);
        for e in applied[at]
            .events
            .iter()
            .take_while(|e| **e != Event::EncounterEnded)
        {
            state.apply(e, self.rules());
        }
        state.narration().cloned()
    }

    /// The Anarchy table: the one under way, or once the encounter has ended the one it left
    /// ([`Encounter::table_at_end`]). None where the encounter plays in passes.
    pub fn table_kept(&self) -> Option<std::borrow::Cow<'_, Narration>> {
        match self.state().narration() {
            Some(n) => Some(std::borrow::Cow::Borrowed(n)),
            None => self.table_at_end().map(std::borrow::Cow::Owned),
        }
    }

    /// Whether `who` may act now at all (not Downed, in the fight), asked as the commands that
    /// act ask it: a form opened for a character refuses in their words before it is filled.
    pub fn may_act(&self, who: CombatantId) -> Result<(), RuleError> {
        let mut draft = Draft::new(self.system(), self.state(), self.rules(), self.catalogue());
        draft.able(who).map(drop)
    }

    /// Whether `who` may make this attack now, whoever the target: the engine's own check of
    /// the attacker, which the attack commands make too, so a form that asks it before its
    /// target is named refuses in the command's words. Rolls nothing, changes nothing.
    pub fn may_attack(&self, who: CombatantId, attack: Attack<'_>) -> Result<(), RuleError> {
        let mut draft = Draft::new(self.system(), self.state(), self.rules(), self.catalogue())
            .with_history(self.applied());
        draft.attacker(who, attack).map(drop)
    }

    /// The attack still to roll for an attack action of the character turn under way (skipped
    /// with Esc, or refused for want of a weapon): its attacker, and the action it is rolled
    /// for, by name. Each attack action waits for an attack of its own and each attack its
    /// attacker rolls is the oldest's, as for the rounds the engine owes; the turn is the
    /// engine's (`Event::begins_character_turn`). Of several attackers, the one that took the
    /// latest.
    pub fn unrolled_attack(&self) -> Option<(CombatantId, String)> {
        let waiting = waiting_attacks(self.applied(), &self.rules().sr5);
        let (latest, _) = waiting.last()?;
        let (who, action) = waiting.iter().find(|(w, _)| w == latest)?;
        Some((*who, action.name.clone()?))
    }
}

/// The attack actions of the character turn under way that no attack was rolled for yet, oldest
/// first: each attack action waits for an attack of its own and each attack its attacker rolls
/// is the oldest's, as for the rounds the engine owes; the turn is the engine's
/// (`Event::begins_character_turn`). Read from the history, as the state keeps only those
/// that owe rounds.
pub(crate) fn waiting_attacks<'e>(
    applied: &'e [Entry],
    rules: &crate::rules::sr5::Sr5Rules,
) -> Vec<(CombatantId, &'e ActionUse)> {
    let mut turn: Vec<&Event> = Vec::new();
    'back: for entry in applied.iter().rev() {
        for e in entry.events.iter().rev() {
            if e.begins_character_turn() {
                break 'back;
            }
            turn.push(e);
        }
    }
    let mut waiting: Vec<(CombatantId, &ActionUse)> = Vec::new();
    for e in turn.into_iter().rev() {
        match e {
            Event::ActionSpent { who, action, .. } if is_attack_action(rules, action) => {
                waiting.push((*who, action));
            }
            Event::Sr5(Sr5Event::Attacked { attacker, .. }) => {
                if let Some(i) = waiting.iter().position(|(w, _)| w == attacker) {
                    waiting.remove(i);
                }
            }
            _ => {}
        }
    }
    waiting
}

/// The dice two units rolled in the round of a roll-off that parted them, and how many tied
/// rolls came before it, in words (empty when none did).
fn rolled(r: &RollOff<Unit>, a: Unit, b: Unit, round: usize) -> (u8, u8, String) {
    let die = |u| {
        r.rounds
            .get(round)
            .and_then(|dice| dice.iter().find(|(x, _)| *x == u))
            .map_or(0, |(_, d)| *d)
    };
    let again = if round > 0 {
        format!(
            " (after {round} tied roll{})",
            if round == 1 { "" } else { "s" }
        )
    } else {
        String::new()
    };
    (die(a), die(b), again)
}
