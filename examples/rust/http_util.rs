//! Plain HTTP/1.1 over std's TcpStream for the Rust examples and tests (the crates have no dependencies):
//! what an app's backend asks of the token API, and what a browser does on the emulator's pages. http://
//! only, one request per connection, no redirects followed (a 302 is an answer like any other).
#![allow(dead_code)]
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// (host:port, path) of an http:// URL.
fn split(url: &str) -> Result<(String, String), String> {
    let rest = url.strip_prefix("http://").ok_or_else(|| format!("not an http:// URL: {}", url))?;
    match rest.find('/') {
        Some(i) => Ok((rest[..i].to_owned(), rest[i..].to_owned())),
        None => Ok((rest.to_owned(), "/".to_owned())),
    }
}

/// `relative` resolved against `base` (absolute URLs, absolute paths and query-only references).
pub fn resolve(base: &str, relative: &str) -> String {
    if relative.starts_with("http://") || relative.starts_with("https://") {
        return relative.to_owned();
    }
    let (host, path) = split(base).unwrap_or_default();
    if relative.starts_with('/') {
        format!("http://{}{}", host, relative)
    } else if relative.starts_with('?') {
        format!("http://{}{}{}", host, path.split('?').next().unwrap_or("/"), relative)
    } else {
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        format!("http://{}{}{}", host, dir, relative)
    }
}

/// One request. `body`: (content type, bytes).
pub fn call(method: &str, url: &str, headers: &[(&str, &str)], body: Option<(&str, &[u8])>) -> Result<Answer, String> {
    let (host, path) = split(url)?;
    let mut stream = TcpStream::connect(&host).map_err(|e| format!("connect {}: {}", host, e))?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let mut request = format!("{} {} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", method, path, host);
    for (k, v) in headers {
        request.push_str(&format!("{}: {}\r\n", k, v));
    }
    let bytes = body.map_or(&[][..], |(_, b)| b);
    if let Some((kind, _)) = body {
        request.push_str(&format!("Content-Type: {}\r\n", kind));
    }
    if body.is_some() || method != "GET" {
        request.push_str(&format!("Content-Length: {}\r\n", bytes.len()));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).and_then(|_| stream.write_all(bytes)).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).map_err(|e| format!("read {}: {}", url, e))?;
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or("no end of headers")?;
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).ok_or("bad status line")?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned())))
        .collect();
    let mut payload = raw[end + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        payload = dechunk(&payload);
    }
    Ok(Answer { status, headers, body: String::from_utf8_lossy(&payload).into_owned() })
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..eol]).split(';').next().unwrap_or("").trim(), 16).unwrap_or(0);
        if size == 0 || data.len() < eol + 2 + size {
            break;
        }
        out.extend_from_slice(&data[eol + 2..eol + 2 + size]);
        data = &data[(eol + 4 + size).min(data.len())..];
    }
    out
}

/// application/x-www-form-urlencoded
pub fn form_encode(pairs: &[(String, String)]) -> String {
    fn enc(s: &str) -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
                _ => format!("%{:02X}", b),
            })
            .collect()
    }
    pairs.iter().map(|(k, v)| format!("{}={}", enc(k), enc(v))).collect::<Vec<_>>().join("&")
}

/// A POST with a JSON body to the emulator's token API as the app's backend (its team key).
pub fn backend_post(base: &str, path: &str, json: &str) -> Result<Answer, String> {
    let answer = call("POST", &format!("{}{}", base, path), &[("x-jump-api-key", "jump-team-key")], Some(("application/json", json.as_bytes())))?;
    if answer.status >= 300 {
        return Err(format!("POST {}: HTTP {} {}", path, answer.status, answer.body));
    }
    Ok(answer)
}

/// The emulator's fake identity provider, driven as a browser would: opens `url`, creates an identity
/// (display name and email) through its form, and returns where the provider sends the browser.
pub fn fake_idp_finish(url: &str, name: &str, email: &str) -> Result<String, String> {
    let page = call("GET", url, &[], None)?;
    if page.status != 200 {
        return Err(format!("GET {}: HTTP {}", url, page.status));
    }
    let (action, mut fields) = form_with(&page.body, "create-identity").ok_or("no form with #create-identity")?;
    set(&mut fields, "display_name", name);
    set(&mut fields, "email", email);
    let target = resolve(url, &action);
    let answer = call("POST", &target, &[], Some(("application/x-www-form-urlencoded", form_encode(&fields).as_bytes())))?;
    match answer.header("location") {
        Some(location) if (300..400).contains(&answer.status) => Ok(resolve(&target, location)),
        _ => Err(format!("the provider did not redirect: HTTP {}", answer.status)),
    }
}

fn set(fields: &mut Vec<(String, String)>, key: &str, value: &str) {
    match fields.iter_mut().find(|(k, _)| k == key) {
        Some(f) => f.1 = value.to_owned(),
        None => fields.push((key.to_owned(), value.to_owned())),
    }
}

/// The form holding the element with `id`: its action and the name=value of its inputs and of that button.
fn form_with(html: &str, id: &str) -> Option<(String, Vec<(String, String)>)> {
    let mut rest = html;
    while let Some(start) = rest.find("<form") {
        let end = rest[start..].find("</form>").map_or(rest.len(), |e| start + e);
        let form = &rest[start..end];
        rest = rest.get(end + 7..).unwrap_or("");
        if !form.contains(&format!("id=\"{}\"", id)) {
            continue;
        }
        let head = &form[..form.find('>').unwrap_or(form.len())];
        let action = attribute(head, "action").unwrap_or_default();
        let mut fields = Vec::new();
        for tag in tags(form, "<input") {
            if let Some(name) = attribute(tag, "name") {
                fields.push((name, attribute(tag, "value").unwrap_or_default()));
            }
        }
        for tag in tags(form, "<button") {
            if attribute(tag, "id").as_deref() == Some(id) {
                if let Some(name) = attribute(tag, "name") {
                    fields.push((name, attribute(tag, "value").unwrap_or_default()));
                }
            }
        }
        return Some((action, fields));
    }
    None
}

fn tags<'a>(html: &'a str, open: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(open) {
        let end = rest[i..].find('>').map_or(rest.len(), |e| i + e);
        out.push(&rest[i..end]);
        rest = &rest[end..];
    }
    out
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {}=\"", name);
    let at = tag.find(&key)? + key.len();
    let end = tag[at..].find('"')? + at;
    Some(
        tag[at..end]
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}
