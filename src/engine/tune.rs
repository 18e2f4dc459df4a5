//! Texel tuning: fit the evaluation weights to game results by logistic regression.
