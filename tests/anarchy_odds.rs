//! The odds of an Anarchy test before the roll are exact: every face of every die counted gives
//! the same numbers, and seeded rolls land where the odds say.

use proptest::prelude::*;
use srtrack::rules::anarchy::glitch::Fate;
use srtrack::rules::anarchy::test::{self, Edge, Pool, Spec, Verdict};
use srtrack::rules::anarchy::{GlitchDieRules, TestRules};
use srtrack::rules::{HouseRules, RandomDice, ScriptedDice};

fn rules() -> (TestRules, GlitchDieRules) {
    let a = HouseRules::embedded().anarchy;
    (a.test, a.glitch_die)
}

/// What a number of tests came to: successes, no-hit results, glitches, exploits.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    success: f64,
    zero_hits: f64,
    glitch: f64,
    exploit: f64,
}

impl Tally {
    fn add(&mut self, o: test::Outcome, weight: f64) {
        if o.verdict == Verdict::Success {
            self.success += weight;
        }
        if o.hits == 0 {
            self.zero_hits += weight;
        }
        match o.fate {
            Some(Fate::Glitch) => self.glitch += weight,
            Some(Fate::Exploit) => self.exploit += weight,
            Some(Fate::Quiet) | None => {}
        }
    }
}

/// Every sequence of `n` faces of a d`sides`.
fn sequences(n: usize, sides: u8) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    for _ in 0..n {
        all = all
            .into_iter()
            .flat_map(|s| {
                (1..=sides).map(move |f| {
                    let mut next = s.clone();
                    next.push(f);
                    next
                })
            })
            .collect();
    }
    all
}

/// The chances of a test, by rolling it on every possible sequence of dice (re-rolls included).
fn enumerate(spec: &Spec, t: TestRules, g: &GlitchDieRules) -> Tally {
    let first = usize::from(spec.dice(&t))
        + usize::from(spec.glitch_die)
        + usize::from(spec.opposing.dice());
    let pool = usize::from(spec.dice(&t));
    let mut tally = Tally::default();
    let sides = f64::from(t.sides);
    for seq in sequences(first, t.sides) {
        // With Edge after, every pool die that missed is rolled once more, last.
        let again = match spec.edge {
            Edge::After => seq[..pool].iter().filter(|d| **d < t.hit_at_least).count(),
            Edge::None | Edge::Before => 0,
        };
        for rerolls in sequences(again, t.sides) {
            let weight = sides.powi(-i32::try_from(first + again).unwrap());
            let mut dice = ScriptedDice::new(seq.iter().chain(&rerolls).copied());
            let roll = test::roll(spec, &t, &mut dice);
            assert_eq!(dice.remaining(), 0);
            tally.add(test::outcome(spec, &roll, &t, g), weight);
        }
    }
    tally
}

fn edge() -> impl Strategy<Value = Edge> {
    prop_oneof![Just(Edge::None), Just(Edge::Before), Just(Edge::After)]
}

fn small_pool() -> impl Strategy<Value = Pool> {
    prop_oneof![
        (0u8..=3).prop_map(Pool::Dice),
        (0u8..=1, 1u8..=2).prop_map(|(skill, attribute)| Pool::Skill {
            skill,
            attribute,
            modifier: 0
        }),
        (1u8..=2, -1i8..=0).prop_map(|(attribute, modifier)| Pool::Untrained {
            attribute,
            modifier
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Exact: the odds equal the count over every face of every die, small pools.
    #[test]
    fn the_odds_are_the_count_over_every_face(
        pool in small_pool(),
        opposing in 0u8..=2,
        edge in edge(),
        glitch_die in any::<bool>(),
        teamwork in 0u8..=1,
    ) {
        let (t, g) = rules();
        let spec = Spec { pool, teamwork, opposing: Pool::Dice(opposing), edge, glitch_die };
        prop_assume!(spec.teamwork_dice().is_ok());
        let odds = test::odds(&spec, &t, &g);
        let count = enumerate(&spec, t, &g);
        prop_assert!((odds.success - count.success).abs() < 1e-9, "{odds:?} vs {count:?}");
        prop_assert!((odds.zero_hits - count.zero_hits).abs() < 1e-9, "{odds:?} vs {count:?}");
        match odds.glitch {
            Some((glitch, exploit)) => {
                prop_assert!((glitch - count.glitch).abs() < 1e-9);
                prop_assert!((exploit - count.exploit).abs() < 1e-9);
            }
            None => prop_assert!(count.glitch == 0.0 && count.exploit == 0.0),
        }
    }

    /// Seeded rolls of bigger pools land within a few standard errors of the odds.
    #[test]
    fn seeded_rolls_land_where_the_odds_say(
        dice in 0u8..=14,
        opposing in 0u8..=10,
        edge in edge(),
        glitch_die in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let (t, g) = rules();
        let spec = Spec { pool: Pool::Dice(dice), teamwork: 0, opposing: Pool::Dice(opposing), edge, glitch_die };
        let odds = test::odds(&spec, &t, &g);
        let n = 4000_u32;
        let mut rng = RandomDice::seeded(seed);
        let mut seen = Tally::default();
        for _ in 0..n {
            let roll = test::roll(&spec, &t, &mut rng);
            seen.add(test::outcome(&spec, &roll, &t, &g), 1.0 / f64::from(n));
        }
        // Five standard errors and a little: a true defect is far outside, chance almost never.
        let near = |p: f64, f: f64| (p - f).abs() <= 5.0 * (p * (1.0 - p) / f64::from(n)).sqrt() + 0.005;
        prop_assert!(near(odds.success, seen.success), "success {odds:?} vs {seen:?}");
        prop_assert!(near(odds.zero_hits, seen.zero_hits), "no hit {odds:?} vs {seen:?}");
        if let Some((glitch, exploit)) = odds.glitch {
            prop_assert!(near(glitch, seen.glitch) && near(exploit, seen.exploit), "{odds:?} vs {seen:?}");
        }
    }
}

#[test]
fn a_known_case_six_dice_against_four() {
    let (t, g) = rules();
    let spec = Spec {
        pool: Pool::Skill {
            skill: 3,
            attribute: 3,
            modifier: 0,
        },
        teamwork: 0,
        opposing: Pool::Dice(0),
        edge: Edge::None,
        glitch_die: false,
    };
    // Against nothing, only a hit is needed: 1 - (2/3)^6.
    let o = test::odds(&spec, &t, &g);
    assert!((o.success - (1.0 - (2.0_f64 / 3.0).powi(6))).abs() < 1e-12);
    assert!((o.zero_hits - (2.0_f64 / 3.0).powi(6)).abs() < 1e-12);
}
