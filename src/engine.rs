//! Search and evaluation: the built-in engine (alpha-beta, quiescence, transposition table).
