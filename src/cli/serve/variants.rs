//! The variants the page offers: every built-in file (or its copy in `./variants/`), every other
//! `*.toml` in `./variants/`, and every file in `--variant-path`. Each is compiled once.

use modern_chess::catalog;
use modern_chess::variant::Variant;
use modern_chess::Rules;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One playable variant.
pub struct Entry {
    /// The name games refer to: a built-in short name or a file's stem.
    pub name: String,
    pub rules: Arc<Rules>,
    /// Where the file came from, for the page and for error messages.
    pub origin: String,
}

/// Every variant the server knows, in the order the page lists them.
pub struct Catalog {
    pub entries: Vec<Entry>,
}

/// The `*.toml` files of a folder (or the file itself), sorted by name.
fn toml_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    files.sort();
    Ok(files)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

impl Catalog {
    /// Loads the built-in variants, `./variants/*.toml` and the files of `extra`.
    /// Files that do not load are reported in the returned warnings and left out.
    ///
    /// # Errors
    /// When `extra` names something that is neither a folder nor a file.
    pub fn load(extra: Option<&Path>) -> Result<(Catalog, Vec<String>), String> {
        let mut cat = Catalog {
            entries: Vec::new(),
        };
        let mut warnings = Vec::new();
        for (name, _) in catalog::BUILTIN {
            match catalog::load(name) {
                Ok(v) => cat.add(name, v, None),
                Err(e) => warnings.push(format!("variant {name}: {e}")),
            }
        }
        let local = Path::new("variants");
        let mut folders = Vec::new();
        if local.is_dir() {
            folders.push(local.to_path_buf());
        }
        if let Some(p) = extra {
            if !p.exists() {
                return Err(format!(
                    "--variant-path {}: no such file or folder",
                    p.display()
                ));
            }
            folders.push(p.to_path_buf());
        }
        for folder in folders {
            let files = toml_files(&folder)
                .map_err(|e| format!("--variant-path {}: {e}", folder.display()))?;
            for file in files {
                let name = stem(&file);
                if folder == local && cat.get(&name).is_some() {
                    continue; // already loaded through its built-in name
                }
                match catalog::from_path(&file) {
                    Ok(v) => cat.add(&name, v, file.parent().map(Path::to_path_buf)),
                    Err(e) => warnings.push(format!("{}: {e}", file.display())),
                }
            }
        }
        Ok((cat, warnings))
    }

    /// Adds a variant, replacing one of the same name (a `--variant-path` file wins).
    fn add(&mut self, name: &str, v: Variant, folder: Option<PathBuf>) {
        let entry = Entry {
            name: name.to_string(),
            origin: folder
                .as_ref()
                .map(|f| f.join(format!("{name}.toml")).display().to_string())
                .unwrap_or_else(|| format!("built-in {name}.toml")),
            rules: Arc::new(Rules::compile(v)),
        };
        match self.entries.iter_mut().find(|e| e.name == name) {
            Some(old) => *old = entry,
            None => self.entries.push(entry),
        }
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The list the page shows.
    pub fn summary(&self) -> Value {
        let list: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                let v = e.rules.variant();
                json!({
                    "name": e.name,
                    "title": v.name(),
                    "short": v.short(),
                    "description": v.description(),
                    "files": v.files(),
                    "ranks": v.ranks(),
                    "start_positions": modern_chess::setup::checked_count(v),
                    "origin": e.origin,
                })
            })
            .collect();
        Value::Array(list)
    }
}
