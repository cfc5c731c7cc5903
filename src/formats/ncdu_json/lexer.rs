//! A small pull lexer for JSON as ncdu writes it: strings are byte strings (ncdu writes names
//! that are not UTF-8 raw), and nothing is ever held but the current token.
//!
//! It reads from a [`BufRead`] one buffer at a time, knows the line, column and byte offset of
//! every token for error messages, and never recurses: [`Lexer::skip_value`] skips nested
//! values with a counter.

use std::io::{self, BufRead};

use super::ImportError;

/// Where a token starts: 1-based line and column (in bytes), 0-based byte offset.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u64,
    pub column: u64,
    pub offset: u64,
}

pub struct Lexer<R> {
    r: R,
    offset: u64,
    line: u64,
    line_start: u64,
}

/// A JSON number, kept only as far as the format needs: a non-negative integer, or not.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Number {
    /// A non-negative integer that fits in 64 bits.
    Unsigned(u64),
    /// Any other valid number (negative, fractional, exponent, too large).
    Other,
}

impl<R: BufRead> Lexer<R> {
    pub fn new(r: R) -> Lexer<R> {
        Lexer {
            r,
            offset: 0,
            line: 1,
            line_start: 0,
        }
    }

    pub fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.offset - self.line_start + 1,
            offset: self.offset,
        }
    }

    /// An error at the current position.
    pub fn error(&self, message: impl Into<String>) -> ImportError {
        self.error_at(self.pos(), message)
    }

    pub fn error_at(&self, pos: Pos, message: impl Into<String>) -> ImportError {
        ImportError::Syntax {
            pos,
            message: message.into(),
        }
    }

    fn buf(&mut self) -> Result<&[u8], ImportError> {
        loop {
            match self.r.fill_buf() {
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(ImportError::Io(e)),
            }
        }
        // filled: this call only returns the buffer
        self.r.fill_buf().map_err(ImportError::Io)
    }

    /// The next byte, not consumed; `None` at the end of the input.
    pub fn peek(&mut self) -> Result<Option<u8>, ImportError> {
        Ok(self.buf()?.first().copied())
    }

    /// Consumes `n` bytes of the current buffer (never a newline: see `skip_ws`).
    fn consume(&mut self, n: usize) {
        self.r.consume(n);
        self.offset += n as u64;
    }

    /// The first bytes of the input, not consumed (to recognise compressed files).
    pub fn head(&mut self) -> Result<&[u8], ImportError> {
        self.buf()
    }

    pub fn skip_ws(&mut self) -> Result<(), ImportError> {
        loop {
            let buf = self.buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            let (mut n, mut newlines, mut last_newline) = (0, 0u64, None);
            for &b in buf {
                match b {
                    b' ' | b'\t' | b'\r' => {}
                    b'\n' => {
                        newlines += 1;
                        last_newline = Some(n);
                    }
                    _ => break,
                }
                n += 1;
            }
            let more = n == buf.len();
            if let Some(at) = last_newline {
                self.line += newlines;
                self.line_start = self.offset + at as u64 + 1;
            }
            self.consume(n);
            if !more {
                return Ok(());
            }
        }
    }

    /// Consumes `want` after optional whitespace, or fails with "expected `what`".
    pub fn expect(&mut self, want: u8, what: &str) -> Result<(), ImportError> {
        self.skip_ws()?;
        match self.peek()? {
            Some(b) if b == want => {
                self.consume(1);
                Ok(())
            }
            found => Err(self.unexpected(found, what)),
        }
    }

    /// Consumes one byte (after whitespace) if it is one of `choices`, and returns it.
    pub fn one_of(&mut self, choices: &[u8], what: &str) -> Result<u8, ImportError> {
        self.skip_ws()?;
        match self.peek()? {
            Some(b) if choices.contains(&b) => {
                self.consume(1);
                Ok(b)
            }
            found => Err(self.unexpected(found, what)),
        }
    }

    pub fn unexpected(&self, found: Option<u8>, what: &str) -> ImportError {
        match found {
            None => self.error(format!("unexpected end of input, expected {what}")),
            Some(b) if b.is_ascii_graphic() => {
                self.error(format!("expected {what}, found '{}'", b as char))
            }
            Some(b) => self.error(format!("expected {what}, found byte 0x{b:02x}")),
        }
    }

    /// Reads a string (the next token must be one). Its bytes go to `out` while `out` is
    /// shorter than `max`; returns false if the string was longer (the rest is skipped).
    pub fn string(&mut self, out: &mut Vec<u8>, max: usize) -> Result<bool, ImportError> {
        self.expect(b'"', "a string")?;
        out.clear();
        let mut fits = true;
        loop {
            let buf = self.buf()?;
            if buf.is_empty() {
                return Err(self.error("unexpected end of input inside a string"));
            }
            let n = buf
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(buf.len());
            if fits {
                let room = max.saturating_sub(out.len());
                out.extend_from_slice(&buf[..n.min(room)]);
                fits = n <= room;
            }
            let stop = buf.get(n).copied();
            self.consume(n);
            match stop {
                None => continue,
                Some(b'"') => {
                    self.consume(1);
                    return Ok(fits);
                }
                Some(b'\\') => {
                    self.consume(1);
                    let mut utf8 = [0u8; 4];
                    let bytes = self.escape(&mut utf8)?;
                    if fits && out.len() + bytes.len() <= max {
                        out.extend_from_slice(bytes);
                    } else {
                        fits = false;
                    }
                }
                Some(b) => {
                    return Err(self.error(format!(
                        "control character 0x{b:02x} in a string (it must be escaped)"
                    )))
                }
            }
        }
    }

    /// The character of an escape (after the backslash), UTF-8 encoded into `buf`.
    fn escape<'b>(&mut self, buf: &'b mut [u8; 4]) -> Result<&'b [u8], ImportError> {
        let Some(c) = self.peek()? else {
            return Err(self.error("unexpected end of input inside a string"));
        };
        let simple = match c {
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            b'/' => Some(b'/'),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'u' => None,
            _ => return Err(self.error("invalid escape in a string")),
        };
        self.consume(1);
        if let Some(b) = simple {
            buf[0] = b;
            return Ok(&buf[..1]);
        }
        let start = self.pos();
        let hi = self.hex4()?;
        let code = match hi {
            0xd800..=0xdbff => {
                // a surrogate pair: \uD83D\uDE00
                if self.peek()? != Some(b'\\') {
                    return Err(self.error_at(start, "invalid \\u escape: lone surrogate"));
                }
                self.consume(1);
                if self.peek()? != Some(b'u') {
                    return Err(self.error_at(start, "invalid \\u escape: lone surrogate"));
                }
                self.consume(1);
                let lo = self.hex4()?;
                if !(0xdc00..=0xdfff).contains(&lo) {
                    return Err(self.error_at(start, "invalid \\u escape: lone surrogate"));
                }
                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
            }
            0xdc00..=0xdfff => {
                return Err(self.error_at(start, "invalid \\u escape: lone surrogate"))
            }
            c => c,
        };
        let ch = char::from_u32(code).ok_or_else(|| self.error_at(start, "invalid \\u escape"))?;
        Ok(ch.encode_utf8(buf).as_bytes())
    }

    fn hex4(&mut self) -> Result<u32, ImportError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek()? {
                Some(b) => (b as char).to_digit(16),
                None => None,
            };
            let Some(d) = d else {
                return Err(self.error("invalid \\u escape: expected 4 hex digits"));
            };
            v = v * 16 + d;
            self.consume(1);
        }
        Ok(v)
    }

    fn digits(&mut self, mut each: impl FnMut(u8)) -> Result<usize, ImportError> {
        let mut n = 0;
        while let Some(b @ b'0'..=b'9') = self.peek()? {
            each(b);
            self.consume(1);
            n += 1;
        }
        Ok(n)
    }

    /// Reads a number with JSON's grammar (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`).
    pub fn number(&mut self) -> Result<Number, ImportError> {
        self.skip_ws()?;
        let start = self.pos();
        let negative = self.peek()? == Some(b'-');
        if negative {
            self.consume(1);
        }
        let first = self.peek()?;
        let mut value: Option<u64> = Some(0);
        let int_digits = self.digits(|d| {
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(u64::from(d - b'0')));
        })?;
        if int_digits == 0 {
            return Err(self.error_at(start, "expected a number"));
        }
        if first == Some(b'0') && int_digits > 1 {
            return Err(self.error_at(start, "invalid number: leading zero"));
        }
        let mut integer = !negative;
        if self.peek()? == Some(b'.') {
            self.consume(1);
            integer = false;
            if self.digits(|_| {})? == 0 {
                return Err(self.error("invalid number: expected digits after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.peek()? {
            self.consume(1);
            integer = false;
            if let Some(b'+' | b'-') = self.peek()? {
                self.consume(1);
            }
            if self.digits(|_| {})? == 0 {
                return Err(self.error("invalid number: expected digits in the exponent"));
            }
        }
        Ok(match (integer, value) {
            (true, Some(v)) => Number::Unsigned(v),
            _ => Number::Other,
        })
    }

    /// Reads `true`, `false` or `null`; returns the bool (`None` for null).
    pub fn literal(&mut self) -> Result<Option<bool>, ImportError> {
        self.skip_ws()?;
        let start = self.pos();
        let (word, value): (&[u8], Option<bool>) = match self.peek()? {
            Some(b't') => (b"true", Some(true)),
            Some(b'f') => (b"false", Some(false)),
            Some(b'n') => (b"null", None),
            found => return Err(self.unexpected(found, "a value")),
        };
        for &want in word {
            if self.peek()? != Some(want) {
                return Err(self.error_at(start, "invalid literal"));
            }
            self.consume(1);
        }
        Ok(value)
    }

    /// Skips one value of any kind, however deeply nested, without recursion.
    pub fn skip_value(&mut self) -> Result<(), ImportError> {
        // closing brackets still expected, innermost last
        let mut open: Vec<u8> = Vec::new();
        let mut scratch = Vec::new();
        loop {
            // a value
            self.skip_ws()?;
            match self.peek()? {
                Some(b'[') => {
                    self.consume(1);
                    self.skip_ws()?;
                    if self.peek()? == Some(b']') {
                        self.consume(1);
                    } else {
                        open.push(b']');
                        continue;
                    }
                }
                Some(b'{') => {
                    self.consume(1);
                    self.skip_ws()?;
                    if self.peek()? == Some(b'}') {
                        self.consume(1);
                    } else {
                        self.string(&mut scratch, 0)?;
                        self.expect(b':', "':'")?;
                        open.push(b'}');
                        continue;
                    }
                }
                Some(b'"') => {
                    self.string(&mut scratch, 0)?;
                }
                Some(b'-' | b'0'..=b'9') => {
                    self.number()?;
                }
                _ => {
                    self.literal()?;
                }
            }
            // after a value: a separator, or the ends of enclosing values
            loop {
                let Some(&close) = open.last() else {
                    return Ok(());
                };
                let what = if close == b']' {
                    "',' or ']'"
                } else {
                    "',' or '}'"
                };
                if self.one_of(&[b',', close], what)? == close {
                    open.pop();
                    continue;
                }
                if close == b'}' {
                    self.string(&mut scratch, 0)?;
                    self.expect(b':', "':'")?;
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lexer(s: &[u8]) -> Lexer<&[u8]> {
        Lexer::new(s)
    }

    fn string(s: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        lexer(s)
            .string(&mut out, 1000)
            .map(|_| out)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn strings_keep_raw_bytes_and_decode_escapes() {
        assert_eq!(string(b"\"a\xffb\""), Ok(b"a\xffb".to_vec()));
        assert_eq!(
            string(b"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\ud83d\\ude00\""),
            Ok("\"\\/\x08\x0c\n\r\tAé😀".as_bytes().to_vec())
        );
        assert!(string(b"\"a\nb\"").is_err_and(|e| e.contains("control character")));
        assert!(string(b"\"\\ud800x\"").is_err_and(|e| e.contains("lone surrogate")));
        assert!(string(b"\"\\q\"").is_err_and(|e| e.contains("invalid escape")));
        assert!(string(b"\"abc").is_err_and(|e| e.contains("end of input")));
        let mut out = Vec::new();
        assert_eq!(lexer(b"\"abcdef\"").string(&mut out, 3).ok(), Some(false));
        assert_eq!(out, b"abc");
    }

    #[test]
    fn numbers_follow_json_grammar() {
        let n = |s: &[u8]| lexer(s).number().map_err(|e| e.to_string());
        assert_eq!(n(b"0"), Ok(Number::Unsigned(0)));
        assert_eq!(n(b"18446744073709551615"), Ok(Number::Unsigned(u64::MAX)));
        assert_eq!(n(b"18446744073709551616"), Ok(Number::Other));
        assert_eq!(n(b"-1"), Ok(Number::Other));
        assert_eq!(n(b"1.5e3"), Ok(Number::Other));
        assert!(n(b"01").is_err());
        assert!(n(b"1.").is_err());
        assert!(n(b"-").is_err());
        assert!(n(b"1e").is_err());
    }

    #[test]
    fn skip_value_handles_any_depth() {
        let deep = format!("{}{}x", "[".repeat(100_000), "]".repeat(100_000));
        let mut l = lexer(deep.as_bytes());
        l.skip_value().expect("skip a deep array");
        assert_eq!(l.peek().ok().flatten(), Some(b'x'));
        let mut l = lexer(b" {\"a\":[1,{\"b\":null},\"s\",true,-2.5e1],\"c\":{}} ,");
        l.skip_value().expect("skip an object");
        l.skip_ws().expect("ws");
        assert_eq!(l.peek().ok().flatten(), Some(b','));
        assert!(lexer(b"[1,]").skip_value().is_err());
        assert!(lexer(b"{\"a\" 1}").skip_value().is_err());
        assert!(lexer(b"[1 2]").skip_value().is_err());
    }

    #[test]
    fn positions_count_lines_and_columns() {
        let mut l = lexer(b"[\n  \n   x");
        l.expect(b'[', "'['").expect("[");
        l.skip_ws().expect("ws");
        assert_eq!(
            l.pos(),
            Pos {
                line: 3,
                column: 4,
                offset: 8
            }
        );
    }
}
