//! A reader that closes our standard output early (`modern-chess positions --list | head`)
//! is normal use, not a crash: every command then stops quietly with status 0.
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe fails with `BrokenPipe`. Two paths carry
//! that failure: `println!` panics with "failed printing to stdout: Broken pipe", and code that
//! writes through `Write` returns the error up to `main`. [`install`] catches the first (a
//! panic hook), [`is_broken_pipe`] recognises the second. SIGPIPE itself stays ignored, so
//! `match` and `bench` still see an engine that died as an error on its pipe, not as their
//! own death.

use std::io::ErrorKind;

/// Makes a broken standard output end the process quietly with status 0.
pub fn install() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_stdout_pipe_panic(text) {
            std::process::exit(0);
        }
        previous(info);
    }));
}

/// The message std's `print!` family panics with when standard output's reader is gone.
fn is_stdout_pipe_panic(text: &str) -> bool {
    text.starts_with("failed printing to std") && text.contains("Broken pipe")
}

/// True when an error returned to `main` is, at bottom, a write to a closed pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_pipe_failures_only() {
        assert!(is_stdout_pipe_panic(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(!is_stdout_pipe_panic("index out of bounds"));
        let e = anyhow::Error::new(std::io::Error::from(ErrorKind::BrokenPipe)).context("writing");
        assert!(is_broken_pipe(&e));
        assert!(!is_broken_pipe(&anyhow::anyhow!("other")));
    }
}
