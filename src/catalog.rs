//! Finding variant files: a path, or the short name of a file in `variants/`.
//!
//! The shipped variant files are also built into the binary, so `--variant mrc` works from any
//! directory; a `variants/` folder in the working directory wins over the built-in copy. This
//! is the one place of the library that reads variant files from disk (the variant module takes
//! text); it refuses anything but small regular files.

use crate::rules::Rules;
use crate::variant::{Resolver, Variant, VariantError};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

macro_rules! builtin {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../variants/", $name, ".toml")))),*]
    };
}

/// The variant files shipped in `variants/`, built in: (short name, text).
#[rustfmt::skip]
pub const BUILTIN: &[(&str, &str)] = builtin!(
    "mrc", "mrc64", "merc", "icrc", "pmrc", "chess", "chess960", "maura", "erc", "crc",
    "pseudo-mrc", "chess8400", "modern", "capablanca", "gothic", "embassy", "caparandom", "janus",
    "chancellor", "amazon", "almost", "knightmate", "shatranj", "courier", "makruk", "grand",
    "shako",
);

/// The variant `play` uses when none is named.
pub const DEFAULT_VARIANT: &str = "mrc";

/// Resolves `extends` among the built-in files.
pub struct BuiltinResolver;

impl Resolver for BuiltinResolver {
    fn read(&self, _from: &str, name: &str) -> Result<(String, String), String> {
        let stem = name.trim_end_matches(".toml");
        let stem = stem.rsplit('/').next().unwrap_or(stem);
        BUILTIN
            .iter()
            .find(|(n, _)| *n == stem)
            .map(|(n, t)| (builtin_name(n), t.to_string()))
            .ok_or_else(|| format!("no built-in variant file `{name}`"))
    }
}

fn builtin_name(n: &str) -> String {
    format!("<built-in {n}.toml>")
}

/// Resolves `extends` on disk, relative to the file that names it.
pub struct FileResolver;

impl Resolver for FileResolver {
    fn read(&self, from: &str, name: &str) -> Result<(String, String), String> {
        let base = Path::new(from).parent().unwrap_or(Path::new(""));
        let path: PathBuf = if Path::new(name).is_absolute() {
            PathBuf::from(name)
        } else {
            base.join(name)
        };
        read_variant_file(&path)
            .map(|t| (path.display().to_string(), t))
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
    }
}

/// Variant files are small: refusing anything but a regular file of at most 1 MiB keeps a
/// path such as `/dev/zero` or a fifo from hanging or exhausting memory.
fn read_variant_file(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > 1 << 20 {
        return Err(format!(
            "{} bytes; a variant file has at most 1 MiB",
            meta.len()
        ));
    }
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// Reads and checks a variant file from disk (`extends` relative to it).
///
/// # Errors
/// When the file cannot be read, is not valid TOML, or fails the checks.
pub fn from_path(path: &Path) -> Result<Variant, VariantError> {
    let name = path.display().to_string();
    let text = read_variant_file(path).map_err(|message| VariantError::Unreadable {
        file: name.clone(),
        message,
    })?;
    Variant::from_text(&name, &text, &FileResolver)
}

/// Loads a variant from a path (`variants/merc.toml`, `my/variant` for `my/variant.toml`) or a
/// short name (`merc`).
///
/// # Errors
/// [`VariantError::Unknown`] when nothing goes by that name; otherwise as [`from_path`].
pub fn load(spec: &str) -> Result<Variant, VariantError> {
    let path = Path::new(spec);
    if path.exists() {
        return from_path(path);
    }
    let with_ext = PathBuf::from(format!("{spec}.toml"));
    if !spec.ends_with(".toml") && with_ext.is_file() {
        return from_path(&with_ext);
    }
    let looks_like_path = spec.contains('/') || spec.contains('\\') || spec.ends_with(".toml");
    if !looks_like_path {
        let local = Path::new("variants").join(format!("{spec}.toml"));
        if local.is_file() {
            return from_path(&local);
        }
        if let Some((n, text)) = BUILTIN.iter().find(|(n, _)| n.eq_ignore_ascii_case(spec)) {
            return Variant::from_text(&builtin_name(n), text, &BuiltinResolver);
        }
    }
    Err(VariantError::Unknown {
        name: spec.to_string(),
        known: BUILTIN.iter().map(|(n, _)| n.to_string()).collect(),
    })
}

/// Loads and compiles.
///
/// # Errors
/// As [`load`].
pub fn load_rules(spec: &str) -> Result<Rules, VariantError> {
    load(spec).map(Rules::compile)
}

fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// Every built-in variant's names (file name, short name, full name), normalised, read once.
fn tag_table() -> &'static [(String, &'static str)] {
    static TABLE: OnceLock<Vec<(String, &'static str)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Vec::new();
        for (key, text) in BUILTIN {
            table.push((normalise(key), *key));
            if let Ok(v) = Variant::from_text(&builtin_name(key), text, &BuiltinResolver) {
                table.push((normalise(&v.short), *key));
                table.push((normalise(&v.name), *key));
            }
        }
        table
    })
}

/// The built-in variant a PGN `Variant` tag names (`MRC`, `Modern Random Chess`, `Standard`,
/// `Chess960`), compared without case, spaces and punctuation; the built-in files are read
/// once and the names kept.
pub fn variant_for_tag(tag: &str) -> Option<&'static str> {
    let t = normalise(tag);
    match t.as_str() {
        "standard" | "chess" | "orthodox" => return Some("chess"),
        "fischerandom" | "fischerrandom" | "chess960" | "frc" => return Some("chess960"),
        _ => {}
    }
    tag_table().iter().find(|(n, _)| *n == t).map(|(_, k)| *k)
}
