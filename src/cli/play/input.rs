//! Standard input on its own thread, as whole lines of bytes: the session can wait for a line
//! and for a signal at once, and a line that is not UTF-8 is one bad line, not the end.

use std::io::{BufRead, Read};

/// The longest line read in one piece.
const MAX_LINE: u64 = 64 * 1024;
use std::sync::mpsc::{channel, Receiver};

/// What the input thread reports.
pub enum Event {
    /// One line without its line end (`\n` or `\r\n`).
    Line(Vec<u8>),
    /// End of input (or a read error, which ends input just the same).
    End,
}

/// Starts the reader; it stops at end of input.
pub fn spawn_reader() -> Receiver<Event> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        loop {
            let mut line = Vec::new();
            // A line longer than this is cut into pieces, each one bad line: memory stays bounded.
            match (&mut lock).take(MAX_LINE).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Event::End);
                    return;
                }
                Ok(_) => {
                    while matches!(line.last(), Some(b'\n' | b'\r')) {
                        line.pop();
                    }
                    if tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}
