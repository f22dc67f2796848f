/// A Capture API error: `{"stat":"error","code":N,"error":"<name>","error_description":"<text>",...}`
/// sent with HTTP 200 (docs/protocol.md §7). Codes and names follow §7.2.
struct CaptureError: Error, Sendable, Equatable {
    var code: Int
    var error: String
    var description: String
    /// Code-specific fields such as `argument_name` or `invalid_fields`.
    var extras: [String: JSONValue] = [:]
    /// Capture answers API errors with HTTP 200; `/oauth/token` uses 400 (docs/protocol.md §6.8).
    var httpStatus: Int = 200

    var json: JSONValue {
        var body = extras
        body["stat"] = "error"
        body["code"] = .int(Int64(code))
        body["error"] = .string(error)
        body["error_description"] = .string(description)
        return .object(body)
    }
}

extension CaptureError {
    static func missingArgument(_ name: String) -> CaptureError {
        CaptureError(code: 100, error: "missing_argument", description: "missing required argument: \(name)",
                     extras: ["argument_name": .string(name)])
    }

    static func invalidArgument(_ name: String, _ description: String) -> CaptureError {
        CaptureError(code: 200, error: "invalid_argument", description: description,
                     extras: ["argument_name": .string(name)])
    }

    static func invalidClient() -> CaptureError {
        CaptureError(code: 402, error: "invalid_client_credentials",
                     description: "the client_id is not that of a known API client")
    }

    static func invalidClientCredentials() -> CaptureError {
        CaptureError(code: 402, error: "invalid_client_credentials",
                     description: "the client_id and client_secret do not match a known API client")
    }

    /// An owner call's `uuid` or `id` names no record of the app (docs/protocol.md §7.2, 310; the 310 of
    /// social sign-in adds `prereg_fields`, see SocialErrors).
    static func recordNotFound(_ what: String) -> CaptureError {
        CaptureError(code: 310, error: "record_not_found", description: "no record with \(what)")
    }

    /// A server-side call made with a user's access token: only the API client's own credentials
    /// (secret, Basic or signature) may search, count or create records.
    static func ownerCredentialsRequired(_ path: String) -> CaptureError {
        CaptureError(code: 403, error: "client_permission_error",
                     description: "\(path) needs the API client's credentials (client_id and client_secret, "
                         + "HTTP Basic or a signature), not an access token")
    }

    static func unknownEntityType(_ name: String) -> CaptureError {
        CaptureError(code: 222, error: "unknown_entity_type", description: "unknown entity type \(name)",
                     extras: ["type_name": .string(name)])
    }

    /// Wrong user id or password. The form-level message keyed by the form name is what the SDKs show.
    static func invalidCredentials(form: String, locale: MessageLocale) -> CaptureError {
        CaptureError(code: 210, error: "invalid_credentials", description: Message.invalidCredentials.text(.enUS),
                     extras: ["invalid_fields": .object([form: .array([.string(Message.invalidCredentials.text(locale))])])])
    }

    /// No account for the user id of a forgot-password or resend-verification form: a form-level
    /// message keyed by the form name, as the SDKs show it (docs/protocol.md §6.5). Capture's name for
    /// code 212 is not known; the emulator calls it `no_such_user`.
    static func noSuchUser(form: String, locale: MessageLocale) -> CaptureError {
        CaptureError(code: 212, error: "no_such_user", description: Message.noAccountForEmail.text(.enUS),
                     extras: ["invalid_fields": .object([form: .array([.string(Message.noAccountForEmail.text(locale))])])])
    }

    static func formValidation(_ invalidFields: [String: [String]]) -> CaptureError {
        let fields = invalidFields.mapValues { JSONValue.array($0.map(JSONValue.string)) }
        return CaptureError(code: 390, error: "form_validation_failed",
                            description: "some of the form fields are invalid", extras: ["invalid_fields": .object(fields)])
    }

    static func accessTokenExpired() -> CaptureError {
        CaptureError(code: 414, error: "access_token_expired", description: "the access token has expired")
    }

    static func unknownAttribute(_ path: String, _ why: String? = nil) -> CaptureError {
        CaptureError(code: 223, error: "unknown_attribute", description: why ?? "attribute \(path) does not exist",
                     extras: ["attribute_name": .string(path)])
    }

    static func reservedAttribute(_ path: String) -> CaptureError {
        CaptureError(code: 234, error: "reserved_attribute", description: "attribute \(path) is reserved",
                     extras: ["attribute_name": .string(path)])
    }

    static func invalidJSONType(_ path: String, expected: String, got: JSONValue) -> CaptureError {
        CaptureError(code: 341, error: "invalid_json_type",
                     description: "attribute \(path) needs a JSON \(expected), not \(got.typeName)",
                     extras: ["attribute_name": .string(path)])
    }

    static func invalidDateTime(_ path: String, _ text: String) -> CaptureError {
        CaptureError(code: 342, error: "invalid_date_time", description: "'\(text)' is not a valid date for \(path)",
                     extras: ["attribute_name": .string(path)])
    }

    static func uniqueViolation(_ path: String) -> CaptureError {
        CaptureError(code: 361, error: "unique_violation", description: "the value of \(path) is already in use",
                     extras: ["attribute_name": .string(path)])
    }

    static func missingRequiredAttribute(_ path: String) -> CaptureError {
        CaptureError(code: 362, error: "missing_required_attribute", description: "attribute \(path) is required",
                     extras: ["attribute_name": .string(path)])
    }

    static func lengthViolation(_ path: String, limit: Int) -> CaptureError {
        CaptureError(code: 363, error: "length_violation",
                     description: "attribute \(path) is longer than \(limit) characters",
                     extras: ["attribute_name": .string(path)])
    }

    /// `entity.replace` assigns new element ids; an element that brings one is refused.
    static func idInNewRecord(_ path: String) -> CaptureError {
        CaptureError(code: 320, error: "id_in_new_record",
                     description: "elements written to \(path) by a replace cannot carry an id",
                     extras: ["attribute_name": .string(path)])
    }

    static func unexpected(_ description: String) -> CaptureError {
        CaptureError(code: 500, error: "unexpected_error", description: description)
    }
}
