//! `modern-chess play`: a whole game in the terminal, against a person or the built-in engine.
//!
//! Input is read a line at a time (on its own thread, so signals are seen at the prompt), so
//! the same code serves a person at a terminal and a script piping moves in; end of input ends
//! the session cleanly. Colours and the boxed board appear only when standard output is a
//! terminal, so piped output stays plain text: one `White plays 1. e4` line per move and a
//! `Game over: ... Result R` line.
//!
//! No game is lost: after every move the game is written (atomically) as PGN under the data
//! directory ([`autosave`]), SIGINT/SIGTERM/SIGHUP save and exit ([`signals`]), and
//! `play --resume` continues the latest saved game.

mod args;
mod autosave;
mod board;
mod commands;
mod input;
mod levels;
mod session;
mod signals;
mod start;
mod think;

pub use args::PlayArgs;

use anyhow::Result;
use input::Event;
use session::Session;
use std::time::Duration;

/// Runs a session until the game's end of input, `quit` or a signal.
pub fn run(args: PlayArgs) -> Result<()> {
    let mut s = start::session(&args)?;
    signals::install();
    s.announce();
    s.advance();
    if s.interrupted() || !s.has_human() {
        return Ok(());
    }
    let events = input::spawn_reader();
    loop {
        s.prompt();
        let event = loop {
            if s.interrupted() {
                return Ok(());
            }
            match events.recv_timeout(Duration::from_millis(50)) {
                // A signal that came with the event wins: save and stop.
                Ok(_) if s.interrupted() => return Ok(()),
                Ok(e) => break e,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break Event::End,
            }
        };
        match event {
            Event::End => {
                s.end_of_input();
                return Ok(());
            }
            Event::Line(bytes) => {
                if !commands::handle_bytes(&mut s, &bytes) {
                    return Ok(());
                }
            }
        }
    }
}

impl Session {
    /// True (after saving and saying so) when a signal asked the session to end.
    fn interrupted(&mut self) -> bool {
        match signals::pending() {
            Some(sig) => {
                self.save_on_signal(sig);
                true
            }
            None => false,
        }
    }
}
