import Synchronization

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
        var next = 0
    }

    private static let ring = Mutex(Ring())

    /// Form fields whose values are secrets.
    static func isSecretField(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.contains("password") || lower.contains("token") || lower.contains("secret")
            || lower.contains("signature") || lower == "code" || lower.hasSuffix("_code")
    }

    static func isPasswordField(_ name: String) -> Bool { name.lowercased().contains("password") }

    static func remember(_ value: String) {
        guard value.utf8.count >= minimumLength else { return }
        ring.withLock { r in
            for form in forms(of: value) where !r.values.contains(form) {
                if r.values.count < capacity {
                    r.values.append(form)
                } else {
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
        let secrets = ring.withLock { $0.values } + extra.filter { $0.utf8.count >= minimumLength }.flatMap(forms(of:))
        var out = text
        for secret in secrets where out.contains(secret) {
            out = out.replacing(secret, with: replacement)
        }
        return out
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
