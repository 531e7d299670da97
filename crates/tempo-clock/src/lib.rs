//! Time controls and clocks (work in progress).
