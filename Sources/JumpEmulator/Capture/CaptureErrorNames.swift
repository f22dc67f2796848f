/// The `error` name of each Capture error code (docs/protocol.md §7.2), for injected faults. 212 and 390
/// have no documented name; the emulator uses the names its own endpoints send.
enum CaptureErrorNames {
    static let byCode: [Int: String] = [
        100: "missing_argument", 200: "invalid_argument", 201: "duplicate_argument", 205: "invalid_auth_method",
        210: "invalid_credentials", 212: "no_such_user", 221: "unknown_application", 222: "unknown_entity_type",
        223: "unknown_attribute", 232: "entity_type_exists", 233: "attribute_exists", 234: "reserved_attribute",
        310: "record_not_found", 320: "id_in_new_record", 330: "timestamp_mismatch", 340: "invalid_data_format",
        341: "invalid_json_type", 342: "invalid_date_time", 360: "constraint_violation", 361: "unique_violation",
        362: "missing_required_attribute", 363: "length_violation", 380: "email_address_in_use",
        390: "form_validation_failed", 402: "invalid_client_credentials", 403: "client_permission_error",
        414: "access_token_expired", 415: "authorization_code_expired", 416: "verification_code_expired",
        417: "creation_token_expired", 420: "redirect_uri_mismatch", 480: "api_feature_disabled",
        500: "unexpected_error", 510: "api_limit_error",
    ]
}

extension CaptureError {
    /// The body of a `capture_error` fault. 330 also names the attribute whose timestamp did not
    /// match, as Capture does.
    static func injected(code: Int) -> CaptureError {
        var extras: [String: JSONValue] = [:]
        if code == 330 { extras["attribute_name"] = "/lastUpdated" }
        return CaptureError(code: code, error: CaptureErrorNames.byCode[code] ?? "unknown_error",
                            description: "injected fault", extras: extras)
    }
}
