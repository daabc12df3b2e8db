//! An SR5 test: a pool rolled or typed in, hits capped by a limit, judged against a threshold or
//! an opponent; glitches; what Edge and teamwork change.

use serde::{Deserialize, Serialize};

use super::Sr5Rules;
use crate::rules::dice::{Dice, Glitch, PoolRoll};
use crate::rules::house::DiceRules;

/// How the GM gives a roll: srtrack rolls it, or the table's dice are typed in.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Given {
    #[default]
    Roll,
    /// Every face, as read off the table (`dice 6 5 1 1 3`); checked against the die.
    Dice(Vec<i32>),
    /// Only the count (`hits 3 [glitch|critical]`).
    Hits { hits: i32, glitch: Glitch },
}

/// The dice behind a roll, kept in its event: replay and redo never roll again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Faces {
    Rolled(Vec<u8>),
    Typed(Vec<u8>),
    /// Typed in as a number of hits.
    Untold,
}

/// One pool, rolled or typed in, and what it shows: hits before any limit, and the glitch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub pool: u8,
    pub faces: Faces,
    pub hits: u8,
    pub glitch: Glitch,
}

/// A typed-in roll that cannot be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TestError {
    #[error("a die shows 1 to {sides}, not {face}")]
    Face { face: i32, sides: u8 },
    #[error(
        "the pool has {} but {} typed: type one face per die",
        dice(*pool),
        typed_faces(*typed)
    )]
    Count { pool: u8, typed: usize },
    #[error("{}", hits_impossible(*hits, *pool))]
    Hits { hits: i32, pool: u8 },
    #[error("{}", glitch_impossible(*hits, *pool))]
    GlitchImpossible { hits: i32, pool: u8 },
    #[error("a critical glitch has no hit, so it cannot come with {}", hits_word(*hits))]
    CriticalWithHits { hits: i32 },
}

/// "1 face was", "6 faces were".
pub fn typed_faces(n: usize) -> String {
    if n == 1 {
        "1 face was".into()
    } else {
        format!("{n} faces were")
    }
}

/// Why typed hits cannot be: more than the dice, or any on a pool the wound modifier emptied.
fn hits_impossible(hits: i32, pool: u8) -> String {
    if pool == 0 {
        return "a pool of no dice rolls no hit: type 0 hits".into();
    }
    format!(
        "{} hits are impossible on a pool of {}: type 0 to {pool}",
        crate::text::typed_count(hits),
        dice(pool)
    )
}

/// `1 die`, `6 dice`.
/// "1 hit", "3 hits".
fn hits_word(n: i32) -> String {
    if n == 1 {
        "1 hit".into()
    } else {
        format!("{n} hits")
    }
}

/// Why a typed-in glitch cannot be: a pool of no dice rolls none, else too few dice are left
/// for ones besides the hits.
pub fn glitch_impossible(hits: i32, pool: u8) -> String {
    if pool == 0 {
        "a pool of no dice rolls no 1s, so it cannot glitch".into()
    } else {
        format!(
            "a glitch needs more than half the dice on 1, so {} on {} cannot glitch",
            hits_word(hits),
            dice(pool)
        )
    }
}

pub fn dice(n: u8) -> String {
    if n == 1 {
        "1 die".into()
    } else {
        format!("{n} dice")
    }
}

impl Roll {
    /// The roll of `pool` dice as the GM gives it.
    pub fn take(
        pool: u8,
        given: &Given,
        rules: &DiceRules,
        dice: &mut dyn Dice,
    ) -> Result<Self, TestError> {
        match given {
            Given::Roll => {
                let r = PoolRoll::roll(pool, rules, dice);
                Ok(Self::of(pool, Faces::Rolled(r.dice.clone()), &r))
            }
            Given::Dice(typed) => {
                if typed.len() != usize::from(pool) {
                    return Err(TestError::Count {
                        pool,
                        typed: typed.len(),
                    });
                }
                let faces = typed
                    .iter()
                    .map(|&f| {
                        u8::try_from(f)
                            .ok()
                            .filter(|f| (1..=rules.sides).contains(f))
                            .ok_or(TestError::Face {
                                face: f,
                                sides: rules.sides,
                            })
                    })
                    .collect::<Result<Vec<u8>, _>>()?;
                let r = PoolRoll::from_dice(faces.clone(), rules);
                Ok(Self::of(pool, Faces::Typed(faces), &r))
            }
            Given::Hits { hits, glitch } => {
                let n = u8::try_from(*hits)
                    .ok()
                    .filter(|h| *h <= pool)
                    .ok_or(TestError::Hits { hits: *hits, pool })?;
                if *glitch == Glitch::Critical && n > 0 {
                    return Err(TestError::CriticalWithHits { hits: *hits });
                }
                // The most ones the dice can show besides the hits must be able to glitch.
                if glitch.is_glitch() && !glitches(pool - n, pool, rules) {
                    return Err(TestError::GlitchImpossible { hits: *hits, pool });
                }
                Ok(Self {
                    pool,
                    faces: Faces::Untold,
                    hits: n,
                    glitch: Glitch::from_parts(glitch.is_glitch(), n),
                })
            }
        }
    }

    fn of(pool: u8, faces: Faces, r: &PoolRoll) -> Self {
        Self {
            pool,
            faces,
            hits: r.hits,
            glitch: r.glitch,
        }
    }

    /// The faces, rolled or typed; `None` when only hits were typed.
    pub fn dice(&self) -> Option<&[u8]> {
        match &self.faces {
            Faces::Rolled(d) | Faces::Typed(d) => Some(d),
            Faces::Untold => None,
        }
    }
}

/// Whether `ones` dice of `pool` showing the glitch face are a glitch.
pub fn glitches(ones: u8, pool: u8, rules: &DiceRules) -> bool {
    pool > 0
        && u32::from(ones) * u32::from(rules.glitch_more_than_den)
            > u32::from(pool) * u32::from(rules.glitch_more_than_num)
}

/// The hits that count: the limit caps them (the glitch is read off every die all the same).
pub fn counted(hits: u8, limit: Option<u8>) -> u8 {
    limit.map_or(hits, |l| hits.min(l))
}

/// What a test is measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    /// No threshold, no opponent: the hits are the answer.
    Open,
    Threshold(u8),
    /// More hits than the opponent's; a tie goes to the defender.
    Opposed,
}

/// How a test came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Success { net: u8 },
    Failure,
}

/// A threshold is met or beaten; an opposed test needs more hits than `opposing` (a tie goes to
/// the defender). `None` for an open test: it has no success or failure, its hits (and its
/// glitch) are the answer.
pub fn verdict(goal: Goal, counted: u8, opposing: u8) -> Option<Verdict> {
    let (needed, net_from) = match goal {
        Goal::Open => return None,
        Goal::Threshold(t) => (t, t),
        Goal::Opposed => (opposing.saturating_add(1), opposing),
    };
    Some(if counted >= needed {
        Verdict::Success {
            net: counted - net_from,
        }
    } else {
        Verdict::Failure
    })
}

/// What Close Call leaves of a glitch: none of a glitch, a glitch of a critical one; `None` when
/// there is nothing to save.
pub fn close_call(glitch: Glitch) -> Option<Glitch> {
    match glitch {
        Glitch::None => None,
        Glitch::Glitch => Some(Glitch::None),
        Glitch::Critical => Some(Glitch::Glitch),
    }
}

/// What the assistants give the leader of a teamwork test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bonus {
    /// Dice added (at most `cap`) and the rise of the limit.
    Added { dice: u8, limit: u8, cap: u8 },
    /// An assistant critically glitched (its index among the assistants): no bonus at all.
    Spoiled { by: usize },
}

/// The assistants' rolls turned into the leader's bonus (sr5-hits-glitches-limits-teamwork.txt).
pub fn teamwork(assists: &[Roll], cap: u8, rules: &Sr5Rules) -> Bonus {
    if let Some(by) = assists.iter().position(|a| a.glitch == Glitch::Critical) {
        return Bonus::Spoiled { by };
    }
    let hits: u32 = assists.iter().map(|a| u32::from(a.hits)).sum();
    let helped = assists.iter().filter(|a| a.hits > 0).count() as u32;
    let dice = (hits * u32::from(rules.teamwork_dice_per_hit)).min(u32::from(cap));
    let limit = helped * u32::from(rules.teamwork_limit_per_assistant);
    Bonus::Added {
        dice: u8::try_from(dice).unwrap_or(u8::MAX),
        limit: u8::try_from(limit).unwrap_or(u8::MAX),
        cap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ScriptedDice;
    use crate::rules::house::HouseRules;

    fn rules() -> HouseRules {
        HouseRules::embedded()
    }

    fn typed(faces: &[i32]) -> Roll {
        let r = rules();
        let pool = faces.len() as u8;
        Roll::take(
            pool,
            &Given::Dice(faces.to_vec()),
            &r.dice,
            &mut ScriptedDice::default(),
        )
        .unwrap()
    }

    #[test]
    fn the_issue_example_reads_four_hits_capped_to_three() {
        let r = typed(&[6, 6, 5, 5, 1, 1, 1, 2]);
        assert_eq!((r.hits, r.glitch), (4, Glitch::None));
        assert_eq!(counted(r.hits, Some(3)), 3);
        assert_eq!(
            verdict(Goal::Threshold(2), 3, 0),
            Some(Verdict::Success { net: 1 })
        );
    }

    #[test]
    fn a_tie_goes_to_the_defender() {
        assert_eq!(verdict(Goal::Opposed, 3, 3), Some(Verdict::Failure));
        assert_eq!(
            verdict(Goal::Opposed, 4, 3),
            Some(Verdict::Success { net: 1 })
        );
    }

    #[test]
    fn typed_faces_are_checked_against_the_die_and_the_pool() {
        let r = rules();
        let mut d = ScriptedDice::default();
        assert_eq!(
            Roll::take(2, &Given::Dice(vec![6, 7]), &r.dice, &mut d),
            Err(TestError::Face { face: 7, sides: 6 })
        );
        assert_eq!(
            Roll::take(3, &Given::Dice(vec![6, 1]), &r.dice, &mut d),
            Err(TestError::Count { pool: 3, typed: 2 })
        );
    }

    #[test]
    fn typed_hits_must_fit_the_pool_and_a_glitch_must_be_possible() {
        let r = rules();
        let mut d = ScriptedDice::default();
        let hits = |hits, glitch| Given::Hits { hits, glitch };
        assert!(Roll::take(4, &hits(5, Glitch::None), &r.dice, &mut d).is_err());
        // 2 hits of 4 leave 2 ones at most: exactly half, no glitch.
        assert_eq!(
            Roll::take(4, &hits(2, Glitch::Glitch), &r.dice, &mut d),
            Err(TestError::GlitchImpossible { hits: 2, pool: 4 })
        );
        let one = Roll::take(4, &hits(1, Glitch::Glitch), &r.dice, &mut d).unwrap();
        assert_eq!(one.glitch, Glitch::Glitch);
        let none = Roll::take(4, &hits(0, Glitch::Glitch), &r.dice, &mut d).unwrap();
        assert_eq!(
            none.glitch,
            Glitch::Critical,
            "a glitch with no hit is critical"
        );
        assert_eq!(
            Roll::take(4, &hits(1, Glitch::Critical), &r.dice, &mut d),
            Err(TestError::CriticalWithHits { hits: 1 })
        );
    }

    #[test]
    fn close_call_negates_a_glitch_and_softens_a_critical_one() {
        assert_eq!(close_call(Glitch::Glitch), Some(Glitch::None));
        assert_eq!(close_call(Glitch::Critical), Some(Glitch::Glitch));
        assert_eq!(close_call(Glitch::None), None);
    }
}
