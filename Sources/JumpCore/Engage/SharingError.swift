/// Why sharing to one provider failed, in the words of jump.h ("error_class"), so that a host can decide
/// between asking the user to sign in again, waiting, fixing the content or giving up.
enum SharingErrorClass: String, Sendable, CaseIterable {
    case invalidParameter = "invalid_parameter"
    case reauthenticate
    case rateLimit = "rate_limit"
    case media
    case duplicate
    case characterLimit = "character_limit"
    case provider
    case notSignedIn = "not_signed_in"
    case failed

    /// Engage's `err.code` and `err.msg` as both SDKs read them (docs/protocol.md §4.8). The messages
    /// are the providers' own wording, so they are matched loosely and without case.
    static func classify(code: Int?, message: String, provider: String) -> SharingErrorClass {
        let text = message.lowercased()
        switch code {
        case 0, 1:
            // Engage's way of saying the device token is gone.
            return text.contains("missing parameter: apikey") ? .reauthenticate : .invalidParameter
        case 4:
            if text.contains("invalid oauth") || text.contains("error validating access token")
                || (text.contains("session") && text.contains("invalidated")) {
                return .reauthenticate
            }
            if text.contains("feed action request limit") { return .rateLimit }
            if ["image", "flash", "media", "mp3"].contains(where: { text.contains($0) }) { return .media }
            return .provider
        case 6:
            // Android matches "Twitter ... duplicate"; the provider name covers messages that omit it.
            let twitter = provider.lowercased() == "twitter" || text.contains("twitter")
            return twitter && text.contains("duplicate") ? .duplicate : .provider
        case 100:
            return .characterLimit
        default:
            return .failed
        }
    }
}

/// The per-provider entries of jump_client_share's "results".
enum ShareResult {
    /// `reply` is Engage's decoded answer to /api/v2/activity or /api/v2/set_status (any JSON: a body that
    /// is not an object is a failure, not a crash).
    static func json(reply: JSON, method: String, provider: String) -> JSON {
        if reply["stat"]?.stringValue == "ok" { return ["ok": true, "method": .string(method)] }
        guard let err = reply["err"]?.objectValue else {
            return failure(.failed, code: nil, message: "Engage answered the share with neither \"ok\" nor an error")
        }
        let code = Self.code(err["code"])
        let message = err["msg"]?.stringValue ?? "the share failed"
        return failure(SharingErrorClass.classify(code: code, message: message, provider: provider), code: code,
                       message: message)
    }

    static func failure(_ errorClass: SharingErrorClass, code: Int?, message: String) -> JSON {
        ["ok": false, "error_class": .string(errorClass.rawValue), "code": code.map { .int(Int64($0)) } ?? .null,
         "message": .string(message)]
    }

    /// A share that got no answer from Engage. One that left and lost its answer says so (reason
    /// "outcome_unknown"): the provider may have published it, and it was not sent again.
    static func failure(_ error: JumpError) -> JSON {
        var fields = failure(.failed, code: nil, message: error.message).objectValue ?? [:]
        if error.detail["reason"]?.stringValue == JumpError.outcomeUnknownReason {
            fields["reason"] = .string(JumpError.outcomeUnknownReason)
        }
        return .object(fields)
    }

    static func isOutcomeUnknown(_ entry: JSON?) -> Bool {
        entry?["reason"]?.stringValue == JumpError.outcomeUnknownReason
    }

    /// Engage sends a number; a numeric string is read too rather than losing the classification.
    private static func code(_ value: JSON?) -> Int? {
        if let number = value?.intValue { return Int(exactly: number) }
        if let text = value?.stringValue, let number = Int(text) { return number }
        return nil
    }
}
