//! A small HTTP/1.1 server on `std::net`: one request per connection, bodies by
//! `Content-Length` only, hard limits on head and body size, and timeouts on every read.
//!
//! Written by hand instead of taking a server crate: the page needs only GET and POST with small
//! JSON bodies and Server-Sent Events, which is a few hundred lines, adds nothing to the build
//! and leaves every limit (and every error answer) in our hands.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Longest request head (request line and headers) accepted.
pub const MAX_HEAD: usize = 16 * 1024;
/// Largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;
/// How long a client may take to send its request.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A parsed request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The path without the query string.
    pub path: String,
    pub query: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request could not be read; each maps to a status code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HttpError {
    /// The connection closed or timed out before a whole request arrived (no answer is sent).
    Closed,
    /// Malformed request line or header (400).
    Malformed(String),
    /// Head larger than [`MAX_HEAD`] (431).
    HeadTooLarge,
    /// Body larger than [`MAX_BODY`] (413).
    BodyTooLarge(usize),
    /// A body without `Content-Length` (chunked): 411.
    LengthRequired,
}

impl HttpError {
    /// Status code and message of the error answer, if one is sent.
    pub fn answer(&self) -> Option<(u16, String)> {
        match self {
            HttpError::Closed => None,
            HttpError::Malformed(m) => Some((400, format!("malformed request: {m}"))),
            HttpError::HeadTooLarge => {
                Some((431, format!("request head larger than {MAX_HEAD} bytes")))
            }
            HttpError::BodyTooLarge(n) => Some((
                413,
                format!("request body of {n} bytes is larger than the limit of {MAX_BODY}"),
            )),
            HttpError::LengthRequired => Some((
                411,
                "a request body needs a Content-Length header (chunked bodies are not accepted)"
                    .into(),
            )),
        }
    }
}

/// Reads one line of the head, counting its bytes against the head limit.
fn read_line(reader: &mut impl BufRead, used: &mut usize) -> Result<String, HttpError> {
    let mut line = Vec::new();
    let limit = (MAX_HEAD - (*used).min(MAX_HEAD)) as u64 + 1;
    let n = reader
        .take(limit)
        .read_until(b'\n', &mut line)
        .map_err(|_| HttpError::Closed)?;
    if n == 0 {
        return Err(HttpError::Closed);
    }
    *used += n;
    if *used > MAX_HEAD {
        return Err(HttpError::HeadTooLarge);
    }
    if !line.ends_with(b"\n") {
        return Err(HttpError::Closed);
    }
    let text = String::from_utf8(line).map_err(|_| HttpError::Malformed("not UTF-8".into()))?;
    Ok(text.trim_end_matches(['\r', '\n']).to_string())
}

/// Reads and parses one request.
///
/// # Errors
/// See [`HttpError`]; nothing is answered here.
pub fn read_request(reader: &mut impl BufRead) -> Result<Request, HttpError> {
    let mut used = 0;
    let first = read_line(reader, &mut used)?;
    let mut parts = first.split(' ');
    let (method, target, version) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v), None) if !m.is_empty() && t.starts_with('/') => (m, t, v),
        _ => return Err(HttpError::Malformed(format!("request line `{first}`"))),
    };
    if !version.starts_with("HTTP/1.") {
        return Err(HttpError::Malformed(format!("version `{version}`")));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::new();
    loop {
        let line = read_line(reader, &mut used)?;
        if line.is_empty() {
            break;
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| HttpError::Malformed(format!("header line `{line}`")))?;
        headers.push((name.trim().to_string(), value.trim().to_string()));
    }
    let mut req = Request {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body: Vec::new(),
    };
    if req.header("transfer-encoding").is_some() {
        return Err(HttpError::LengthRequired);
    }
    if let Some(len) = req.header("content-length") {
        let len: usize = len
            .parse()
            .map_err(|_| HttpError::Malformed(format!("Content-Length `{len}`")))?;
        if len > MAX_BODY {
            return Err(HttpError::BodyTooLarge(len));
        }
        let mut body = vec![0; len];
        reader
            .read_exact(&mut body)
            .map_err(|_| HttpError::Closed)?;
        req.body = body;
    }
    Ok(req)
}

/// An answer to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }
    /// A JSON answer.
    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response::new(status, "application/json", value.to_string())
    }
    /// A JSON error answer: `{"error": message}`.
    pub fn error(status: u16, message: &str) -> Response {
        Response::json(status, &serde_json::json!({ "error": message }))
    }
    pub fn with_header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }
}

/// The reason phrase of the status codes we send.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}

/// Writes a whole response and asks the client to close.
pub fn write_response(stream: &mut impl Write, r: &Response) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    for (n, v) in &r.headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(&r.body)?;
    stream.flush()
}

/// Starts a Server-Sent Events stream.
pub fn write_sse_head(stream: &mut impl Write) -> std::io::Result<()> {
    stream.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
    )?;
    stream.flush()
}

/// One event of a Server-Sent Events stream (`data` must be one line, as JSON text is).
pub fn write_sse_event(stream: &mut impl Write, event: &str, data: &str) -> std::io::Result<()> {
    stream.write_all(format!("event: {event}\ndata: {data}\n\n").as_bytes())?;
    stream.flush()
}

/// Reads a request from a fresh connection with the read timeout set.
///
/// # Errors
/// As [`read_request`].
pub fn read_from(stream: &TcpStream) -> Result<Request, HttpError> {
    stream
        .set_read_timeout(Some(READ_TIMEOUT))
        .map_err(|_| HttpError::Closed)?;
    let mut reader = BufReader::new(stream);
    read_request(&mut reader)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Result<Request, HttpError> {
        read_request(&mut &text[..])
    }

    #[test]
    fn reads_a_post_with_a_body() {
        let r = parse(b"POST /api/games?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n{}{}")
            .unwrap();
        assert_eq!(r.method, "POST");
        assert_eq!(r.path, "/api/games");
        assert_eq!(r.query, "x=1");
        assert_eq!(r.header("content-length"), Some("4"));
        assert_eq!(r.body, b"{}{}");
    }

    #[test]
    fn refuses_bad_requests() {
        assert!(matches!(
            parse(b"GARBAGE\r\n\r\n"),
            Err(HttpError::Malformed(_))
        ));
        assert!(matches!(
            parse(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"),
            Err(HttpError::Malformed(_))
        ));
        assert_eq!(
            parse(b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"),
            Err(HttpError::BodyTooLarge(99999999))
        );
        assert_eq!(
            parse(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Err(HttpError::LengthRequired)
        );
        let mut big = b"GET / HTTP/1.1\r\nX: ".to_vec();
        big.extend(vec![b'a'; MAX_HEAD + 10]);
        big.extend(b"\r\n\r\n");
        assert_eq!(parse(&big), Err(HttpError::HeadTooLarge));
        assert_eq!(parse(b"GET / HTTP/1.1\r\n"), Err(HttpError::Closed));
        assert_eq!(
            parse(b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"),
            Err(HttpError::Closed)
        );
    }
}
