//! Rating arithmetic for ARO and TPR (FIDE B.02 table 8.1a, C.07 rounding).

/// FIDE's conversion from a fractional score `p` (in hundredths, 0..=100)
/// to a rating difference `dp` (Handbook B.02, table 8.1a).
const SCORE_TO_DP: [i32; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// `dp` for a percentage score `p` in hundredths (clamped to 0..=100).
pub fn score_to_dp(p_hundredths: i64) -> i32 {
    SCORE_TO_DP[p_hundredths.clamp(0, 100) as usize]
}

/// `numerator / denominator` rounded half up (both non-negative).
fn div_round_half_up(numerator: i64, denominator: i64) -> i64 {
    (2 * numerator + denominator).div_euclid(2 * denominator)
}

/// Average rating of the given opponents, rounded to the nearest whole
/// number (halves up); 0 without opponents.
pub fn average_rating(ratings: &[u16]) -> i64 {
    if ratings.is_empty() {
        return 0;
    }
    let sum: i64 = ratings.iter().map(|&r| i64::from(r)).sum();
    div_round_half_up(sum, ratings.len() as i64)
}

/// Tournament performance rating: the average rating of the opponents plus
/// `dp` of the percentage score, the percentage rounded to whole hundredths
/// (halves up). `score_halves` is the score in half points (a win 2, a draw
/// 1), over the games against `ratings`.
pub fn performance_rating(score_halves: i64, ratings: &[u16]) -> i64 {
    if ratings.is_empty() {
        return 0;
    }
    let games = ratings.len() as i64;
    // p = score / games, in hundredths: (halves * 50) / games.
    let p = div_round_half_up(score_halves * 50, games);
    average_rating(ratings) + i64::from(score_to_dp(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fide_table_checkpoints() {
        assert_eq!(score_to_dp(50), 0);
        assert_eq!(score_to_dp(75), 193);
        assert_eq!(score_to_dp(25), -193);
        assert_eq!(score_to_dp(100), 800);
        assert_eq!(score_to_dp(0), -800);
        for p in 0..=100 {
            assert_eq!(score_to_dp(p), -score_to_dp(100 - p), "symmetric at {p}");
        }
    }

    #[test]
    fn rounding() {
        assert_eq!(average_rating(&[2000, 2001]), 2001);
        assert_eq!(average_rating(&[2000, 2000, 2001]), 2000);
        // 2 / 3 = 66.67 % -> 67 -> dp 125.
        assert_eq!(performance_rating(4, &[1800, 1800, 1800]), 1800 + 125);
        // 1.5 / 2 = 75 % -> 193.
        assert_eq!(performance_rating(3, &[2000, 2100]), 2050 + 193);
    }
}
