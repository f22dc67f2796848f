import Foundation

/// `/emulator/reset`, `/settings`, `/clock`, `/faults` and `/counters`: the knobs tests turn.
struct AdminControl: Sendable {
    let emulator: Emulator

    func reset() async throws -> JSONValue {
        try await emulator.reset()
        return ["reset": true]
    }

    func settings() async throws -> JSONValue {
        let tokens = emulator.signInTokenSettings
        let (engageTokenLifetime, captureRefreshGrace) = try await emulator.store.read { db in
            (try EngageSettings.tokenLifetime(in: db), try CaptureSettings.refreshGraceSeconds(in: db))
        }
        return [
            "access_token_lifetime": .int(Int64(emulator.tokenLifetime)),
            "sign_in_token_lifetime": .int(Int64(tokens.signInTokenLifetime)),
            "sign_in_access_token_lifetime": .int(Int64(tokens.accessTokenLifetime)),
            "refresh_reuse_grace_seconds": .int(Int64(tokens.refreshReuseGraceSeconds)),
            "capture_refresh_grace_seconds": .int(Int64(captureRefreshGrace)),
            "engage_token_lifetime": .int(Int64(engageTokenLifetime)),
        ]
    }

    /// `{"access_token_lifetime"?, "sign_in_token_lifetime"?, "sign_in_access_token_lifetime"?,
    /// "refresh_reuse_grace_seconds"?, "capture_refresh_grace_seconds"?, "engage_token_lifetime"?}` (seconds).
    /// Everything is checked before anything changes.
    func updateSettings(_ request: AdminRequest) async throws -> JSONValue {
        let lifetime = try request.int("access_token_lifetime")
        if let lifetime, lifetime < 1 { throw AdminError.badRequest("access_token_lifetime must be at least 1") }
        let engageTokenLifetime = try request.int("engage_token_lifetime")
        if let engageTokenLifetime, !(1...EngageSettings.maximumTokenLifetime).contains(engageTokenLifetime) {
            throw AdminError.badRequest("engage_token_lifetime must be 1...\(EngageSettings.maximumTokenLifetime)")
        }
        let captureRefreshGrace = try request.int("capture_refresh_grace_seconds")
        if let captureRefreshGrace, captureRefreshGrace < 0 {
            throw AdminError.badRequest("capture_refresh_grace_seconds must be at least 0")
        }
        var tokens = emulator.signInTokenSettings
        if let value = try request.int("sign_in_token_lifetime") {
            let maximum = SignInTokenSettings.maximumSignInTokenLifetime
            guard (1...maximum).contains(value) else {
                throw AdminError.badRequest("sign_in_token_lifetime must be 1...\(maximum)")
            }
            tokens.signInTokenLifetime = value
        }
        if let value = try request.int("sign_in_access_token_lifetime") {
            guard value >= 1 else { throw AdminError.badRequest("sign_in_access_token_lifetime must be at least 1") }
            tokens.accessTokenLifetime = value
        }
        if let value = try request.int("refresh_reuse_grace_seconds") {
            guard value >= 0 else { throw AdminError.badRequest("refresh_reuse_grace_seconds must be at least 0") }
            tokens.refreshReuseGraceSeconds = value
        }
        if let lifetime { try await emulator.setTokenLifetime(lifetime) }
        if tokens != emulator.signInTokenSettings { try await emulator.setSignInTokenSettings(tokens) }
        if engageTokenLifetime != nil || captureRefreshGrace != nil {
            try await emulator.store.write { db in
                if let engageTokenLifetime { try EngageSettings.setTokenLifetime(engageTokenLifetime, in: db) }
                if let captureRefreshGrace { try CaptureSettings.setRefreshGraceSeconds(captureRefreshGrace, in: db) }
            }
        }
        return try await settings()
    }

    func clock() -> JSONValue {
        let now = emulator.clock.now()
        return [
            "now": .double(now.timeIntervalSince1970),
            "now_text": .string(CaptureTime.dateTime(now)),
            "offset_seconds": .number(emulator.clock.offsetSeconds),
        ]
    }

    /// `{"advance_seconds": N}` moves the clock on (or back, when negative); `{"offset_seconds": N}`
    /// sets the offset from real time.
    func updateClock(_ request: AdminRequest) async throws -> JSONValue {
        let offset: Double
        if let given = try request.number("offset_seconds") {
            offset = given
        } else if let advance = try request.number("advance_seconds") {
            offset = emulator.clock.offsetSeconds + advance
        } else {
            throw AdminError.badRequest("give advance_seconds or offset_seconds")
        }
        guard offset.isFinite, abs(offset) <= Self.maximumOffset else {
            throw AdminError.badRequest("the clock offset must stay within ±\(Int(Self.maximumOffset)) seconds")
        }
        try await emulator.setClockOffset(offset)
        return clock()
    }

    /// About a thousand years: far enough for any expiry test, near enough for calendar arithmetic.
    static let maximumOffset: Double = 32_000_000_000

    /// `{"kind", "count"?: 1, "path"?, "delay_ms"?: 1000, "code"? (capture_error), "retry_after"? (http_429,
    /// http_503: seconds, or an HTTP date as text)}`.
    func addFault(_ request: AdminRequest) throws -> JSONValue {
        let kindName = try request.requiredString("kind")
        guard let kind = Fault.Kind(rawValue: kindName) else {
            let known = Fault.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw AdminError.badRequest("kind must be one of \(known)")
        }
        let count = try request.int("count") ?? 1
        guard (1...10_000).contains(count) else { throw AdminError.badRequest("count must be 1...10000") }
        let path = try request.string("path")
        if let path {
            guard path.hasPrefix("/"), !AdminPaths.isAdmin(path) else {
                throw AdminError.badRequest("path must be a non-admin path starting with /")
            }
        }
        let delay = try request.int("delay_ms") ?? 1000
        guard (0...120_000).contains(delay) else { throw AdminError.badRequest("delay_ms must be 0...120000") }
        var fault = Fault(kind: kind, remaining: count, path: path, delayMilliseconds: delay)
        if kind == .captureError {
            guard let code = try request.int("code"), (1...9999).contains(code) else {
                throw AdminError.badRequest("a capture_error fault needs a code, e.g. 330")
            }
            fault.code = code
        }
        if let value = request.body["retry_after"], !value.isNull {
            guard kind == .http429 || kind == .http503 else {
                throw AdminError.badRequest("retry_after goes with http_429 and http_503 faults only")
            }
            if let seconds = value.intValue {
                guard (0...86_400).contains(seconds) else { throw AdminError.badRequest("retry_after must be 0...86400 seconds") }
                fault.retryAfter = String(seconds)
            } else if let text = value.stringValue, (1...64).contains(text.count),
                      text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7f }) {
                fault.retryAfter = text
            } else {
                throw AdminError.badRequest("retry_after must be seconds or an HTTP date (printable ASCII, at most 64 characters)")
            }
        }
        emulator.faults.add(fault)
        return ["fault": fault.json, "faults": faults()["faults"] ?? []]
    }

    func faults() -> JSONValue {
        ["faults": .array(emulator.faults.pending.map(\.json))]
    }

    func clearFaults() -> JSONValue {
        emulator.faults.clear()
        return faults()
    }

    /// Requests and request-body bytes, both keyed `METHOD /path`.
    func counters() -> JSONValue {
        [
            "counters": .object(emulator.counters.snapshot.mapValues { .int(Int64($0)) }),
            "request_bytes": .object(emulator.counters.bytesSnapshot.mapValues { .int(Int64($0)) }),
        ]
    }

    func clearCounters() -> JSONValue {
        emulator.counters.clear()
        return counters()
    }
}
