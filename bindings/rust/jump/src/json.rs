//! A small JSON value, parser and writer: libjump speaks JSON text and this crate has no dependencies.
//! Numbers keep their text, so an id or epoch time loses no digit on its way through.
use std::fmt;

/// A JSON value. Objects keep their members in document order. `Display` writes it as compact JSON text.
///
/// ```
/// let v = jump::json::parse(r#"{"uuid":"a1","count":3,"tags":["x"]}"#).unwrap();
/// assert_eq!(v.str_of("uuid").as_deref(), Some("a1"));
/// assert_eq!(v.get("count").and_then(jump::Value::as_i64), Some(3));
/// assert_eq!(v.to_string(), r#"{"uuid":"a1","count":3,"tags":["x"]}"#);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// The number as the document wrote it (see [`Value::as_i64`], [`Value::as_f64`]).
    Number(String),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object: its members in document order.
    Object(Vec<(String, Value)>),
}

/// Deeper documents are refused: libjump never nests more than 64 levels, and a parser that recursed
/// without a bound could exhaust a thread's stack.
const MAX_DEPTH: usize = 128;

impl Value {
    /// The member `key` of an object (`None` for a missing key or a value that is not an object).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value at a chain of object keys: `v.at(&["error", "status"])`.
    pub fn at(&self, keys: &[&str]) -> Option<&Value> {
        keys.iter().try_fold(self, |v, k| v.get(k))
    }

    /// The text of a string (`None` for another type).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// A number as an i64: an integer, or a real with an integral value within i64 (`None` otherwise).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.parse::<i64>().ok().or_else(|| {
                let f = n.parse::<f64>().ok()?;
                if f.fract() == 0.0 && f.abs() < 9.2e18 {
                    Some(f as i64)
                } else {
                    None
                }
            }),
            _ => None,
        }
    }

    /// A number as an f64 (`None` for another type).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// A boolean (`None` for another type).
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements of an array (`None` for another type).
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The string member `key`, as an owned String (a common need with libjump's documents).
    pub fn str_of(&self, key: &str) -> Option<String> {
        self.get(key).and_then(Value::as_str).map(str::to_owned)
    }
}

/// Parses JSON text; `None` when it is not one JSON value (or nests deeper than 128 levels).
pub fn parse(text: &str) -> Option<Value> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let v = p.value(0)?;
    p.ws();
    if p.i == p.s.len() {
        Some(v)
    } else {
        None
    }
}

/// `s` as a JSON string literal, quotes included: how to put a string into the JSON text libjump takes.
///
/// ```
/// assert_eq!(jump::json::quote("say \"hi\""), r#""say \"hi\"""#);
/// let attributes = format!("{{\"email\":{}}}", jump::json::quote("ada@example.com"));
/// assert_eq!(attributes, r#"{"email":"ada@example.com"}"#);
/// ```
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl fmt::Display for Value {
    /// Compact JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{}", b),
            Value::Number(n) => f.write_str(n),
            Value::String(s) => f.write_str(&quote(s)),
            Value::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", v)?;
                }
                f.write_str("]")
            }
            Value::Object(members) => {
                f.write_str("{")?;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}:{}", quote(k), v)?;
                }
                f.write_str("}")
            }
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &str, v: Value) -> Option<Value> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Some(v)
        } else {
            None
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        match *self.s.get(self.i)? {
            b'n' => self.literal("null", Value::Null),
            b't' => self.literal("true", Value::Bool(true)),
            b'f' => self.literal("false", Value::Bool(false)),
            b'"' => self.string().map(Value::String),
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Some(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Some(Value::Array(items));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            b'{' => {
                self.i += 1;
                let mut members = Vec::new();
                if self.eat(b'}') {
                    return Some(Value::Object(members));
                }
                loop {
                    self.ws();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    members.push((key, self.value(depth + 1)?));
                    if self.eat(b'}') {
                        return Some(Value::Object(members));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            _ => self.number(),
        }
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        text.parse::<f64>().ok()?;
        Some(Value::Number(text.to_owned()))
    }

    fn hex4(&mut self) -> Option<u32> {
        let text = std::str::from_utf8(self.s.get(self.i..self.i + 4)?).ok()?;
        self.i += 4;
        u32::from_str_radix(text, 16).ok()
    }

    fn string(&mut self) -> Option<String> {
        if self.s.get(self.i) != Some(&b'"') {
            return None;
        }
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let c = *self.s.get(self.i)?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") {
                                self.i += 2;
                                let lo = self.hex4()?;
                                0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                            } else {
                                hi
                            };
                            char::from_u32(code).unwrap_or('\u{FFFD}')
                        }
                        _ => return None,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text = r#"{"a":[1,-2.5e3,true,false,null],"b":{"c":"x\"y\\z\n\u00e9\ud83d\ude00"},"id":12345678901234567}"#;
        let v = parse(text).expect("parses");
        assert_eq!(v.at(&["b", "c"]).and_then(Value::as_str), Some("x\"y\\z\n\u{e9}\u{1F600}"));
        assert_eq!(v.get("id").and_then(Value::as_i64), Some(12345678901234567));
        assert_eq!(parse(&v.to_string()), Some(v));
    }

    #[test]
    fn refuses_what_is_not_json() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "tru", "1 2", "\"\\q\"", "nul"] {
            assert_eq!(parse(bad), None, "{}", bad);
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(parse(&deep), None, "deeper than the limit");
        let ok = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&ok).is_some());
    }

    #[test]
    fn quotes_control_characters() {
        assert_eq!(quote("a\u{1}b\t"), "\"a\\u0001b\\t\"");
    }
}
