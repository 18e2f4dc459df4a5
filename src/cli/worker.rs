//! The thread a protocol session's searches run on (the library's [`Worker`] for the binary).
//!
//! The engine moves into the thread for a job and comes back when the thread is joined, so
//! its hash table survives between moves. `stop_after` is a timer thread that raises the
//! job's stop flag unless the job ended first.

use modern_chess::engine::Engine;
use modern_chess::protocol::{Job, Worker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

pub struct ThreadWorker {
    engine: Option<Engine>,
    running: Option<(JoinHandle<Engine>, Arc<AtomicBool>)>,
}

impl ThreadWorker {
    pub fn new(engine: Engine) -> ThreadWorker {
        ThreadWorker {
            engine: Some(engine),
            running: None,
        }
    }
}

impl Worker for ThreadWorker {
    fn start(&mut self, job: Job) {
        self.stop();
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let run = std::panic::AssertUnwindSafe(|| job(&mut engine, &flag));
            if std::panic::catch_unwind(run).is_err() {
                // A bug in the search: the session goes on with the table emptied.
                eprintln!("modern-chess: a search failed (a bug); the session goes on");
                engine.clear();
            }
            engine
        });
        self.running = Some((handle, stop));
    }

    fn stop(&mut self) {
        if let Some((_, flag)) = &self.running {
            flag.store(true, Ordering::SeqCst);
        }
        self.wait_idle();
    }

    fn wait_idle(&mut self) {
        if let Some((h, _)) = self.running.take() {
            if let Ok(e) = h.join() {
                self.engine = Some(e);
            }
        }
    }

    fn is_running(&self) -> bool {
        self.running.as_ref().is_some_and(|(h, _)| !h.is_finished())
    }

    fn stop_after(&mut self, ms: u64) {
        if let Some((_, flag)) = &self.running {
            let flag = Arc::clone(flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(ms));
                flag.store(true, Ordering::SeqCst);
            });
        }
    }

    fn engine(&mut self) -> &mut Engine {
        self.wait_idle();
        // The job thread catches panics and always hands the engine back.
        self.engine
            .as_mut()
            .expect("the engine is back once no job runs")
    }

    fn replace_engine(&mut self, engine: Engine) {
        self.stop();
        self.engine = Some(engine);
    }
}

impl Drop for ThreadWorker {
    fn drop(&mut self) {
        self.stop();
    }
}
