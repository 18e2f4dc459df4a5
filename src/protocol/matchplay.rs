//! Matches against another UCI engine.
