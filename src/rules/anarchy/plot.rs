//! Plot Point arithmetic: a player's awards and spends against the cap, the GM's pool and the
//! GM's limits in a turn.

use super::PlotPointRules;

/// A limit a Plot Point change would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// A player already holds the most a player may.
    PlayerCap { cap: u8 },
    /// Not enough Plot Points for the spend.
    NotEnough { have: u32, need: u32 },
    /// The GM has spent as many this turn as there are players.
    GmTurn { spent: u32, limit: u32 },
    /// The GM has spent as many on this player this turn as one player allows.
    GmOnPlayer { spent: u32, limit: u32 },
}

/// A player's Plot Points after an award.
pub fn award(have: u8, rules: &PlotPointRules) -> Result<u8, Limit> {
    if have >= rules.player_cap {
        return Err(Limit::PlayerCap {
            cap: rules.player_cap,
        });
    }
    Ok(have.saturating_add(rules.award).min(rules.player_cap))
}

/// What a Shadow Amp's bonus adds to `have`: the bonus, up to the cap.
pub fn amp_bonus(have: u8, rules: &PlotPointRules) -> u8 {
    rules
        .shadow_amp_bonus
        .min(rules.player_cap.saturating_sub(have))
}

/// Whether `have` Plot Points pay for `cost`.
pub fn afford(have: u32, cost: u32) -> Result<(), Limit> {
    if cost > have {
        return Err(Limit::NotEnough { have, need: cost });
    }
    Ok(())
}

/// What the GM's pool gains when a player spends `points`.
pub fn gm_gain(points: u8, rules: &PlotPointRules) -> u32 {
    u32::from(points) * u32::from(rules.gm_per_player_point)
}

/// Whether the GM may spend `cost` more this turn: `spent` so far this turn, `on_player` so far
/// on the player this spend is aimed at (if any), with `players` players at the table.
pub fn gm_may_spend(
    spent: u32,
    on_player: Option<u32>,
    cost: u32,
    players: u32,
    rules: &PlotPointRules,
) -> Result<(), Limit> {
    let limit = players * u32::from(rules.gm_turn_points_per_player);
    if spent + cost > limit {
        return Err(Limit::GmTurn { spent, limit });
    }
    let one = u32::from(rules.gm_on_one_player_per_turn);
    if let Some(on) = on_player
        && on + cost > one
    {
        return Err(Limit::GmOnPlayer {
            spent: on,
            limit: one,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HouseRules;

    fn rules() -> PlotPointRules {
        HouseRules::embedded().anarchy.plot_points
    }

    #[test]
    fn an_award_is_one_point_and_stops_at_five() {
        assert_eq!(award(3, &rules()), Ok(4));
        assert_eq!(award(4, &rules()), Ok(5));
        assert_eq!(award(5, &rules()), Err(Limit::PlayerCap { cap: 5 }));
    }

    #[test]
    fn the_amp_bonus_never_passes_the_cap() {
        assert_eq!(amp_bonus(3, &rules()), 1);
        assert_eq!(amp_bonus(5, &rules()), 0);
    }

    #[test]
    fn the_gm_gains_two_a_point_and_keeps_to_the_turn_limits() {
        assert_eq!(gm_gain(1, &rules()), 2);
        assert_eq!(gm_gain(2, &rules()), 4);
        assert_eq!(gm_may_spend(2, None, 1, 3, &rules()), Ok(()));
        assert_eq!(
            gm_may_spend(3, None, 1, 3, &rules()),
            Err(Limit::GmTurn { spent: 3, limit: 3 })
        );
        assert_eq!(
            gm_may_spend(2, Some(2), 1, 4, &rules()),
            Err(Limit::GmOnPlayer { spent: 2, limit: 2 })
        );
    }
}
