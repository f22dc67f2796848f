import JumpRuntime

/// Keeps secrets out of text that came from a server. A server (or a proxy) may echo the request in its
/// error text; that text reaches error details, events and log lines. Every token, secret and signature
/// libjump sends is remembered here (the most recent ones, in memory only) and replaced by "[redacted]"
/// wherever server-provided text leaves the library. Passwords are not remembered: the request that sent
/// one scrubs its own errors (CaptureAPI).
public enum SecretScrubber {
    static let replacement = "[redacted]"
    private static let capacity = 256
    /// Shorter values would blank out ordinary words; no secret libjump handles is this short.
    private static let minimumLength = 6

    private struct Ring {
        var values: [String] = []
        /// The same values, to ask whether one is known without comparing it with all of them.
        var known: Set<String> = []
        var next = 0
    }

    private static let ring = ForkSafety.processWide(Lock(Ring()))

    /// Form fields whose values are secrets. Checked on bytes: this runs for every form field of every
    /// request, and String's generic substring search costs tens of thousands of instructions a call.
    static func isSecretField(_ name: String) -> Bool {
        let lower = asciiLowercased(name)
        return secretFieldWords.contains { find($0, in: lower) != nil } || lower.elementsEqual("code".utf8)
            || lower.suffix(5).elementsEqual("_code".utf8)
    }

    static func isPasswordField(_ name: String) -> Bool { find(passwordWord, in: asciiLowercased(name)) != nil }

    private static let passwordWord = Array("password".utf8)
    private static let secretFieldWords = ["password", "token", "secret", "signature"].map { Array($0.utf8) }

    static func asciiLowercased(_ text: String) -> [UInt8] {
        text.utf8.map { $0 | (($0 >= 0x41 && $0 <= 0x5A) ? 0x20 : 0) }
    }

    /// The first index where `needle` starts in `haystack` (plain search: names and messages are short).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var i = start
        while i <= haystack.count - needle.count {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    static func remember(_ value: String) {
        guard value.utf8.count >= minimumLength else { return }
        ring.withLock { r in
            for form in forms(of: value) where r.known.insert(form).inserted {
                if r.values.count < capacity {
                    r.values.append(form)
                } else {
                    r.known.remove(r.values[r.next])
                    r.values[r.next] = form
                    r.next = (r.next + 1) % capacity
                }
            }
        }
    }

    /// A secret as sent and as a server echoing the request would write it back: form-encoded (a signature's
    /// "=" and "+", a password's spaces and symbols become %XX).
    private static func forms(of value: String) -> [String] {
        let encoded = FormParameters.escape(value, keepBrackets: false)
        return encoded == value ? [value] : [value, encoded]
    }

    static func scrub(_ text: String, also extra: [String] = []) -> String {
        // A request's own secrets (its password above all) are scrubbed from 4 bytes on: shorter passwords
        // exist, but blanking every 3-letter match would make the message useless.
        let secrets = ring.withLock { $0.values } + extra.filter { $0.utf8.count >= 4 }.flatMap(forms(of:))
        var bytes = Array(text.utf8)
        var changed = false
        for secret in secrets {
            let needle = Array(secret.utf8)
            guard var at = find(needle, in: bytes) else { continue }
            var out: [UInt8] = []
            var from = 0
            while true {
                out += bytes[from..<at]
                out += replacement.utf8
                from = at + needle.count
                guard let next = find(needle, in: bytes, from: from) else { break }
                at = next
            }
            out += bytes[from...]
            bytes = out
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// Remembers the secret parameters of a URL's query string (an Engage token in /signin/device?token=).
    static func rememberQuerySecrets(of url: String) {
        guard let question = url.utf8.firstIndex(of: UInt8(ascii: "?")) else { return }
        for pair in url[url.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, isSecretField(String(parts[0])) else { continue }
            remember(String(parts[1]))
            remember(QueryString.decode(parts[1]))
        }
    }

    static func scrub(_ json: JSON, also extra: [String] = []) -> JSON {
        switch json {
        case .string(let s): return .string(scrub(s, also: extra))
        case .array(let items): return .array(items.map { scrub($0, also: extra) })
        case .object(let members): return .object(members.mapValues { scrub($0, also: extra) })
        default: return json
        }
    }
}

extension JumpError {
    /// This error with every remembered secret (and `extra`) taken out of its message and detail.
    func scrubbed(also extra: [String] = []) -> JumpError {
        var copy = self
        copy.message = SecretScrubber.scrub(message, also: extra)
        for (key, value) in detail where !JumpError.handBackKeys.contains(key) {
            copy.detail[key] = SecretScrubber.scrub(value, also: extra)
        }
        return copy
    }
}
