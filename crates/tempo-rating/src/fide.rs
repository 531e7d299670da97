//! The FIDE rating change of a tournament (FIDE Handbook B.02).
