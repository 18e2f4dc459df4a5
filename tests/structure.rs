//! The code's shape, checked from its text: no function over 100 lines (in `src/` and
//! `tests/`), no import cycle between the library's modules, and no public library function
//! returning `Result<_, String>` (callers get error enums they can match).
//!
//! The reader is a small lexer, not a Rust parser: it blanks out comments, strings and
//! character literals, then matches braces. That is enough for code that `cargo fmt` keeps.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_FUNCTION_LINES: usize = 100;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text with comments, string and character literals replaced by spaces (newlines kept),
/// so braces and keywords inside them do not count.
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            loop {
                if i + 1 < b.len() && b[i] == '/' && b[i + 1] == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if i + 1 < b.len() && b[i] == '*' && b[i + 1] == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                } else {
                    break;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && raw_start(&b, i) {
            i = skip_raw_string(&b, i, &mut out);
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && char_literal_len(&b, i) > 0 {
            let n = char_literal_len(&b, i);
            out.extend(std::iter::repeat_n(' ', n));
            i += n;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Is `r` at `i` the start of a raw string (`r"`, `r#"`) rather than the end of a name?
fn raw_start(b: &[char], i: usize) -> bool {
    let ident_before = i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_');
    if ident_before {
        return false;
    }
    let mut j = i + 1;
    while j < b.len() && b[j] == '#' {
        j += 1;
    }
    j < b.len() && b[j] == '"'
}

fn skip_raw_string(b: &[char], mut i: usize, out: &mut String) -> usize {
    out.push(' ');
    i += 1;
    let mut hashes = 0;
    while b[i] == '#' {
        hashes += 1;
        out.push(' ');
        i += 1;
    }
    out.push(' ');
    i += 1; // the opening quote
    while i < b.len() {
        if b[i] == '"' && (1..=hashes).all(|k| b.get(i + k) == Some(&'#')) {
            out.extend(std::iter::repeat_n(' ', hashes + 1));
            return i + hashes + 1;
        }
        out.push(if b[i] == '\n' { '\n' } else { ' ' });
        i += 1;
    }
    i
}

/// Length of a character literal starting at `i` (`'a'`, `'\n'`, `'\u{1F600}'`), or 0 for a
/// lifetime or label.
fn char_literal_len(b: &[char], i: usize) -> usize {
    if b.get(i + 1) == Some(&'\\') {
        let mut j = i + 2;
        while j < b.len() && j < i + 12 {
            if b[j] == '\'' {
                return j - i + 1;
            }
            j += 1;
        }
        return 0;
    }
    if b.get(i + 2) == Some(&'\'') {
        return 3;
    }
    0
}

/// Every function with a body: (name, first line, number of lines).
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else {
            continue;
        };
        let mut depth = 0i32;
        let mut opened = false;
        'scan: for (k, l) in lines[n..].iter().enumerate() {
            for ch in l.chars() {
                match ch {
                    ';' if !opened && depth == 0 => break 'scan,
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
                if opened && depth == 0 {
                    found.push((name.clone(), n + 1, k + 1));
                    break 'scan;
                }
            }
        }
    }
    found
}

/// The name after `fn` when this line declares a function.
fn fn_name(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "fn")?;
    let before_ok = words[..at].iter().all(|w| {
        matches!(
            *w,
            "pub" | "const" | "async" | "unsafe" | "extern" | "default"
        ) || w.starts_with("pub(")
            || w.starts_with('"')
    });
    let name: String = words
        .get(at + 1)?
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (before_ok && !name.is_empty()).then_some(name)
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_function_is_longer_than_100_lines() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    rust_files(&root().join("tests"), &mut files);
    let mut long = Vec::new();
    for f in &files {
        let code = code_only(&fs::read_to_string(f).unwrap());
        for (name, line, len) in functions(&code) {
            if len > MAX_FUNCTION_LINES {
                let rel = f.strip_prefix(root()).unwrap().display().to_string();
                long.push(format!("{rel}:{line} fn {name}: {len} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_reader_measures_functions() {
    // The checker itself must see a long function, skip braces in strings and comments and
    // not take a declaration without a body for one.
    let body = "    x += 1;\n".repeat(120);
    let text = format!(
        "trait T {{ fn f(&self); }}\nfn long() {{\n    let s = \"}}\"; // }}\n{body}}}\nfn short() {{ '}}'; }}\n"
    );
    let fns = functions(&code_only(&text));
    let names: Vec<_> = fns.iter().map(|(n, _, len)| (n.as_str(), *len)).collect();
    assert_eq!(names, vec![("long", 123), ("short", 1)]);
}

/// The top-level modules of the library and, for each, the others its code (tests and
/// comments aside) names through `crate::`.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = root().join("src");
    let mut graph = BTreeMap::new();
    for e in fs::read_dir(&src).unwrap().flatten() {
        let p = e.path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if ["lib", "main", "cli"].contains(&name.as_str()) || graph.contains_key(&name) {
            continue;
        }
        let mut files = Vec::new();
        let file = src.join(format!("{name}.rs"));
        if file.exists() {
            files.push(file);
        }
        if src.join(&name).is_dir() {
            rust_files(&src.join(&name), &mut files);
        }
        let mut deps = BTreeSet::new();
        for f in files {
            let text = fs::read_to_string(f).unwrap();
            let code = code_only(text.split("#[cfg(test)]").next().unwrap());
            for (i, _) in code.match_indices("crate::") {
                let dep: String = code[i + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if dep != name {
                    deps.insert(dep);
                }
            }
        }
        graph.insert(name, deps);
    }
    let names: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| names.contains(d));
    }
    graph
}

/// A cycle through `start`, if there is one.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in &graph[&node] {
            if next == start {
                return Some(path.clone());
            }
            if seen.insert(next.clone()) {
                let mut p = path.clone();
                p.push(next.clone());
                stack.push((next.clone(), p));
            }
        }
    }
    None
}

#[test]
fn modules_import_each_other_without_cycles() {
    let graph = module_graph();
    assert!(graph.contains_key("position") && graph["movegen"].contains("position"));
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|m| cycle_from(&graph, m))
        .map(|c| c.join(" -> "))
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn no_public_library_function_returns_a_string_error() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut found = Vec::new();
    for f in files {
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        if rel.starts_with("src/cli") || rel == "src/main.rs" {
            continue;
        }
        let text = fs::read_to_string(&f).unwrap();
        let code = code_only(text.split("#[cfg(test)]").next().unwrap());
        // one declaration per item, up to its body
        for (i, _) in code.match_indices("pub fn ") {
            let head: String = code[i..]
                .chars()
                .take_while(|&c| c != '{' && c != ';')
                .collect();
            let compact: String = head.split_whitespace().collect::<Vec<_>>().join(" ");
            if compact.contains(", String>") && compact.contains("Result<") {
                let line = code[..i].lines().count();
                found.push(format!("{rel}:{line}: {compact}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "public functions with String errors:\n{}",
        found.join("\n")
    );
}
