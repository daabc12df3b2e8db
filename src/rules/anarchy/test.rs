//! Anarchy tests: skill dice + attribute dice + modifiers against an opposing pool; 5s and 6s
//! are hits; the test succeeds when its hits equal or beat the opposing hits, never on zero
//! hits. Edge before the roll adds a die and counts 4s; Edge after re-rolls what did not hit.
//! Teamwork adds the assistants' hits, capped. Every test can be rolled, typed in from the
//! table's dice, and has its exact odds before the roll.

use serde::{Deserialize, Serialize};

use super::glitch::{self, Fate};
use super::{GlitchDieRules, TestRules};
use crate::rules::Dice;

/// Where a test's dice come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pool {
    /// A pool already added up.
    Dice(u8),
    /// Skill + linked attribute + modifiers.
    Skill {
        skill: u8,
        attribute: u8,
        modifier: i8,
    },
    /// Untrained: the skill is not on the sheet, so the linked attribute alone.
    Untrained { attribute: u8, modifier: i8 },
    /// Attribute-only: two attributes, or one twice.
    Attributes { first: u8, second: u8, modifier: i8 },
}

impl Pool {
    /// The dice it gives, never fewer than none.
    pub fn dice(self) -> u8 {
        let sum = match self {
            Pool::Dice(n) => i16::from(n),
            Pool::Skill {
                skill,
                attribute,
                modifier,
            } => i16::from(skill) + i16::from(attribute) + i16::from(modifier),
            Pool::Untrained {
                attribute,
                modifier,
            } => i16::from(attribute) + i16::from(modifier),
            Pool::Attributes {
                first,
                second,
                modifier,
            } => i16::from(first) + i16::from(second) + i16::from(modifier),
        };
        u8::try_from(sum.max(0)).unwrap_or(u8::MAX)
    }

    /// The most teamwork dice a leader with this pool may take: the skill, the higher attribute
    /// of an attribute-only test, none untrained; unknown for a pool given as a bare number.
    pub fn teamwork_cap(self) -> Option<u8> {
        match self {
            Pool::Dice(_) => None,
            Pool::Skill { skill, .. } => Some(skill),
            Pool::Untrained { .. } => Some(0),
            Pool::Attributes { first, second, .. } => Some(first.max(second)),
        }
    }
}

/// When Edge is spent on a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edge {
    None,
    /// Announced before the roll: extra dice, and 4s count as hits.
    Before,
    /// After the roll: every die that did not hit is rolled again (5s and 6s count).
    After,
}

/// A test as the GM states it, before any die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    pub pool: Pool,
    /// The assistants' hits (teamwork), before the cap.
    pub teamwork: u8,
    pub opposing: Pool,
    pub edge: Edge,
    /// A glitch die bought before the roll.
    pub glitch_die: bool,
}

/// A test the rules cannot take as typed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TestError {
    #[error(
        "teamwork needs the leader's skill to cap the extra dice: write the pool as SKILL+ATTRIBUTE (or attr A+B)"
    )]
    TeamworkNeedsSkill,
    #[error(
        "an untrained leader takes no teamwork dice, so `team N` would add none: leave it out, or give the leader's skill (SKILL+ATTRIBUTE)"
    )]
    TeamworkUntrained,
    #[error(
        "{what}: type {}, not {got}",
        crate::text::counted(*expected, "die", "dice")
    )]
    DiceCount {
        what: &'static str,
        expected: usize,
        got: usize,
    },
    #[error("{face} is not a face of a d{sides}")]
    BadFace { face: u8, sides: u8 },
}

impl Spec {
    /// The teamwork dice the leader takes: the assistants' hits up to the cap.
    pub fn teamwork_dice(&self) -> Result<u8, TestError> {
        if self.teamwork == 0 {
            return Ok(0);
        }
        // Refused rather than taken as +0, as a pool with no skill to cap the dice is.
        if matches!(self.pool, Pool::Untrained { .. }) {
            return Err(TestError::TeamworkUntrained);
        }
        let cap = self
            .pool
            .teamwork_cap()
            .ok_or(TestError::TeamworkNeedsSkill)?;
        Ok(self.teamwork.min(cap))
    }

    /// The actor's dice, the glitch die apart.
    pub fn dice(&self, rules: &TestRules) -> u8 {
        let edge = match self.edge {
            Edge::Before => rules.edge_before_dice,
            Edge::None | Edge::After => 0,
        };
        self.pool
            .dice()
            .saturating_add(self.teamwork_dice().unwrap_or(0))
            .saturating_add(edge)
    }

    /// The face a die of the actor's pool needs to hit.
    fn hit_at(&self, rules: TestRules) -> u8 {
        match self.edge {
            Edge::Before => rules.edge_before_hit_at_least,
            Edge::None | Edge::After => rules.hit_at_least,
        }
    }
}

/// Where the dice came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    Rolled,
    /// The table typed in every die.
    Typed,
    /// The table typed in the actor's dice; srtrack rolled the opposing pool.
    ActorTyped,
}

/// Every die of one test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The actor's dice as they lie at the end (after an Edge re-roll), the glitch die apart.
    pub dice: Vec<u8>,
    /// With Edge after, when srtrack rolled: the dice before the re-roll.
    pub first: Option<Vec<u8>>,
    pub glitch_die: Option<u8>,
    pub opposing: Vec<u8>,
    pub source: Source,
}

/// Whether the test succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Success,
    Failure,
}

/// What a roll comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub hits: u8,
    pub opposing_hits: u8,
    pub verdict: Verdict,
    /// What the glitch die showed, when there was one.
    pub fate: Option<Fate>,
}

fn roll_dice(n: u8, sides: u8, dice: &mut dyn Dice) -> Vec<u8> {
    (0..n).map(|_| dice.roll(sides)).collect()
}

/// Rolls the test with srtrack's dice: the actor's pool, the glitch die, then the opposing pool;
/// with Edge after, the dice that did not hit are rolled again last (none when every die hit:
/// `first` stays `None`, and no Edge is spent on it).
pub fn roll(spec: &Spec, rules: &TestRules, dice: &mut dyn Dice) -> Roll {
    let mine = roll_dice(spec.dice(rules), rules.sides, dice);
    let glitch_die = spec.glitch_die.then(|| dice.roll(rules.sides));
    let opposing = roll_dice(spec.opposing.dice(), rules.sides, dice);
    let mut roll = Roll {
        dice: mine,
        first: None,
        glitch_die,
        opposing,
        source: Source::Rolled,
    };
    if spec.edge == Edge::After && misses(&roll, rules) > 0 {
        roll = again(&roll, rules, None, dice).unwrap_or(roll);
    }
    roll
}

/// How many of the actor's dice did not hit (the glitch die apart): what Edge after the roll
/// rolls again.
pub fn misses(roll: &Roll, rules: &TestRules) -> usize {
    roll.dice
        .iter()
        .filter(|d| **d < rules.hit_at_least)
        .count()
}

/// Edge spent on seeing `roll`: its misses rolled again (with `typed`, the table's new dice for
/// them, in the order the misses lie), the hits, the glitch die and the opposing dice as they
/// lay; `first` keeps the dice before, `source` says where the new dice came from.
pub fn again(
    roll: &Roll,
    rules: &TestRules,
    typed: Option<&[u8]>,
    dice: &mut dyn Dice,
) -> Result<Roll, TestError> {
    let want = misses(roll, rules);
    if let Some(t) = typed {
        if t.len() != want {
            return Err(TestError::DiceCount {
                what: "the misses rolled again",
                expected: want,
                got: t.len(),
            });
        }
        if let Some(f) = t.iter().find(|f| !(1..=rules.sides).contains(*f)) {
            return Err(TestError::BadFace {
                face: *f,
                sides: rules.sides,
            });
        }
    }
    let mut new = typed.map(|t| t.iter().copied());
    let dice_now = roll
        .dice
        .iter()
        .map(|&d| {
            if d >= rules.hit_at_least {
                d
            } else if let Some(t) = new.as_mut() {
                t.next().unwrap_or(d)
            } else {
                dice.roll(rules.sides)
            }
        })
        .collect();
    // Where the dice rolled again came from (the log says so of the re-roll).
    let source = if typed.is_some() {
        Source::Typed
    } else {
        Source::Rolled
    };
    Ok(Roll {
        dice: dice_now,
        first: Some(roll.dice.clone()),
        source,
        ..roll.clone()
    })
}

/// The table's dice typed in: the actor's (with a glitch die, the last of them is it; with Edge
/// after, as they lie after the re-roll), and the opposing pool's, or `None` for srtrack to roll.
pub fn typed(
    spec: &Spec,
    rules: &TestRules,
    actor: &[u8],
    opposing: Option<&[u8]>,
    dice: &mut dyn Dice,
) -> Result<Roll, TestError> {
    spec.teamwork_dice()?;
    let want = usize::from(spec.dice(rules)) + usize::from(spec.glitch_die);
    if actor.len() != want {
        return Err(TestError::DiceCount {
            what: if spec.glitch_die {
                "the actor's pool and then the glitch die"
            } else {
                "the actor's pool"
            },
            expected: want,
            got: actor.len(),
        });
    }
    let faces = |d: &[u8]| {
        d.iter()
            .find(|f| !(1..=rules.sides).contains(*f))
            .map_or(Ok(()), |f| {
                Err(TestError::BadFace {
                    face: *f,
                    sides: rules.sides,
                })
            })
    };
    faces(actor)?;
    let (mine, glitch_die) = if spec.glitch_die {
        let (pool, last) = actor.split_at(actor.len() - 1);
        (pool.to_vec(), last.first().copied())
    } else {
        (actor.to_vec(), None)
    };
    let (opposing, source) = match opposing {
        Some(o) => {
            let want = usize::from(spec.opposing.dice());
            if o.len() != want {
                return Err(TestError::DiceCount {
                    what: "the opposing pool",
                    expected: want,
                    got: o.len(),
                });
            }
            faces(o)?;
            (o.to_vec(), Source::Typed)
        }
        None => (
            roll_dice(spec.opposing.dice(), rules.sides, dice),
            Source::ActorTyped,
        ),
    };
    Ok(Roll {
        dice: mine,
        first: None,
        glitch_die,
        opposing,
        source,
    })
}

fn count(dice: &[u8], at_least: u8) -> u8 {
    u8::try_from(dice.iter().filter(|d| **d >= at_least).count()).unwrap_or(u8::MAX)
}

/// What a roll of this test comes to.
pub fn outcome(spec: &Spec, roll: &Roll, rules: &TestRules, glitch: &GlitchDieRules) -> Outcome {
    let at = spec.hit_at(*rules);
    let glitch_hit = roll
        .glitch_die
        .is_some_and(|f| glitch.counts_for_hits && f >= at);
    let hits = count(&roll.dice, at).saturating_add(u8::from(glitch_hit));
    let opposing_hits = count(&roll.opposing, rules.hit_at_least);
    let verdict = if hits > 0 && hits >= opposing_hits {
        Verdict::Success
    } else {
        Verdict::Failure
    };
    Outcome {
        hits,
        opposing_hits,
        verdict,
        fate: roll.glitch_die.map(|f| glitch::read(f, glitch)),
    }
}

/// The exact chances of a test, before the roll.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Odds {
    pub dice: u8,
    pub opposing_dice: u8,
    pub success: f64,
    /// The chance of no hit at all (always a failure).
    pub zero_hits: f64,
    /// With a glitch die: the chance of a Glitch and of an Exploit.
    pub glitch: Option<(f64, f64)>,
}

/// The distribution of hits on `n` dice that each hit with chance `p`.
fn hits_distribution(n: u8, p: f64) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; dist.len() + 1];
        for (h, q) in dist.iter().enumerate() {
            next[h] += q * (1.0 - p);
            next[h + 1] += q * p;
        }
        dist = next;
    }
    dist
}

/// The exact odds: every face of every die counted, no sampling.
pub fn odds(spec: &Spec, rules: &TestRules, glitch: &GlitchDieRules) -> Odds {
    let sides = f64::from(rules.sides);
    let chance = |at: u8| f64::from(rules.sides.saturating_sub(at) + 1) / sides;
    let plain = chance(rules.hit_at_least);
    let p = match spec.edge {
        Edge::None => plain,
        Edge::Before => chance(rules.edge_before_hit_at_least),
        // A miss gets one more try.
        Edge::After => plain + (1.0 - plain) * plain,
    };
    let dice = spec.dice(rules);
    let opposing_dice = spec.opposing.dice();
    let mine = hits_distribution(dice, p);
    let theirs = hits_distribution(opposing_dice, plain);
    // The glitch die adds a hit on its hitting faces: (chance, extra hit) for each case.
    let at = spec.hit_at(*rules);
    let extra: Vec<(f64, usize)> = if spec.glitch_die && glitch.counts_for_hits {
        let h = chance(at);
        vec![(h, 1), (1.0 - h, 0)]
    } else {
        vec![(1.0, 0)]
    };
    let mut success = 0.0;
    let mut zero_hits = 0.0;
    for (pe, e) in &extra {
        for (h, ph) in mine.iter().enumerate() {
            let hits = h + e;
            if hits == 0 {
                zero_hits += pe * ph;
                continue;
            }
            let beaten: f64 = theirs.iter().take(hits + 1).sum();
            success += pe * ph * beaten;
        }
    }
    Odds {
        dice,
        opposing_dice,
        success,
        zero_hits,
        glitch: spec
            .glitch_die
            .then(|| glitch::chances(glitch, rules.sides)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{HouseRules, ScriptedDice};

    fn rules() -> (TestRules, GlitchDieRules) {
        let a = HouseRules::embedded().anarchy;
        (a.test, a.glitch_die)
    }

    fn spec(pool: u8, opposing: u8) -> Spec {
        Spec {
            pool: Pool::Dice(pool),
            teamwork: 0,
            opposing: Pool::Dice(opposing),
            edge: Edge::None,
            glitch_die: false,
        }
    }

    #[test]
    fn ties_go_to_the_actor_but_zero_hits_always_fail() {
        let (t, g) = rules();
        let s = spec(2, 2);
        let tie = typed(&s, &t, &[5, 1], Some(&[6, 2]), &mut ScriptedDice::new([])).unwrap();
        assert_eq!(outcome(&s, &tie, &t, &g).verdict, Verdict::Success);
        let none = typed(&s, &t, &[4, 1], Some(&[3, 2]), &mut ScriptedDice::new([])).unwrap();
        let o = outcome(&s, &none, &t, &g);
        assert_eq!(
            (o.hits, o.opposing_hits, o.verdict),
            (0, 0, Verdict::Failure)
        );
    }

    proptest::proptest! {
        /// Edge on seeing a roll: every hit stays where it lay, each miss is rolled again (in
        /// the order the misses lie), the glitch die and the opposing dice are left alone.
        #[test]
        fn again_rolls_the_misses_alone(
            mine in proptest::collection::vec(1..=6u8, 0..12),
            new in proptest::collection::vec(1..=6u8, 12),
            glitch in proptest::option::of(1..=6u8),
            opposing in proptest::collection::vec(1..=6u8, 0..6),
        ) {
            let (t, _) = rules();
            let roll = Roll { dice: mine.clone(), first: None, glitch_die: glitch, opposing: opposing.clone(), source: Source::Rolled };
            let misses = misses(&roll, &t);
            let after = again(&roll, &t, None, &mut ScriptedDice::new(new.clone())).unwrap();
            proptest::prop_assert_eq!(after.first.as_ref(), Some(&mine));
            proptest::prop_assert_eq!((after.glitch_die, &after.opposing), (glitch, &opposing));
            let mut fresh = new.iter();
            for (was, now) in mine.iter().zip(&after.dice) {
                let want = if *was >= t.hit_at_least { *was } else { *fresh.next().unwrap() };
                proptest::prop_assert_eq!(*now, want);
            }
            proptest::prop_assert_eq!(after.dice.len(), mine.len());
            // The table's dice for the misses land where srtrack's would.
            let typed = again(&roll, &t, Some(&new[..misses]), &mut ScriptedDice::new([])).unwrap();
            proptest::prop_assert_eq!(typed.dice, after.dice);
        }
    }

    #[test]
    fn one_die_odds_are_exact() {
        let (t, g) = rules();
        let o = odds(&spec(1, 0), &t, &g);
        assert!((o.success - 1.0 / 3.0).abs() < 1e-12);
        assert!((o.zero_hits - 2.0 / 3.0).abs() < 1e-12);
    }
}
