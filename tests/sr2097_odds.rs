//! The exact odds of a Shadowrun 2097 check against its rolls: every roll of the dice, made
//! through `check::roll` with scripted dice, ends as `check::odds` counts; seeded random rolls
//! land within a few standard deviations of the odds; and the text's own figures hold.

use proptest::prelude::*;
use srtrack::rules::sr2097::check::{self, Check, EdgeOnCheck, Tilt, Verdict};
use srtrack::rules::{HouseRules, RandomDice, ScriptedDice};

fn rules() -> srtrack::rules::sr2097::Sr2097Rules {
    HouseRules::embedded().sr2097
}

fn tilt_edge() -> impl Strategy<Value = (Tilt, EdgeOnCheck)> {
    prop_oneof![
        Just((Tilt::Even, EdgeOnCheck::None)),
        Just((Tilt::Advantage, EdgeOnCheck::None)),
        Just((Tilt::Disadvantage, EdgeOnCheck::None)),
        Just((Tilt::Advantage, EdgeOnCheck::GainedAdvantage)),
        Just((Tilt::Even, EdgeOnCheck::RemovedDisadvantage)),
    ]
}

/// Every sequence of `n` faces of a d`die`, in order.
fn every_roll(n: usize, die: u8) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    for _ in 0..n {
        all = all
            .into_iter()
            .flat_map(|r| {
                (1..=die).map(move |f| {
                    let mut r = r.clone();
                    r.push(f);
                    r
                })
            })
            .collect();
    }
    all
}

proptest! {
    #[test]
    fn the_odds_count_exactly_what_every_roll_does(tn in 5i32..50, bonus in -5i32..30, (tilt, edge) in tilt_edge()) {
        let r = rules();
        let c = Check { tn, bonus, tilt, edge };
        let odds = check::odds(&c, &r);
        let mut counts = [0u32; 6];
        let n = check::dice_count(tilt, &r);
        for faces in every_roll(n, r.check.die) {
            let mut dice = ScriptedDice::new(faces);
            let roll = check::roll(c, &r, &mut dice);
            counts[roll.outcome(&r).verdict.index()] += 1;
        }
        prop_assert_eq!(odds.counts, counts);
        prop_assert_eq!(odds.outcomes, 10u32.pow(n as u32));
    }

    #[test]
    fn seeded_rolls_land_near_the_exact_odds(seed in any::<u64>(), tn in 10i32..40, bonus in 0i32..25, (tilt, edge) in tilt_edge()) {
        let r = rules();
        let c = Check { tn, bonus, tilt, edge };
        let p = check::odds(&c, &r).success_percent() / 100.0;
        let mut dice = RandomDice::seeded(seed);
        let rolls = 4000u32;
        let wins = (0..rolls)
            .filter(|_| check::roll(c, &r, &mut dice).outcome(&r).verdict.is_success())
            .count() as u32;
        let sd = (f64::from(rolls) * p * (1.0 - p)).sqrt();
        let off = (f64::from(wins) - f64::from(rolls) * p).abs();
        // Six standard deviations (and a die's worth of slack): wrong odds fail, luck does not.
        prop_assert!(off <= 6.0 * sd + 1.0, "{wins} of {rolls} against p = {p}");
    }
}

fn chance(tn: i32, bonus: i32, tilt: Tilt, edge: EdgeOnCheck) -> f64 {
    check::odds(
        &Check {
            tn,
            bonus,
            tilt,
            edge,
        },
        &rules(),
    )
    .success_percent()
}

#[test]
fn the_texts_figures_for_a_professional_and_a_trained_person() {
    // +15 at TN 20: about 95%; +10: about two in three; +15 at TN 25: two in three; at TN 30: 1/5.
    let even = |tn, bonus| chance(tn, bonus, Tilt::Even, EdgeOnCheck::None);
    assert!((93.0..=96.0).contains(&even(20, 15)), "{}", even(20, 15));
    assert!((62.0..=68.0).contains(&even(20, 10)), "{}", even(20, 10));
    assert!((62.0..=68.0).contains(&even(25, 15)), "{}", even(25, 15));
    assert!((19.0..=23.0).contains(&even(30, 15)), "{}", even(30, 15));
    // Advantage raises the chance, Edge on it (doubles always +5) more still.
    let adv = chance(30, 15, Tilt::Advantage, EdgeOnCheck::None);
    let edge = chance(30, 15, Tilt::Advantage, EdgeOnCheck::GainedAdvantage);
    assert!(even(30, 15) < adv && adv < edge, "{adv} {edge}");
}

#[test]
fn the_odds_of_2d10_match_the_texts_table() {
    // TN - bonus is what the dice must reach: 5+ about 94%, 10+ 64%, 15+ 21%, 20 1%.
    let dice_reach = |n: i32| chance(n, 0, Tilt::Even, EdgeOnCheck::None);
    assert!((dice_reach(5) - 94.0).abs() < 0.5);
    assert!((dice_reach(10) - 64.0).abs() < 0.5);
    assert!((dice_reach(15) - 21.0).abs() < 0.5);
    assert!((dice_reach(20) - 1.0).abs() < 0.5);
}

#[test]
fn advantage_and_disadvantage_are_worth_about_two_and_a_half() {
    // Advantage is worth about +2.5 (Disadvantage −2.5): the chance at TN 20 + 2 and + 3 bracket
    // Advantage's (doubles aside, they do not change success here: bonus 10 keeps MoS near 0).
    let adv = chance(20, 10, Tilt::Advantage, EdgeOnCheck::None);
    let dis = chance(20, 10, Tilt::Disadvantage, EdgeOnCheck::None);
    let even = |b| chance(20, b, Tilt::Even, EdgeOnCheck::None);
    assert!(even(11) < adv && adv < even(14), "{adv}");
    assert!(even(6) < dis && dis < even(9), "{dis}");
    let odds = check::odds(
        &Check {
            tn: 20,
            bonus: 10,
            tilt: Tilt::Advantage,
            edge: EdgeOnCheck::None,
        },
        &rules(),
    );
    assert!(odds.of(Verdict::Success(check::Band::Complete)) > 0);
    assert_eq!(odds.counts.iter().sum::<u32>(), odds.outcomes);
}
