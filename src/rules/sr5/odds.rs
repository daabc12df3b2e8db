//! Exact odds of a test before it is rolled, computed from the binomial distribution (never
//! sampled): success, glitch, critical glitch, the expected hits and net hits.

use serde::{Deserialize, Serialize};

use super::test::{Goal, Verdict, counted, glitches, verdict};
use crate::rules::house::DiceRules;

/// A test as it is set up, before the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub pool: u8,
    pub limit: Option<u8>,
    pub goal: Goal,
    /// The opposing pool of an opposed test (unlimited, as defense tests are).
    pub opposing: u8,
}

/// The odds of a test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Odds {
    /// An open test has no success: 0.
    pub success: f64,
    /// A glitch of any kind, critical ones included.
    pub glitch: f64,
    pub critical: f64,
    /// Expected net hits, a failure counting 0.
    pub net: f64,
    /// Expected hits that count (under the limit): an open test's answer.
    pub hits: f64,
}

/// How likely each face kind is on one one.
struct Die {
    /// A hit (whether or not it is also the glitch face).
    hit: f64,
    /// The glitch face (whether or not it is also a hit).
    one: f64,
    /// The glitch face and no hit.
    one_only: f64,
    /// Neither a hit nor the glitch face.
    blank: f64,
}

impl Die {
    fn new(rules: DiceRules) -> Self {
        let sides = f64::from(rules.sides);
        let hit_faces = f64::from(rules.sides.saturating_sub(rules.hit_at_least) + 1);
        let one_is_hit = rules.glitch_face >= rules.hit_at_least;
        let one_only = if one_is_hit { 0.0 } else { 1.0 / sides };
        Self {
            hit: hit_faces / sides,
            one: 1.0 / sides,
            one_only,
            blank: 1.0 - hit_faces / sides - one_only,
        }
    }
}

/// The binomial distribution of `n` trials of probability `p`: index k holds P(k successes).
fn binomial(n: u8, p: f64) -> Vec<f64> {
    let mut out = vec![0.0; usize::from(n) + 1];
    if p >= 1.0 {
        out[usize::from(n)] = 1.0;
        return out;
    }
    let q = 1.0 - p;
    // P(0) = q^n, then P(k+1) = P(k) · (n−k)/(k+1) · p/q.
    out[0] = q.powi(i32::from(n));
    for k in 0..n {
        let i = usize::from(k);
        out[i + 1] = out[i] * f64::from(n - k) / f64::from(k + 1) * (p / q);
    }
    out
}

/// The exact odds of `setup` under the dice rules.
pub fn odds(setup: &Setup, dice: &DiceRules) -> Odds {
    let one = Die::new(*dice);
    let n = setup.pool;
    let hits = binomial(n, one.hit);
    let ones = binomial(n, one.one);
    // Folded from +0.0: an empty sum of floats is -0.0, which prints as `-0.0000`.
    let glitch: f64 = (0..=n)
        .filter(|&o| glitches(o, n, dice))
        .map(|o| ones[usize::from(o)])
        .fold(0.0, |sum, p| sum + p);
    // A critical glitch: no hit at all, and enough ones among the dice that are not hits.
    let critical = if one.one_only + one.blank > 0.0 {
        let no_hit = (one.one_only + one.blank).powi(i32::from(n));
        let ones_given_no_hit = binomial(n, one.one_only / (one.one_only + one.blank));
        no_hit
            * (0..=n)
                .filter(|&o| glitches(o, n, dice))
                .map(|o| ones_given_no_hit[usize::from(o)])
                .fold(0.0, |sum, p| sum + p)
    } else {
        0.0
    };
    let opposing = match setup.goal {
        Goal::Opposed => binomial(setup.opposing, one.hit),
        Goal::Open | Goal::Threshold(_) => vec![1.0],
    };
    let (mut success, mut net, mut expected) = (0.0, 0.0, 0.0);
    for (h, ph) in hits.iter().enumerate() {
        let c = counted(h as u8, setup.limit);
        expected += ph * f64::from(c);
        for (d, pd) in opposing.iter().enumerate() {
            if let Some(Verdict::Success { net: k }) = verdict(setup.goal, c, d as u8) {
                success += ph * pd;
                net += ph * pd * f64::from(k);
            }
        }
    }
    Odds {
        success,
        glitch,
        critical,
        net,
        hits: expected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HouseRules;

    fn of(pool: u8, limit: Option<u8>, goal: Goal, opposing: u8) -> Odds {
        let r = HouseRules::embedded();
        odds(
            &Setup {
                pool,
                limit,
                goal,
                opposing,
            },
            &r.dice,
        )
    }

    #[test]
    fn the_issue_example_to_four_places() {
        let o = of(10, Some(4), Goal::Threshold(3), 0);
        let four = |x: f64| format!("{x:.4}");
        assert_eq!(four(o.success), "0.7009");
        assert_eq!(four(o.glitch), "0.0024");
        assert_eq!(four(o.critical), "0.0003");
        assert_eq!(format!("{:.2}", o.net), "0.44");
    }

    /// Given a pool the wounds took to 0 dice, when its odds are written, then no chance reads
    /// `-0.0000` (an empty float sum is -0.0).
    #[test]
    fn an_empty_pool_has_plain_zero_odds() {
        for goal in [Goal::Open, Goal::Threshold(1), Goal::Opposed] {
            let o = of(0, Some(1), goal, 2);
            for p in [o.success, o.glitch, o.critical, o.net, o.hits] {
                assert_eq!(format!("{p:.4}"), "0.0000", "{goal:?}: {o:?}");
            }
        }
    }

    #[test]
    fn one_die_by_hand() {
        let o = of(1, None, Goal::Threshold(1), 0);
        assert!((o.success - 1.0 / 3.0).abs() < 1e-12);
        // One die on 1 is more than half: a glitch, and with no hit a critical one.
        assert!((o.glitch - 1.0 / 6.0).abs() < 1e-12);
        assert!((o.critical - 1.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn an_opposed_tie_is_a_failure() {
        // One die each: success only on hit vs no hit, 1/3 · 2/3.
        let o = of(1, None, Goal::Opposed, 1);
        assert!((o.success - 2.0 / 9.0).abs() < 1e-12);
        assert!((o.net - 2.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn an_open_test_has_no_success_and_expects_its_counted_hits() {
        let o = of(3, Some(1), Goal::Open, 0);
        assert_eq!((o.success, o.net), (0.0, 0.0));
        // At most 1 hit counts: the chance of any hit, 1 − (2/3)³.
        assert!((o.hits - (1.0 - 8.0 / 27.0)).abs() < 1e-12);
    }

    #[test]
    fn the_probabilities_of_every_hit_count_add_up_to_one() {
        for n in [0u8, 1, 7, 50, 100] {
            let s: f64 = binomial(n, 1.0 / 3.0).iter().sum();
            assert!((s - 1.0).abs() < 1e-9, "{n}: {s}");
        }
    }
}
