//! The glitch die: a die of its own in a test, read apart from the hits: a Glitch on its glitch
//! faces even when the test succeeds, an Exploit on its exploit faces even when it fails.

use serde::{Deserialize, Serialize};

use super::GlitchDieRules;

/// What the glitch die showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    Glitch,
    Exploit,
    /// Neither: nothing beyond its hit, if it is one.
    Quiet,
}

/// What a face of the glitch die means.
pub fn read(face: u8, rules: &GlitchDieRules) -> Fate {
    if rules.glitch_faces.contains(&face) {
        Fate::Glitch
    } else if rules.exploit_faces.contains(&face) {
        Fate::Exploit
    } else {
        Fate::Quiet
    }
}

/// The chance of a Glitch and of an Exploit on a die of `sides` faces.
pub fn chances(rules: &GlitchDieRules, sides: u8) -> (f64, f64) {
    let of = |faces: &[u8]| {
        let count = faces.iter().filter(|f| (1..=sides).contains(*f)).count();
        f64::from(u8::try_from(count).unwrap_or(u8::MAX)) / f64::from(sides)
    };
    (of(&rules.glitch_faces), of(&rules.exploit_faces))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HouseRules;

    #[test]
    fn one_is_a_glitch_five_and_six_an_exploit() {
        let r = HouseRules::embedded().anarchy.glitch_die;
        let fates: Vec<Fate> = (1..=6).map(|f| read(f, &r)).collect();
        assert_eq!(
            fates,
            [
                Fate::Glitch,
                Fate::Quiet,
                Fate::Quiet,
                Fate::Quiet,
                Fate::Exploit,
                Fate::Exploit
            ]
        );
        assert_eq!(chances(&r, 6), (1.0 / 6.0, 2.0 / 6.0));
    }
}
