//! Chess rules core (work in progress).
