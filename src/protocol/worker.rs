//! What a protocol session needs from whoever runs its searches.
//!
//! The protocol logic decides *what* to compute and what to print; running it while the input
//! loop keeps reading (a thread), stopping it after a delay (a timer) and the like belong to
//! the application, which implements [`Worker`] (`src/cli/worker.rs` in the binary). The
//! library itself starts no thread: [`InlineWorker`] runs each job at once, for scripted
//! sessions and unit tests.

use crate::engine::Engine;
use std::sync::atomic::AtomicBool;

/// One piece of work for the engine: a search or a perft. It gets the engine and the stop
/// flag, which the session raises on `stop`/`?`/`quit` and which the work must poll.
pub type Job = Box<dyn FnOnce(&mut Engine, &AtomicBool) + Send + 'static>;

/// Runs [`Job`]s, one at a time, on an engine it owns.
pub trait Worker {
    /// Starts `job`; a job still running is stopped and awaited first.
    fn start(&mut self, job: Job);
    /// Raises the stop flag of the running job and waits for it to end.
    fn stop(&mut self);
    /// Waits for the running job to end by itself.
    fn wait_idle(&mut self);
    /// Is a job running now?
    fn is_running(&self) -> bool;
    /// Raises the stop flag of the running job after `ms` milliseconds (UCI `ponderhit`).
    fn stop_after(&mut self, ms: u64);
    /// The engine, once no job is running (waits for one that is).
    fn engine(&mut self) -> &mut Engine;
    /// Replaces the engine (a new variant needs new tables), stopping any job first.
    fn replace_engine(&mut self, engine: Engine);
}

/// A [`Worker`] that runs each job to its end inside `start`. A session driven by it reads
/// its next command only after the search answered, so `stop` has nothing to stop.
pub struct InlineWorker {
    engine: Engine,
}

impl InlineWorker {
    /// A worker that searches with `engine` on the caller's thread.
    pub fn new(engine: Engine) -> InlineWorker {
        InlineWorker { engine }
    }
}

impl Worker for InlineWorker {
    fn start(&mut self, job: Job) {
        job(&mut self.engine, &AtomicBool::new(false));
    }
    fn stop(&mut self) {}
    fn wait_idle(&mut self) {}
    fn is_running(&self) -> bool {
        false
    }
    fn stop_after(&mut self, _ms: u64) {}
    fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }
    fn replace_engine(&mut self, engine: Engine) {
        self.engine = engine;
    }
}
