//! From hit to boxes: the modified damage value, armor after AP, the damage resistance test and
//! which monitor takes the boxes. SR5 combat facts the rules texts do not carry (README rulings).

use serde::{Deserialize, Serialize};

use super::Sr5Rules;

/// The damage a weapon deals: Physical or Stun.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DamageType {
    Physical,
    Stun,
}

impl DamageType {
    /// The letter after a DV: `8P`, `6S`.
    pub fn letter(self) -> char {
        match self {
            DamageType::Physical => 'P',
            DamageType::Stun => 'S',
        }
    }
}

/// The weapon's DV raised by the attack's net hits.
pub fn modified_dv(dv: u8, net_hits: u8, rules: &Sr5Rules) -> u8 {
    dv.saturating_add(net_hits.saturating_mul(rules.dv_per_net_hit))
}

/// Armor after the weapon's AP (a negative AP lowers it), never below the rules' floor.
pub fn armor_after_ap(armor: u8, ap: i8, rules: &Sr5Rules) -> u8 {
    let a = i16::from(armor) + i16::from(ap);
    u8::try_from(a.max(i16::from(rules.armor_floor))).unwrap_or(u8::MAX)
}

/// Boxes left of the modified DV after the damage resistance test's hits.
pub fn boxes(dv: u8, soak_hits: u8, rules: &Sr5Rules) -> u8 {
    dv.saturating_sub(soak_hits.saturating_mul(rules.boxes_per_soak_hit))
}

/// Where the damage goes: Physical damage becomes Stun when the modified DV does not exceed the
/// AP-modified armor.
pub fn damage_type(weapon: DamageType, dv: u8, armor: u8) -> DamageType {
    match weapon {
        DamageType::Physical if dv <= armor => DamageType::Stun,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HouseRules;

    #[test]
    fn net_hits_raise_the_dv_and_ap_lowers_armor_to_the_floor() {
        let r = HouseRules::embedded().sr5;
        assert_eq!(modified_dv(8, 3, &r), 11);
        assert_eq!(armor_after_ap(12, -1, &r), 11);
        assert_eq!(armor_after_ap(2, -5, &r), 0);
        assert_eq!(armor_after_ap(6, 2, &r), 8);
        assert_eq!(boxes(11, 4, &r), 7);
        assert_eq!(boxes(3, 4, &r), 0);
    }

    #[test]
    fn physical_becomes_stun_when_the_dv_does_not_exceed_the_armor() {
        assert_eq!(damage_type(DamageType::Physical, 6, 6), DamageType::Stun);
        assert_eq!(
            damage_type(DamageType::Physical, 7, 6),
            DamageType::Physical
        );
        assert_eq!(damage_type(DamageType::Stun, 9, 2), DamageType::Stun);
    }
}
