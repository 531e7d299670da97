//! Keizer settings: every number a club may choose, with the source's
//! values as defaults, named presets, and a `key value` form for the TRF
//! extension (`XTK key value`) and the command line.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::score::Fraction;

/// How ranking values (RWZ) are assigned to the places of a ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum ValueSeries {
    /// Place 1 gets `top`, each following place `step` less (never below
    /// `step`). The source: top 50, step 1.
    FixedTop { top: u32, step: u32 },
    /// Step 1, with the top value chosen so that first ≈ `ratio` × last:
    /// `top = round(ratio × (n − 1) / (ratio − 1))` for `n` players.
    Ratio { first_to_last: Fraction },
    /// Step 1, top = `round(factor × n)` for `n` players (e.g. 1.5 × n).
    ParticipantsTimes { factor: Fraction },
}

impl ValueSeries {
    /// The values of places 1..=n.
    pub(crate) fn values(self, n: usize) -> Vec<i64> {
        let (top, step) = match self {
            ValueSeries::FixedTop { top, step } => (i64::from(top), i64::from(step.max(1))),
            ValueSeries::Ratio { first_to_last: r } => {
                let (p, q) = (i64::from(r.numerator()), i64::from(r.denominator()));
                let gaps = n.saturating_sub(1) as i64;
                if p <= q {
                    // A ratio of 1 or less cannot be met with step 1:
                    // the flattest possible series.
                    (gaps + 1, 1)
                } else {
                    // top = r(n−1)/(r−1) = p(n−1)/(p−q), rounded half up.
                    ((2 * p * gaps + (p - q)) / (2 * (p - q)), 1)
                }
            }
            ValueSeries::ParticipantsTimes { factor } => {
                let (p, q) = (
                    i64::from(factor.numerator()),
                    i64::from(factor.denominator()),
                );
                ((2 * p * n as i64 + q) / (2 * q), 1)
            }
        };
        (0..n as i64).map(|k| (top - k * step).max(step)).collect()
    }
}

/// Which value a player is credited once, as the own-value bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OwnValue {
    /// The current value (of the ranking the results are valued with).
    Current,
    /// The value of the starting place.
    Start,
    /// No bonus.
    None,
}

/// How the ranking values are re-derived after a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    /// The source's: after each round, all rounds are re-scored once with
    /// the values of the previous ranking (the starting list before round 1).
    A,
    /// Iterate: re-score with the values of the ranking just computed until
    /// the ranking no longer changes (at most 100 passes; a cycle is
    /// reported).
    B,
    /// Frozen: the starting values are kept all season.
    C,
}

/// What a round without a game earns: a fraction of the own current value,
/// optionally only a number of times per season (after that, the round
/// scores like an unexcused absence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NonGame {
    pub fraction: Fraction,
    pub cap: Option<u32>,
}

impl NonGame {
    const fn new(num: u32, den: u32) -> NonGame {
        let fraction = match Fraction::new(num, den) {
            Some(f) => f,
            None => Fraction::ZERO,
        };
        NonGame {
            fraction,
            cap: None,
        }
    }
}

/// When two players may meet again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RematchRule {
    /// Any time (the pairing still prefers new opponents only through rank
    /// distance, i.e. not at all).
    Allowed,
    /// Never twice.
    Never,
    /// Not if they met in one of the last `N` rounds.
    NotWithin(u32),
    /// At most `K` meetings in the season.
    AtMost(u32),
}

impl fmt::Display for RematchRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RematchRule::Allowed => f.write_str("allowed"),
            RematchRule::Never => f.write_str("never"),
            RematchRule::NotWithin(n) => write!(f, "not-within:{n}"),
            RematchRule::AtMost(k) => write!(f, "at-most:{k}"),
        }
    }
}

/// Who gets the bye when an odd number of players is present.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ByeRule {
    /// The lowest-ranked present player.
    LowestRanked,
    /// Among the present players with the fewest byes so far, the lowest
    /// ranked.
    FewestByesFirst,
}

/// Who gets White when the colour history does not decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ColourTie {
    /// The lower-ranked player (the source's text; round 1: the weaker).
    Lower,
    /// The higher-ranked player (the source's worked example).
    Higher,
}

/// How the colour history is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ColourBalance {
    /// The player with fewer White games gets White (the source).
    FewerWhites,
    /// The player with the smaller surplus of White over Black games gets
    /// White (fairer when attendance differs).
    Difference,
}

/// How players with equal scores are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieOrder {
    /// By starting rank (the starting list is ordered by strength).
    StartingRank,
    /// By place in the previous ranking, then starting rank.
    PreviousRanking,
    /// By rating (higher first; unrated last), then starting rank.
    Rating,
}

/// Every Keizer setting. [`KeizerSettings::default`] is the source's
/// system (preset `source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct KeizerSettings {
    /// Ranking values. Default: fixed top 50, step 1.
    pub values: ValueSeries,
    /// Own-value bonus. Default: current value.
    pub own_value: OwnValue,
    /// Re-valuation method. Default: A.
    pub method: Method,
    /// Pairing-allocated bye (odd number present). Default: 2/3, no cap.
    pub bye: NonGame,
    /// Excused absence. Default: 2/3 (the source), no cap.
    pub excused: NonGame,
    /// Unexcused absence (also forfeit losses and rounds beyond a cap).
    /// Default: 0.
    pub unexcused: NonGame,
    /// Club duty (playing or working for the club elsewhere). Default: 2/3,
    /// no cap.
    pub club_duty: NonGame,
    /// Rounds before a late entry. Default: 0.
    pub late_entry: Fraction,
    /// Rematches. Default: allowed (the source leaves it to the director).
    pub rematch: RematchRule,
    /// The bye. Default: lowest-ranked present player.
    pub bye_rule: ByeRule,
    /// Who gets White when nothing else decides (round 1 included).
    /// Default: lower (the source's text).
    pub colour_tie: ColourTie,
    /// Colour history comparison. Default: fewer whites.
    pub colour_balance: ColourBalance,
    /// At most this many games in a row with the same colour (if
    /// possible). Default: no limit.
    pub max_same_colour: Option<u32>,
    /// A rematch reverses the colours of the previous meeting. Default: no.
    pub rematch_reverse_colours: bool,
    /// Ties in the ranking. Default: starting rank.
    pub tie_order: TieOrder,
}

impl Default for KeizerSettings {
    fn default() -> Self {
        KeizerSettings {
            values: ValueSeries::FixedTop { top: 50, step: 1 },
            own_value: OwnValue::Current,
            method: Method::A,
            bye: NonGame::new(2, 3),
            excused: NonGame::new(2, 3),
            unexcused: NonGame::new(0, 1),
            club_duty: NonGame::new(2, 3),
            late_entry: Fraction::ZERO,
            rematch: RematchRule::Allowed,
            bye_rule: ByeRule::LowestRanked,
            colour_tie: ColourTie::Lower,
            colour_balance: ColourBalance::FewerWhites,
            max_same_colour: None,
            rematch_reverse_colours: false,
            tie_order: TieOrder::StartingRank,
        }
    }
}

/// The named presets: `(name, one-line description)`.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "source",
        "the source's system: top 50 step 1, own value current, method A, bye/excused/club duty 2/3, unexcused 0, rematches allowed, bye to the lowest-ranked, colour tie lower",
    ),
    (
        "example",
        "the source's worked example: as source, but colour tie higher (the higher-ranked player gets White)",
    ),
    (
        "ratio",
        "as source, but values with first:last = 3 (top from the number of players, step 1)",
    ),
    (
        "participants",
        "as source, but top value 1.5 x number of players, step 1",
    ),
    (
        "club",
        "a club season: values ratio 3, bye 3/4, excused 1/3 at most 5 times, unexcused 0, club duty 1 (full own value), no rematch within 3 rounds, fewest byes first, at most 2 same colours in a row, rematches reverse colours, colour difference",
    ),
    (
        "strict",
        "as source, but never a rematch, fewest byes first, at most 2 same colours in a row, colour difference",
    ),
    (
        "stable",
        "as source, but method B (iterate until the ranking is stable)",
    ),
    (
        "frozen",
        "as source, but method C (starting values all season)",
    ),
    (
        "top100",
        "as source, but top value 100, step 1, excused 1/2, bye 1/2",
    ),
];

impl KeizerSettings {
    /// The settings of a named preset (see [`PRESETS`]).
    pub fn preset(name: &str) -> Option<KeizerSettings> {
        let source = KeizerSettings::default();
        let frac = |n, d| Fraction::new(n, d).expect("non-zero denominator");
        let s = match name {
            "source" => source,
            "example" => KeizerSettings {
                colour_tie: ColourTie::Higher,
                ..source
            },
            "ratio" => KeizerSettings {
                values: ValueSeries::Ratio {
                    first_to_last: frac(3, 1),
                },
                ..source
            },
            "participants" => KeizerSettings {
                values: ValueSeries::ParticipantsTimes { factor: frac(3, 2) },
                ..source
            },
            "club" => KeizerSettings {
                values: ValueSeries::Ratio {
                    first_to_last: frac(3, 1),
                },
                bye: NonGame::new(3, 4),
                excused: NonGame {
                    fraction: frac(1, 3),
                    cap: Some(5),
                },
                club_duty: NonGame::new(1, 1),
                rematch: RematchRule::NotWithin(3),
                bye_rule: ByeRule::FewestByesFirst,
                max_same_colour: Some(2),
                rematch_reverse_colours: true,
                colour_balance: ColourBalance::Difference,
                ..source
            },
            "strict" => KeizerSettings {
                rematch: RematchRule::Never,
                bye_rule: ByeRule::FewestByesFirst,
                max_same_colour: Some(2),
                colour_balance: ColourBalance::Difference,
                ..source
            },
            "stable" => KeizerSettings {
                method: Method::B,
                ..source
            },
            "frozen" => KeizerSettings {
                method: Method::C,
                ..source
            },
            "top100" => KeizerSettings {
                values: ValueSeries::FixedTop { top: 100, step: 1 },
                excused: NonGame::new(1, 2),
                bye: NonGame::new(1, 2),
                ..source
            },
            _ => return None,
        };
        Some(s)
    }

    /// Applies one `key value` setting (the TRF extension's `XTK key value`
    /// lines and the command line use the same keys; see the README).
    pub fn apply(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let err = |expected: &'static str| SettingError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        let value = value.trim();
        let number = |expected| value.parse::<u32>().map_err(|_| err(expected));
        let fraction = |expected| value.parse::<Fraction>().map_err(|_| err(expected));
        let cap = |expected| -> Result<Option<u32>, SettingError> {
            if value.eq_ignore_ascii_case("none") {
                Ok(None)
            } else {
                value.parse::<u32>().map(Some).map_err(|_| err(expected))
            }
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "preset" => {
                *self = KeizerSettings::preset(value).ok_or_else(|| err("a preset name"))?;
            }
            "top" | "top-value" => {
                let step = match self.values {
                    ValueSeries::FixedTop { step, .. } => step,
                    _ => 1,
                };
                let top = number("a whole number from 1 to 1000000")?;
                if top == 0 || top > 1_000_000 {
                    return Err(err("a whole number from 1 to 1000000"));
                }
                self.values = ValueSeries::FixedTop { top, step };
            }
            "step" => {
                let step = number("a whole number from 1 to 1000000")?;
                if step == 0 || step > 1_000_000 {
                    return Err(err("a whole number from 1 to 1000000"));
                }
                let top = match self.values {
                    ValueSeries::FixedTop { top, .. } => top,
                    _ => 50,
                };
                self.values = ValueSeries::FixedTop { top, step };
            }
            "ratio" => {
                // "3", "2.5" or first:last as "3:1".
                let r = match value.split_once(':') {
                    Some((a, b)) => format!("{}/{}", a.trim(), b.trim()).parse::<Fraction>(),
                    None => value.parse::<Fraction>(),
                }
                .map_err(|_| err("a ratio above 1, e.g. 3 or 3:1"))?;
                if r.numerator() <= r.denominator() {
                    return Err(err("a ratio above 1, e.g. 3 or 3:1"));
                }
                self.values = ValueSeries::Ratio { first_to_last: r };
            }
            "participants-factor" => {
                let f = fraction("a positive factor, e.g. 1.5")?;
                if f.numerator() == 0 {
                    return Err(err("a positive factor, e.g. 1.5"));
                }
                self.values = ValueSeries::ParticipantsTimes { factor: f };
            }
            "own-value" => {
                self.own_value = match value.to_ascii_lowercase().as_str() {
                    "current" => OwnValue::Current,
                    "start" => OwnValue::Start,
                    "none" => OwnValue::None,
                    _ => return Err(err("current, start or none")),
                }
            }
            "method" => {
                self.method = match value.to_ascii_uppercase().as_str() {
                    "A" => Method::A,
                    "B" => Method::B,
                    "C" => Method::C,
                    _ => return Err(err("A, B or C")),
                }
            }
            "bye" => self.bye.fraction = fraction("a fraction, e.g. 2/3")?,
            "excused" => self.excused.fraction = fraction("a fraction, e.g. 2/3")?,
            "unexcused" => self.unexcused.fraction = fraction("a fraction, e.g. 0")?,
            "club-duty" => self.club_duty.fraction = fraction("a fraction, e.g. 2/3")?,
            "late-entry" => self.late_entry = fraction("a fraction, e.g. 0")?,
            "bye-cap" => self.bye.cap = cap("a whole number or none")?,
            "excused-cap" => self.excused.cap = cap("a whole number or none")?,
            "unexcused-cap" => self.unexcused.cap = cap("a whole number or none")?,
            "club-duty-cap" => self.club_duty.cap = cap("a whole number or none")?,
            "rematch" => {
                self.rematch = parse_rematch(value)
                    .ok_or_else(|| err("allowed, never, not-within:N or at-most:K"))?
            }
            "bye-rule" => {
                self.bye_rule = match value.to_ascii_lowercase().as_str() {
                    "lowest" | "lowest-ranked" => ByeRule::LowestRanked,
                    "fewest" | "fewest-byes-first" => ByeRule::FewestByesFirst,
                    _ => return Err(err("lowest or fewest")),
                }
            }
            "colour-tie" | "color-tie" => {
                self.colour_tie = match value.to_ascii_lowercase().as_str() {
                    "lower" => ColourTie::Lower,
                    "higher" => ColourTie::Higher,
                    _ => return Err(err("lower or higher")),
                }
            }
            "colour-balance" | "color-balance" => {
                self.colour_balance = match value.to_ascii_lowercase().as_str() {
                    "whites" | "fewer-whites" => ColourBalance::FewerWhites,
                    "difference" => ColourBalance::Difference,
                    _ => return Err(err("whites or difference")),
                }
            }
            "max-same-colour" | "max-same-color" => {
                self.max_same_colour = cap("a whole number or none")?
            }
            "rematch-colours" | "rematch-colors" => {
                self.rematch_reverse_colours = match value.to_ascii_lowercase().as_str() {
                    "reverse" => true,
                    "any" => false,
                    _ => return Err(err("reverse or any")),
                }
            }
            "tie-order" => {
                self.tie_order = match value.to_ascii_lowercase().as_str() {
                    "start" | "starting-rank" => TieOrder::StartingRank,
                    "previous" | "previous-ranking" => TieOrder::PreviousRanking,
                    "rating" => TieOrder::Rating,
                    _ => return Err(err("start, previous or rating")),
                }
            }
            _ => return Err(SettingError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// The settings as `key value` pairs (for `XTK` lines); applying them
    /// in order to the defaults gives these settings back.
    pub fn to_key_values(&self) -> Vec<(String, String)> {
        let mut out: Vec<(&str, String)> = Vec::new();
        match self.values {
            ValueSeries::FixedTop { top, step } => {
                out.push(("top", top.to_string()));
                out.push(("step", step.to_string()));
            }
            ValueSeries::Ratio { first_to_last } => out.push(("ratio", first_to_last.to_string())),
            ValueSeries::ParticipantsTimes { factor } => {
                out.push(("participants-factor", factor.to_string()))
            }
        }
        let own = match self.own_value {
            OwnValue::Current => "current",
            OwnValue::Start => "start",
            OwnValue::None => "none",
        };
        out.push(("own-value", own.into()));
        out.push(("method", format!("{:?}", self.method)));
        let cap = |c: Option<u32>| c.map_or("none".to_string(), |c| c.to_string());
        for (name, rule) in [
            ("bye", self.bye),
            ("excused", self.excused),
            ("unexcused", self.unexcused),
            ("club-duty", self.club_duty),
        ] {
            out.push((name, rule.fraction.to_string()));
            let cap_key = match name {
                "bye" => "bye-cap",
                "excused" => "excused-cap",
                "unexcused" => "unexcused-cap",
                _ => "club-duty-cap",
            };
            out.push((cap_key, cap(rule.cap)));
        }
        out.push(("late-entry", self.late_entry.to_string()));
        out.push(("rematch", self.rematch.to_string()));
        let bye_rule = match self.bye_rule {
            ByeRule::LowestRanked => "lowest",
            ByeRule::FewestByesFirst => "fewest",
        };
        out.push(("bye-rule", bye_rule.into()));
        let tie = match self.colour_tie {
            ColourTie::Lower => "lower",
            ColourTie::Higher => "higher",
        };
        out.push(("colour-tie", tie.into()));
        let balance = match self.colour_balance {
            ColourBalance::FewerWhites => "whites",
            ColourBalance::Difference => "difference",
        };
        out.push(("colour-balance", balance.into()));
        out.push(("max-same-colour", cap(self.max_same_colour)));
        let rc = if self.rematch_reverse_colours {
            "reverse"
        } else {
            "any"
        };
        out.push(("rematch-colours", rc.into()));
        let tie_order = match self.tie_order {
            TieOrder::StartingRank => "start",
            TieOrder::PreviousRanking => "previous",
            TieOrder::Rating => "rating",
        };
        out.push(("tie-order", tie_order.into()));
        out.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }
}

fn parse_rematch(value: &str) -> Option<RematchRule> {
    let v = value.to_ascii_lowercase();
    match v.as_str() {
        "allowed" => return Some(RematchRule::Allowed),
        "never" => return Some(RematchRule::Never),
        _ => {}
    }
    let (kind, n) = v.split_once(':')?;
    let n: u32 = n.trim().parse().ok()?;
    match kind.trim() {
        "not-within" if n > 0 => Some(RematchRule::NotWithin(n)),
        "at-most" if n > 0 => Some(RematchRule::AtMost(n)),
        _ => None,
    }
}

/// A setting that could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("unknown Keizer setting '{0}'")]
    UnknownKey(String),
    #[error("Keizer setting '{key}': '{value}' is not {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: &'static str,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_series() {
        let fixed = ValueSeries::FixedTop { top: 50, step: 1 };
        assert_eq!(fixed.values(3), vec![50, 49, 48]);
        assert_eq!(
            ValueSeries::FixedTop { top: 3, step: 1 }.values(5),
            vec![3, 2, 1, 1, 1]
        );
        let ratio = ValueSeries::Ratio {
            first_to_last: Fraction::new(3, 1).unwrap(),
        };
        // 35 players: top 51, last 17 (3 × 17 = 51).
        let v = ratio.values(35);
        assert_eq!((v[0], v[34]), (51, 17));
        let v = ratio.values(10);
        assert_eq!((v[0], v[9]), (14, 5));
        let times = ValueSeries::ParticipantsTimes {
            factor: Fraction::new(3, 2).unwrap(),
        };
        assert_eq!(times.values(10)[0], 15);
        assert_eq!(times.values(11)[0], 17); // 16.5 rounds up
    }

    #[test]
    fn key_values_round_trip_for_every_preset() {
        for (name, _) in PRESETS {
            let preset = KeizerSettings::preset(name).unwrap();
            let mut rebuilt = KeizerSettings::default();
            for (k, v) in preset.to_key_values() {
                rebuilt.apply(&k, &v).unwrap();
            }
            assert_eq!(rebuilt, preset, "{name}");
        }
    }

    #[test]
    fn settings_round_trip_through_serde() {
        for (name, _) in PRESETS {
            let preset = KeizerSettings::preset(name).unwrap();
            let json = serde_json::to_string(&preset).unwrap();
            let back: KeizerSettings = serde_json::from_str(&json).unwrap();
            assert_eq!(back, preset, "{json}");
        }
        let json = serde_json::to_string(&KeizerSettings::default()).unwrap();
        assert!(
            json.contains(r#""excused":{"fraction":"2/3","cap":null}"#),
            "{json}"
        );
    }

    #[test]
    fn bad_settings_are_named() {
        let mut s = KeizerSettings::default();
        assert_eq!(
            s.apply("colour", "x"),
            Err(SettingError::UnknownKey("colour".into()))
        );
        let e = s.apply("method", "D").unwrap_err();
        assert_eq!(
            e.to_string(),
            "Keizer setting 'method': 'D' is not A, B or C"
        );
        assert!(s.apply("rematch", "not-within:0").is_err());
        assert!(s.apply("ratio", "1").is_err());
        assert!(s.apply("preset", "nope").is_err());
        s.apply("ratio", "5:2").unwrap();
        assert_eq!(
            s.values,
            ValueSeries::Ratio {
                first_to_last: Fraction::new(5, 2).unwrap()
            }
        );
        s.apply("rematch", "at-most:2").unwrap();
        assert_eq!(s.rematch, RematchRule::AtMost(2));
    }
}
