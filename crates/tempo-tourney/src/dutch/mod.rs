//! The FIDE (Dutch) Swiss pairing system, Handbook C.04.3 (edition effective
//! 1 February 2026), with the general rules C.04.1 and C.04.2.

pub mod blossom;
pub mod wide;
