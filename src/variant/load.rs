//! Loading: TOML text to the raw schema, then `extends` chains merged, child first.
//!
//! The library reads no files: a [`Resolver`] supplied by the caller turns the name written in
//! `extends` into text (the catalog has one for the built-in files and one for the disk).

use super::error::{line_col, FieldError, VariantError};
use super::schema::{key_path_at, unknown_field, Loc, Merge, RawVariant, Sourced};

/// Where the files a variant extends are looked up.
pub trait Resolver {
    /// Reads `name` as seen from the file `from` (a path or an embedded name): the name to
    /// report it under and its text.
    ///
    /// # Errors
    /// A message saying why the file cannot be had.
    fn read(&self, from: &str, name: &str) -> Result<(String, String), String>;
}

/// A resolver for texts that extend nothing: every `extends` is an error.
pub struct NoResolver;

impl Resolver for NoResolver {
    fn read(&self, _from: &str, name: &str) -> Result<(String, String), String> {
        Err(format!("`{name}`: this text cannot extend other files"))
    }
}

/// One source text a variant was read from.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub name: String,
    pub text: String,
}

/// How long an `extends` chain may be (longer ones are taken for cycles).
const MAX_EXTENDS: usize = 8;

/// Reads `text` and every file it extends; returns the merged raw variant and the sources.
pub(crate) fn load_raw(
    name: &str,
    text: &str,
    resolver: &dyn Resolver,
) -> Result<(RawVariant, Vec<Source>), VariantError> {
    let mut sources = vec![Source {
        name: name.to_string(),
        text: text.to_string(),
    }];
    let mut raw = parse_raw(&sources, 0)?;
    let mut current = name.to_string();
    let mut depth = 0;
    while let Some(ext) = raw.extends.take() {
        depth += 1;
        if depth > MAX_EXTENDS {
            let msg = format!("`extends` chain is longer than {MAX_EXTENDS} files (a cycle?)");
            return Err(extends_error(&sources, &ext, msg));
        }
        let (base_name, base_text) = resolver
            .read(&current, &ext.value)
            .map_err(|m| extends_error(&sources, &ext, m))?;
        sources.push(Source {
            name: base_name.clone(),
            text: base_text,
        });
        let base = parse_raw(&sources, sources.len() - 1)?;
        raw = raw.merge(base);
        current = base_name;
    }
    Ok((raw, sources))
}

fn extends_error(sources: &[Source], ext: &Loc<String>, message: String) -> VariantError {
    let src = &sources[ext.src];
    let (line, column) = line_col(&src.text, ext.span.start);
    VariantError::one(FieldError {
        file: src.name.clone(),
        line,
        column,
        field: "extends".into(),
        message,
    })
}

/// Parses one source strictly; a serde error names the key it is about.
fn parse_raw(sources: &[Source], idx: usize) -> Result<RawVariant, VariantError> {
    let src = &sources[idx];
    let mut raw = toml::from_str::<RawVariant>(&src.text).map_err(|e| {
        let offset = e.span().map(|s| s.start);
        let (line, column) = offset.map(|o| line_col(&src.text, o)).unwrap_or((0, 0));
        let message = e.message().trim().to_string();
        VariantError::one(FieldError {
            file: src.name.clone(),
            line,
            column,
            field: serde_key(&src.text, offset, &message),
            message,
        })
    })?;
    raw.set_source(idx);
    Ok(raw)
}

/// The key path for a serde error: the key written at its place, or, for an unknown key the
/// document does not show there, the key the message names; `toml syntax` when the text is not
/// TOML at all.
fn serde_key(text: &str, offset: Option<usize>, message: &str) -> String {
    let path = offset.and_then(|o| key_path_at(text, o));
    match (path, unknown_field(message)) {
        (Some(p), Some(k)) if !p.ends_with(k) => format!("{p}.{k}"),
        (Some(p), _) => p,
        (None, Some(k)) => k.to_string(),
        (None, None) if toml_edit::ImDocument::parse(text).is_err() => "toml syntax".into(),
        (None, None) => "(top level)".into(),
    }
}
