//! SR 2097 Edge: what each use costs, the current and maximum Edge, burning and recovering it.

use serde::{Deserialize, Serialize};

use super::{EdgeRules, Severity};

/// What a point of Edge is spent on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdgeUse {
    /// Gain Advantage or remove Disadvantage on a check.
    Check,
    /// +2d6 initiative for one turn.
    Boost,
    /// +2d6 on a damage roll.
    Damage,
    /// An injury one step less severe.
    Lessen,
}

impl EdgeUse {
    pub fn cost(self, rules: &EdgeRules) -> u8 {
        match self {
            EdgeUse::Check => rules.check,
            EdgeUse::Boost => rules.boost,
            EdgeUse::Damage => rules.damage,
            EdgeUse::Lessen => rules.lessen,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            EdgeUse::Check => "on the check",
            EdgeUse::Boost => "to boost initiative",
            EdgeUse::Damage => "to boost damage",
            EdgeUse::Lessen => "to lessen an injury",
        }
    }
}

/// A character's Edge: what is left now, and the most it can be (lowered for good by a burn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EdgePool {
    pub current: u8,
    pub max: u8,
}

impl EdgePool {
    /// `None` when there is not enough Edge left.
    pub fn spend(self, n: u8) -> Option<EdgePool> {
        Some(EdgePool {
            current: self.current.checked_sub(n)?,
            max: self.max,
        })
    }

    /// Edge Burn: current Edge and maximum Edge both lower. The point sacrificed is the
    /// maximum's (our ruling): with none left now, current stays 0; `None` only when the
    /// maximum has no point left to burn.
    pub fn burn(self, rules: &EdgeRules) -> Option<EdgePool> {
        let max = self.max.checked_sub(rules.burn_max)?;
        Some(EdgePool {
            current: self.current.saturating_sub(rules.burn).min(max),
            max,
        })
    }

    /// Edge regained; `None` if it would go above the maximum.
    pub fn gain(self, n: u8) -> Option<EdgePool> {
        let current = self.current.checked_add(n).filter(|c| *c <= self.max)?;
        Some(EdgePool {
            current,
            max: self.max,
        })
    }

    /// Between scenarios: all of it back.
    #[must_use]
    pub fn refill(self) -> EdgePool {
        EdgePool {
            current: self.max,
            max: self.max,
        }
    }
}

/// Lessen Injury: the severity `rules.lessen_steps` lighter, `None` below a graze.
pub fn lessen(severity: Severity, rules: &EdgeRules) -> Option<Severity> {
    severity.lighter(rules.lessen_steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spending_and_gaining_stay_between_zero_and_the_maximum() {
        let p = EdgePool { current: 1, max: 3 };
        assert_eq!(p.spend(1), Some(EdgePool { current: 0, max: 3 }));
        assert_eq!(p.spend(2), None);
        assert_eq!(p.gain(2), Some(EdgePool { current: 3, max: 3 }));
        assert_eq!(p.gain(3), None);
        assert_eq!(p.refill(), EdgePool { current: 3, max: 3 });
    }
}
