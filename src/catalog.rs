//! Finding variant files: a path, or the short name of a file in `variants/`.
//!
//! The seed variant files are also built into the binary, so `--variant mrc` works from any
//! directory; a `variants/` folder in the working directory wins over the built-in copy.

use crate::rules::Rules;
use crate::variant::{FieldError, Resolver, Variant, VariantError};
use std::path::Path;

/// The variant files shipped in `variants/`, built in.
pub const BUILTIN: &[(&str, &str)] = &[
    ("mrc", include_str!("../variants/mrc.toml")),
    ("mrc64", include_str!("../variants/mrc64.toml")),
    ("merc", include_str!("../variants/merc.toml")),
    ("icrc", include_str!("../variants/icrc.toml")),
    ("pmrc", include_str!("../variants/pmrc.toml")),
    ("chess", include_str!("../variants/chess.toml")),
    ("chess960", include_str!("../variants/chess960.toml")),
    ("maura", include_str!("../variants/maura.toml")),
    ("erc", include_str!("../variants/erc.toml")),
    ("crc", include_str!("../variants/crc.toml")),
];

/// The variant `play` uses when none is named.
pub const DEFAULT_VARIANT: &str = "mrc";

struct BuiltinResolver;

impl Resolver for BuiltinResolver {
    fn read(&self, _from: &str, name: &str) -> Result<(String, String), String> {
        let stem = name.trim_end_matches(".toml");
        let stem = stem.rsplit('/').next().unwrap_or(stem);
        BUILTIN
            .iter()
            .find(|(n, _)| *n == stem)
            .map(|(n, t)| (format!("<built-in {n}.toml>"), t.to_string()))
            .ok_or_else(|| format!("no built-in variant file `{name}`"))
    }
}

/// Loads a variant from a path (`variants/merc.toml`) or a short name (`merc`).
///
/// # Errors
/// When nothing is found under that name, or the file is invalid.
pub fn load(spec: &str) -> Result<Variant, VariantError> {
    let path = Path::new(spec);
    if path.exists() && path.is_file() {
        return Variant::from_path(path);
    }
    let looks_like_path = spec.contains('/') || spec.contains('\\') || spec.ends_with(".toml");
    if !looks_like_path {
        let local = Path::new("variants").join(format!("{spec}.toml"));
        if local.is_file() {
            return Variant::from_path(&local);
        }
        if let Some((n, text)) = BUILTIN.iter().find(|(n, _)| n.eq_ignore_ascii_case(spec)) {
            return Variant::from_text(&format!("<built-in {n}.toml>"), text, &BuiltinResolver);
        }
    }
    let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
    Err(VariantError(vec![FieldError {
        file: spec.to_string(),
        line: 0,
        column: 0,
        field: "--variant".into(),
        message: format!(
            "no such variant file; give a path to a .toml file or one of: {}",
            names.join(", ")
        ),
    }]))
}

/// Loads and compiles.
///
/// # Errors
/// As [`load`].
pub fn load_rules(spec: &str) -> Result<Rules, VariantError> {
    load(spec).map(Rules::compile)
}
