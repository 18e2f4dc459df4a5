//! SIGINT, SIGTERM and SIGHUP end a game with it saved, instead of killing the process.
//!
//! The handler only stores into atomics (all that is safe in a signal handler); the session
//! looks at them at the prompt (every 50 ms) and after each engine move. While the engine
//! thinks, the first Ctrl-C (SIGINT) makes it play the best move found so far; a second one,
//! or SIGTERM/SIGHUP at any time, saves the game and ends the program.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The search's stop flag: raised by a signal so the engine returns at once.
pub static STOP: AtomicBool = AtomicBool::new(false);
/// The engine is searching for its own move (a first SIGINT means "move now").
static THINKING: AtomicBool = AtomicBool::new(false);
/// A first SIGINT during this search has been used as "move now".
static MOVE_NOW: AtomicBool = AtomicBool::new(false);
/// The signal that asked the session to end, 0 when none.
static PENDING: AtomicI32 = AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn on_signal(sig: libc::c_int) {
    if sig == libc::SIGINT
        && THINKING.load(Ordering::SeqCst)
        && !MOVE_NOW.swap(true, Ordering::SeqCst)
    {
        STOP.store(true, Ordering::SeqCst);
        return;
    }
    PENDING.store(sig, Ordering::SeqCst);
    STOP.store(true, Ordering::SeqCst);
}

/// Installs the handler for SIGINT, SIGTERM and SIGHUP.
#[cfg(unix)]
pub fn install() {
    let handler: extern "C" fn(libc::c_int) = on_signal;
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: `sigaction` with a zeroed struct, an empty mask and a handler that only
        // touches atomics; SA_RESTART keeps the input thread's read going.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as usize;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
pub fn install() {}

/// Marks the start of an engine search of its own move (a first Ctrl-C means "move now").
pub fn begin_thinking() {
    MOVE_NOW.store(false, Ordering::SeqCst);
    STOP.store(PENDING.load(Ordering::SeqCst) != 0, Ordering::SeqCst);
    THINKING.store(true, Ordering::SeqCst);
}

/// Marks the end of a search; true when a Ctrl-C cut it short.
pub fn end_thinking() -> bool {
    THINKING.store(false, Ordering::SeqCst);
    STOP.store(PENDING.load(Ordering::SeqCst) != 0, Ordering::SeqCst);
    MOVE_NOW.swap(false, Ordering::SeqCst)
}

/// The signal that asked the session to end, if one did.
pub fn pending() -> Option<i32> {
    match PENDING.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The signal's name for messages.
pub fn name(sig: i32) -> String {
    #[cfg(unix)]
    {
        match sig {
            libc::SIGINT => return "SIGINT".into(),
            libc::SIGTERM => return "SIGTERM".into(),
            libc::SIGHUP => return "SIGHUP".into(),
            _ => {}
        }
    }
    format!("signal {sig}")
}
