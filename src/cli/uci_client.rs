//! A UCI engine in a child process, for `match` and `bench`: one client, every wait bounded.
//!
//! The engine's output is read on a thread into a channel so that each wait can time out: an
//! engine that hangs or dies is an error naming what we waited for, never a hang of ours.

use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE: Duration = Duration::from_secs(30);

pub struct UciClient {
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Options it declared, and the values of its `UCI_Variant` combo.
    pub options: Vec<String>,
    pub variants: Vec<String>,
}

/// Splits an engine command line (`"modern-chess uci --hash 8"`) into program and arguments.
/// Words are separated by spaces; a word in double quotes may contain spaces.
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in cmd.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(cur);
    }
    words
}

impl UciClient {
    /// Starts `command` (a program and its arguments, see [`split_command`]) and does the
    /// `uci` handshake.
    ///
    /// # Errors
    /// The program cannot be started, or does not answer `uciok` within [`HANDSHAKE`].
    pub fn start(command: &str) -> Result<UciClient> {
        let words = split_command(command);
        let Some((prog, args)) = words.split_first() else {
            bail!("no engine command given");
        };
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine {command}"))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let l = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut e = UciClient {
            name: command.to_string(),
            child,
            stdin,
            lines: rx,
            options: Vec::new(),
            variants: Vec::new(),
        };
        e.send("uci")?;
        for l in e.read_until("uciok", HANDSHAKE)? {
            e.read_declaration(&l);
        }
        Ok(e)
    }

    fn read_declaration(&mut self, l: &str) {
        if let Some(n) = l.strip_prefix("id name ") {
            self.name = n.trim().to_string();
        }
        if let Some(rest) = l.strip_prefix("option name ") {
            let name = rest.split(" type ").next().unwrap_or("").trim().to_string();
            if name == "UCI_Variant" {
                self.variants = rest
                    .split(" var ")
                    .skip(1)
                    .map(|v| v.trim().to_string())
                    .collect();
            }
            self.options.push(name);
        }
    }

    /// The process id (for CPU time measurements).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    pub fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .with_context(|| format!("{} stopped reading its input", self.name))
    }

    /// Lines up to and including the first that starts with `prefix`.
    ///
    /// # Errors
    /// Nothing such within `timeout`, or the engine ended.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.trim_start().starts_with(prefix);
                    got.push(l);
                    if done {
                        return Ok(got);
                    }
                }
                Err(RecvTimeoutError::Timeout) => bail!(
                    "{} did not answer `{prefix}` within {:.1} s",
                    self.name,
                    timeout.as_secs_f64()
                ),
                Err(RecvTimeoutError::Disconnected) => {
                    bail!("{} ended while we waited for `{prefix}`", self.name)
                }
            }
        }
    }

    pub fn is_ready(&mut self) -> Result<Vec<String>> {
        self.send("isready")?;
        self.read_until("readyok", HANDSHAKE)
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell_would_for_simple_cases() {
        assert_eq!(split_command("modern-chess uci"), ["modern-chess", "uci"]);
        assert_eq!(
            split_command("  \"/opt/my engine/bin\"  --hash 8 "),
            ["/opt/my engine/bin", "--hash", "8"]
        );
        assert!(split_command("   ").is_empty());
        assert_eq!(split_command("x \"\""), ["x", ""]);
    }

    #[test]
    fn missing_engine_is_an_error() {
        let e = UciClient::start("/nonexistent/engine --flag")
            .err()
            .unwrap();
        assert!(e.to_string().contains("cannot start engine"), "{e}");
    }
}
