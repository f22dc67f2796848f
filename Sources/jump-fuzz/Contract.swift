import Glibc
@testable import JumpCore

/// What a run must not do besides crash or hang (libFuzzer catches those): outside input that libjump
/// refuses gets a status other than JUMP_E_INTERNAL and a message saying what was wrong (jump.h), and no
/// message or detail repeats a secret the input carried. A deviation aborts, so libFuzzer keeps the input.
enum Contract {
    /// Runs `body`; a JumpError it throws must be a reported failure, not a deviation.
    static func expectReported(_ what: String, secrets: [String] = [], _ body: () throws(JumpError) -> Void) {
        do {
            try body()
        } catch {
            check(error, what: what, secrets: secrets)
        }
    }

    static func check(_ error: JumpError, what: String, secrets: [String]) {
        if error.status == .internal { deviation(what, "JUMP_E_INTERNAL for outside input: \(error.message)") }
        if error.message.isEmpty { deviation(what, "\(error.status.name) without a message") }
        let text = error.message + " " + Jansson.serialize(.object(error.detail))
        for secret in secrets where text.contains(secret) {
            deviation(what, "\(error.status.name) repeats a secret of the input: \(error.message)")
        }
    }

    /// Secret-looking values the input carried (tokens and secrets of 12 characters or more, so that a short
    /// value that occurs anywhere by chance is not taken for a leak).
    static func secrets(inAnswer bytes: [UInt8]) -> [String] {
        guard let json = try? Jansson.parse(bytes, what: "answer") else { return [] }
        var found: [String] = []
        collect(json, into: &found, depth: 0)
        return found
    }

    private static let secretKeys: Set<String> = ["access_token", "refresh_secret", "token", "sign_in_token",
                                                  "authorization_code", "merge_token", "registration_token"]

    private static func collect(_ json: JSON, into found: inout [String], depth: Int) {
        guard depth < 16 else { return }
        switch json {
        case .object(let members):
            for (key, value) in members {
                if secretKeys.contains(key), let text = value.stringValue, text.utf8.count >= 12 { found.append(text) }
                collect(value, into: &found, depth: depth + 1)
            }
        case .array(let items):
            for item in items { collect(item, into: &found, depth: depth + 1) }
        default:
            break
        }
    }

    static func deviation(_ what: String, _ message: String) -> Never {
        fputs("CONTRACT DEVIATION in \(what): \(message)\n", stderr)
        abort()
    }
}
