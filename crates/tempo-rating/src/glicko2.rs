//! Glicko-2 (Glickman, "Example of the Glicko-2 system").
