//! Rating systems for a club.
//!
//! - [`glicko2`]: Glicko-2 (Glickman), the club rating of games played on
//!   the server, one per variant group, as lichess keeps it.
//! - [`fide`]: the FIDE rating change of a tournament (FIDE Handbook B.02),
//!   with the regulation's table of expected scores and the 400-point rule.
//! - [`dwz`]: the German federation's DWZ (Wertungsordnung des DSB).
//! - [`score`]: a game's points for one player (1, ½, 0), shared by both.
//! - [`performance`]: the maximum-likelihood rating of a player from its
//!   scores against opponents of known ratings, with a 95 % interval.
//!
//! Pure calculations: no storage, no I/O.

pub mod dwz;
pub mod fide;
pub mod glicko2;
pub mod performance;
pub mod score;
