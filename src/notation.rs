//! Notation: SAN and PGN read and write for every variant.
