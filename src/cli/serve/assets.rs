//! The page's static files, built into the binary so `serve` works from any directory.
//! chessgroundx is served as the ES modules it ships (no JavaScript build step).

/// Where the vendored chessgroundx lives, under `web/` and in URLs.
pub const VENDOR: &str = "vendor/chessgroundx-10.7.4";

macro_rules! files {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_bytes!(concat!("../../../web/", $path)) as &[u8])),*]
    };
}

/// Every served file: path under `web/` and contents.
pub const FILES: &[(&str, &[u8])] = files!(
    "index.html",
    "app.js",
    "app.css",
    "vendor/chessgroundx-10.7.4/LICENSE",
    "vendor/chessgroundx-10.7.4/VENDORED.md",
    "vendor/chessgroundx-10.7.4/package.json",
    "vendor/chessgroundx-10.7.4/assets/chessground.base.css",
    "vendor/chessgroundx-10.7.4/assets/chessground.brown.css",
    "vendor/chessgroundx-10.7.4/anim.js",
    "vendor/chessgroundx-10.7.4/api.js",
    "vendor/chessgroundx-10.7.4/autoPieces.js",
    "vendor/chessgroundx-10.7.4/board.js",
    "vendor/chessgroundx-10.7.4/chessground.js",
    "vendor/chessgroundx-10.7.4/config.js",
    "vendor/chessgroundx-10.7.4/drag.js",
    "vendor/chessgroundx-10.7.4/draw.js",
    "vendor/chessgroundx-10.7.4/events.js",
    "vendor/chessgroundx-10.7.4/explosion.js",
    "vendor/chessgroundx-10.7.4/fen.js",
    "vendor/chessgroundx-10.7.4/index.js",
    "vendor/chessgroundx-10.7.4/pocket.js",
    "vendor/chessgroundx-10.7.4/predrop.js",
    "vendor/chessgroundx-10.7.4/premove.js",
    "vendor/chessgroundx-10.7.4/render.js",
    "vendor/chessgroundx-10.7.4/state.js",
    "vendor/chessgroundx-10.7.4/svg.js",
    "vendor/chessgroundx-10.7.4/sync.js",
    "vendor/chessgroundx-10.7.4/types.js",
    "vendor/chessgroundx-10.7.4/util.js",
    "vendor/chessgroundx-10.7.4/wrap.js",
    "vendor/chessgroundx-10.7.4/pieces/wK.svg",
    "vendor/chessgroundx-10.7.4/pieces/wQ.svg",
    "vendor/chessgroundx-10.7.4/pieces/wR.svg",
    "vendor/chessgroundx-10.7.4/pieces/wB.svg",
    "vendor/chessgroundx-10.7.4/pieces/wN.svg",
    "vendor/chessgroundx-10.7.4/pieces/wP.svg",
    "vendor/chessgroundx-10.7.4/pieces/bK.svg",
    "vendor/chessgroundx-10.7.4/pieces/bQ.svg",
    "vendor/chessgroundx-10.7.4/pieces/bR.svg",
    "vendor/chessgroundx-10.7.4/pieces/bB.svg",
    "vendor/chessgroundx-10.7.4/pieces/bN.svg",
    "vendor/chessgroundx-10.7.4/pieces/bP.svg",
);

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

/// The file for a URL path (`/` is the page), with its content type.
pub fn lookup(url_path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = url_path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(p, bytes)| (content_type(p), *bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                out.push(
                    p.strip_prefix(base)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }

    #[test]
    fn every_file_under_web_is_served() {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut on_disk = Vec::new();
        walk(&base, &base, &mut on_disk);
        for f in &on_disk {
            assert!(
                FILES.iter().any(|(p, _)| p == f),
                "web/{f} is not in assets::FILES"
            );
        }
        assert_eq!(on_disk.len(), FILES.len());
        assert!(lookup("/").is_some());
        assert_eq!(
            lookup(&format!("/{VENDOR}/chessground.js")).map(|f| f.0),
            Some("text/javascript; charset=utf-8")
        );
        assert!(lookup("/../Cargo.toml").is_none());
    }
}
