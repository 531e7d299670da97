//! The Keizer settings of `tempo pair --system keizer` and `tempo
//! standings --system keizer`.
//!
//! Settings come from the file's `XTK key value` lines, then
//! `--keizer-preset` (which replaces them), then the other `--keizer-*`
//! flags, which override one setting each.

use anyhow::Context;
use clap::Args;
use clap::builder::PossibleValuesParser;
use tempo_tourney::Tournament;
use tempo_tourney::keizer::{self, KeizerSettings};

/// Keizer settings given on the command line (each overrides the file's
/// `XTK` setting of the same name; see the README's Keizer section).
#[derive(Debug, Args, Default, Clone)]
#[command(next_help_heading = "Keizer settings (override the file's XTK lines)")]
pub(crate) struct KeizerFlags {
    /// Start from a named preset instead of the file's settings: source
    /// (the defaults), example, ratio, participants, club, strict, stable,
    /// frozen, top100.
    #[arg(long, value_name = "NAME", value_parser = PossibleValuesParser::new(
        ["source", "example", "ratio", "participants", "club", "strict", "stable", "frozen", "top100"]))]
    pub keizer_preset: Option<String>,
    /// Fixed top value (value of place 1); each place below is worth
    /// --keizer-step less [default: 50].
    #[arg(long, value_name = "V", conflicts_with_all = ["keizer_ratio", "keizer_participants_factor"])]
    pub keizer_top: Option<String>,
    /// Step between places for a fixed top value [default: 1].
    #[arg(long, value_name = "N")]
    pub keizer_step: Option<String>,
    /// Value series by ratio first:last (e.g. 3 or 3:1): top chosen from
    /// the number of players, step 1 [default: off, fixed top 50].
    #[arg(long, value_name = "R", conflicts_with = "keizer_participants_factor")]
    pub keizer_ratio: Option<String>,
    /// Value series with top = factor × number of players (e.g. 1.5), step
    /// 1 [default: off].
    #[arg(long, value_name = "F")]
    pub keizer_participants_factor: Option<String>,
    /// Own-value bonus: current, start or none [default: current].
    #[arg(long, value_name = "KIND", value_parser = PossibleValuesParser::new(["current", "start", "none"]))]
    pub keizer_own_value: Option<String>,
    /// Re-valuation: A (re-score all rounds once with the previous
    /// ranking's values), B (iterate until stable), C (frozen) [default: A].
    #[arg(long, value_name = "M", value_parser = PossibleValuesParser::new(["A", "B", "C"]), ignore_case = true)]
    pub keizer_method: Option<String>,
    /// Pairing-allocated bye, as a fraction of the own value [default: 2/3].
    #[arg(long, value_name = "FRACTION")]
    pub keizer_bye: Option<String>,
    /// Excused absence, fraction of the own value [default: 2/3].
    #[arg(long, value_name = "FRACTION")]
    pub keizer_excused: Option<String>,
    /// Unexcused absence (and forfeit loss), fraction of the own value
    /// [default: 0].
    #[arg(long, value_name = "FRACTION")]
    pub keizer_unexcused: Option<String>,
    /// Club duty, fraction of the own value [default: 2/3].
    #[arg(long, value_name = "FRACTION")]
    pub keizer_club_duty: Option<String>,
    /// Rounds before a late entry, fraction of the own value [default: 0].
    #[arg(long, value_name = "FRACTION")]
    pub keizer_late_entry: Option<String>,
    /// Byes credited per season; later ones score as unexcused [default: none].
    #[arg(long, value_name = "N|none")]
    pub keizer_bye_cap: Option<String>,
    /// Excused absences credited per season; later ones score as unexcused
    /// [default: none].
    #[arg(long, value_name = "N|none")]
    pub keizer_excused_cap: Option<String>,
    /// Unexcused absences credited per season; later ones score 0
    /// [default: none].
    #[arg(long, value_name = "N|none")]
    pub keizer_unexcused_cap: Option<String>,
    /// Club-duty rounds credited per season; later ones score as unexcused
    /// [default: none].
    #[arg(long, value_name = "N|none")]
    pub keizer_club_duty_cap: Option<String>,
    /// Rematches: allowed, never, not-within:N (rounds), at-most:K (meetings)
    /// [default: allowed].
    #[arg(long, value_name = "RULE")]
    pub keizer_rematch: Option<String>,
    /// Bye: lowest (lowest-ranked present player) or fewest (fewest byes
    /// first, then lowest-ranked) [default: lowest].
    #[arg(long, value_name = "RULE", value_parser = PossibleValuesParser::new(["lowest", "fewest"]))]
    pub keizer_bye_rule: Option<String>,
    /// Who gets White when nothing else decides, round 1 included: lower
    /// (the source's text) or higher (the source's example) [default: lower].
    #[arg(long, value_name = "WHO", value_parser = PossibleValuesParser::new(["lower", "higher"]))]
    pub keizer_colour_tie: Option<String>,
    /// Colour history: whites (fewer White games gets White) or difference
    /// (smaller White-minus-Black surplus gets White) [default: whites].
    #[arg(long, value_name = "HOW", value_parser = PossibleValuesParser::new(["whites", "difference"]))]
    pub keizer_colour_balance: Option<String>,
    /// At most N games in a row with the same colour, if possible
    /// [default: none].
    #[arg(long, value_name = "N|none")]
    pub keizer_max_same_colour: Option<String>,
    /// Colours of a rematch: reverse (of the last meeting) or any
    /// [default: any].
    #[arg(long, value_name = "HOW", value_parser = PossibleValuesParser::new(["reverse", "any"]))]
    pub keizer_rematch_colours: Option<String>,
    /// Equal scores: start (starting rank), previous (previous ranking) or
    /// rating [default: start].
    #[arg(long, value_name = "ORDER", value_parser = PossibleValuesParser::new(["start", "previous", "rating"]))]
    pub keizer_tie_order: Option<String>,
}

impl KeizerFlags {
    /// The flags as `(setting key, value)` in the order they apply (the
    /// preset is handled separately).
    fn overrides(&self) -> Vec<(&'static str, &str)> {
        let all: [(&'static str, &Option<String>); 22] = [
            ("top", &self.keizer_top),
            ("step", &self.keizer_step),
            ("ratio", &self.keizer_ratio),
            ("participants-factor", &self.keizer_participants_factor),
            ("own-value", &self.keizer_own_value),
            ("method", &self.keizer_method),
            ("bye", &self.keizer_bye),
            ("excused", &self.keizer_excused),
            ("unexcused", &self.keizer_unexcused),
            ("club-duty", &self.keizer_club_duty),
            ("late-entry", &self.keizer_late_entry),
            ("bye-cap", &self.keizer_bye_cap),
            ("excused-cap", &self.keizer_excused_cap),
            ("unexcused-cap", &self.keizer_unexcused_cap),
            ("club-duty-cap", &self.keizer_club_duty_cap),
            ("rematch", &self.keizer_rematch),
            ("bye-rule", &self.keizer_bye_rule),
            ("colour-tie", &self.keizer_colour_tie),
            ("colour-balance", &self.keizer_colour_balance),
            ("max-same-colour", &self.keizer_max_same_colour),
            ("rematch-colours", &self.keizer_rematch_colours),
            ("tie-order", &self.keizer_tie_order),
        ];
        all.into_iter()
            .filter_map(|(k, v)| v.as_deref().map(|v| (k, v)))
            .collect()
    }

    /// Applies the preset (replacing `settings`) and then every given flag.
    pub(crate) fn apply_to(&self, settings: &mut KeizerSettings) -> anyhow::Result<()> {
        if let Some(name) = &self.keizer_preset {
            settings.apply("preset", name)?;
        }
        for (key, value) in self.overrides() {
            settings
                .apply(key, value)
                .with_context(|| format!("--keizer-{key}"))?;
        }
        Ok(())
    }

    /// The settings for a tournament: its stored `XTK` settings, then the
    /// flags.
    pub(crate) fn settings_for(&self, t: &Tournament) -> anyhow::Result<KeizerSettings> {
        let mut settings = keizer::settings_from_tournament(t)
            .context("the file's Keizer settings (XTK lines)")?;
        self.apply_to(&mut settings)?;
        Ok(settings)
    }
}
