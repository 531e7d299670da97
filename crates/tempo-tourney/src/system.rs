//! The pairing systems and their names: the one list the server's stored
//! settings, its API and the command line all read.
//!
//! ```
//! use tempo_tourney::System;
//! assert_eq!("swiss".parse::<System>(), Ok(System::Dutch));
//! assert_eq!("berger".parse::<System>(), Ok(System::RoundRobin));
//! assert_eq!(System::RoundRobin.to_string(), "round-robin");
//! assert!(System::is_double_round_robin_name("double-round-robin"));
//! assert!("lightning".parse::<System>().is_err());
//! ```
//!
//! A TRF file names its system only in free text (the `092` type line);
//! [`System::detect`] reads it back, [`System::type_line`] writes it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::model::Tournament;

/// A pairing system. Serialised, displayed and parsed by its
/// [`as_str`](System::as_str); [`FromStr`] also takes its
/// [`aliases`](System::aliases).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    /// FIDE Dutch Swiss system (C.04.3, edition 1 February 2026), see
    /// [`crate::dutch`]. Also named `swiss`.
    Dutch,
    /// Keizer for club evenings, see [`crate::keizer`].
    Keizer,
    /// Round robin by FIDE's Berger tables (C.05), single or double, see
    /// [`crate::roundrobin`]. Also named `roundrobin`, `berger` and
    /// `double-round-robin`.
    RoundRobin,
}

/// The name of the double round robin, an alias of [`System::RoundRobin`]
/// that also asks for two cycles.
const DOUBLE_ROUND_ROBIN: &str = "double-round-robin";

impl System {
    /// Every system, in the order names are listed.
    pub(crate) const ALL: [System; 3] = [System::Dutch, System::Keizer, System::RoundRobin];

    /// The system's name: `dutch`, `keizer`, `round-robin` (its serde and
    /// [`Display`](fmt::Display) form).
    pub fn as_str(self) -> &'static str {
        match self {
            System::Dutch => "dutch",
            System::Keizer => "keizer",
            System::RoundRobin => "round-robin",
        }
    }

    /// Other names [`FromStr`] accepts for the system.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            System::Dutch => &["swiss"],
            System::Keizer => &[],
            System::RoundRobin => &["roundrobin", "berger", DOUBLE_ROUND_ROBIN],
        }
    }

    /// Whether `name` is the double round robin's: it parses as
    /// [`System::RoundRobin`] and asks for two cycles
    /// ([`crate::pairing::Options::double_round_robin`]).
    pub fn is_double_round_robin_name(name: &str) -> bool {
        name == DOUBLE_ROUND_ROBIN
    }

    /// The system a tournament file was made for: Keizer if it has Keizer
    /// settings (`XTK` lines) or its type line (`092`) says Keizer, a round
    /// robin if the type line says round robin or Berger, else the Dutch
    /// (the system most files are written for).
    ///
    /// ```
    /// use tempo_tourney::{InfoLine, System, Tournament};
    /// let mut t = Tournament::new();
    /// assert_eq!(System::detect(&t), System::Dutch);
    /// t.info.push(InfoLine { tag: "092".into(), text: "Double Round Robin".into() });
    /// assert_eq!(System::detect(&t), System::RoundRobin);
    /// t.keizer_settings.push(("preset".into(), "club".into()));
    /// assert_eq!(System::detect(&t), System::Keizer);
    /// ```
    pub fn detect(t: &Tournament) -> System {
        let kind = t.info_text("092").unwrap_or("").to_ascii_lowercase();
        if !t.keizer_settings.is_empty() || kind.contains("keizer") {
            System::Keizer
        } else if ["round robin", "round-robin", "berger"]
            .iter()
            .any(|name| kind.contains(name))
        {
            System::RoundRobin
        } else {
            System::Dutch
        }
    }

    /// The text of a new tournament's type line (`092`), which
    /// [`System::detect`] reads back; `double` asks for a double round
    /// robin (other systems ignore it).
    pub fn type_line(self, double: bool) -> &'static str {
        match (self, double) {
            (System::Dutch, _) => "FIDE_DUTCH_2026",
            (System::Keizer, _) => "Keizer",
            (System::RoundRobin, false) => "Round robin",
            (System::RoundRobin, true) => "Double round robin",
        }
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no [`System`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("system '{name}': dutch, keizer or round-robin")]
pub struct UnknownSystem {
    /// The name as given, cut to its first 40 characters.
    pub name: String,
}

/// Characters of an unknown name an error repeats at most.
const MAX_ECHOED: usize = 40;

impl FromStr for System {
    type Err = UnknownSystem;

    fn from_str(text: &str) -> Result<System, UnknownSystem> {
        System::ALL
            .into_iter()
            .find(|s| s.as_str() == text || s.aliases().contains(&text))
            .ok_or_else(|| UnknownSystem {
                name: text.chars().take(MAX_ECHOED).collect(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_alias_reads_back() {
        for system in System::ALL {
            assert_eq!(system.as_str().parse(), Ok(system));
            assert_eq!(system.to_string(), system.as_str());
            for alias in system.aliases() {
                assert_eq!(alias.parse(), Ok(system), "{alias}");
            }
        }
        assert_eq!("double-round-robin".parse(), Ok(System::RoundRobin));
        assert!(!System::is_double_round_robin_name("round-robin"));
    }

    #[test]
    fn unknown_names_are_refused_and_cut_short() {
        assert_eq!(
            "Dutch".parse::<System>().unwrap_err().to_string(),
            "system 'Dutch': dutch, keizer or round-robin"
        );
        let long = "x".repeat(100);
        assert_eq!(long.parse::<System>().unwrap_err().name.len(), 40);
    }

    #[test]
    fn serde_uses_the_names() {
        for system in System::ALL {
            let json = serde_json::to_string(&system).unwrap();
            assert_eq!(json, format!("\"{}\"", system.as_str()));
            assert_eq!(serde_json::from_str::<System>(&json).unwrap(), system);
        }
        assert!(serde_json::from_str::<System>("\"swiss\"").is_err());
    }

    fn with_type_line(text: &str) -> Tournament {
        let mut t = Tournament::new();
        t.info.push(crate::InfoLine {
            tag: "092".into(),
            text: text.into(),
        });
        t
    }

    #[test]
    fn every_type_line_is_detected_as_its_system() {
        for system in System::ALL {
            for double in [false, true] {
                let t = with_type_line(system.type_line(double));
                assert_eq!(System::detect(&t), system, "{system} double {double}");
            }
        }
    }

    #[test]
    fn type_lines_of_other_programs_are_detected() {
        assert_eq!(
            System::detect(&with_type_line("Berger")),
            System::RoundRobin
        );
        assert_eq!(
            System::detect(&with_type_line("round-robin")),
            System::RoundRobin
        );
        assert_eq!(System::detect(&with_type_line("KEIZER")), System::Keizer);
        assert_eq!(
            System::detect(&with_type_line("Swiss System")),
            System::Dutch
        );
        assert_eq!(System::detect(&Tournament::new()), System::Dutch);
    }
}
