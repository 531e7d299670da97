//! What a player's registration adds for the rating previews beside the
//! standings (see `ratings`): birth year, DWZ and its index, FIDE K. Kept
//! in the tournament's settings, beside the TRF.

use serde::{Deserialize, Serialize};
use tempo_rating::dwz::{Dwz, Index};
use tempo_rating::fide::KFactor;

use super::{Refusal, invalid};

/// What a player's registration adds for the rating previews (kept in the
/// tournament's settings, beside the TRF).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RatingFacts {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birth_year: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dwz: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dwz_index: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fide_k: Option<u8>,
}

impl RatingFacts {
    /// The facts of a registration, checked: birth year 1900 to 2100, DWZ
    /// 1 to 3500, index 0 to 9999, K 1 to 40.
    pub fn new(
        birth_year: Option<u32>,
        dwz: Option<u32>,
        dwz_index: Option<u32>,
        fide_k: Option<u32>,
    ) -> Result<RatingFacts, Refusal> {
        let birth_year = birth_year
            .map(|y| {
                u16::try_from(y)
                    .ok()
                    .filter(|y| (1900..=2100).contains(y))
                    .ok_or_else(|| invalid(format!("birth_year {y}: 1900 to 2100")))
            })
            .transpose()?;
        let dwz = dwz
            .map(|d| {
                Dwz::new(d)
                    .map(|d| d.value() as u16)
                    .map_err(|e| invalid(format!("dwz: {e}")))
            })
            .transpose()?;
        let dwz_index = dwz_index
            .map(|i| {
                Index::new(i)
                    .map(|i| i.value() as u16)
                    .map_err(|e| invalid(format!("dwz_index: {e}")))
            })
            .transpose()?;
        let fide_k = fide_k
            .map(|k| {
                KFactor::new(k)
                    .map(|k| k.value() as u8)
                    .map_err(|e| invalid(format!("fide_k: {e}")))
            })
            .transpose()?;
        Ok(RatingFacts {
            birth_year,
            dwz,
            dwz_index,
            fide_k,
        })
    }

    pub(super) fn is_empty(&self) -> bool {
        *self == RatingFacts::default()
    }
}
