//! Helpers shared by tempo's tests and benchmark drivers.
//!
//! A workspace-internal crate without dependencies of its own: product
//! crates take it only as a dev-dependency, so a test that needs one of
//! these helpers compiles this crate and nothing else (tempo-sync's tests
//! used to compile the play server, axum and sqlx, for [`PickRng`]).
//!
//! # Example
//!
//! A reproducible random game step: the same seed draws the same indices.
//!
//! ```
//! use tempo_testkit::PickRng;
//!
//! let (mut a, mut b) = (PickRng::new(7), PickRng::new(7));
//! let (white, black) = a.pick2(20, 20);
//! assert!(white < 20 && black < 20);
//! assert_eq!(b.pick2(20, 20), (white, black));
//! ```

mod pick;

pub use pick::PickRng;
