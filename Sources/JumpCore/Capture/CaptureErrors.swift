/// Capture's `stat:"error"` answers (docs/protocol.md §7) as JumpErrors that keep the server's own words.
enum CaptureErrors {
    static let bodyFields = ["code", "error", "error_description", "message", "request_token", "argument_name",
                             "expected_value", "supplied_value", "attribute_name", "http_status"]

    static func error(from body: [String: JSON], httpStatus: Int, endpoint: String) -> JumpError {
        let code = body["code"]?.intValue
        let name = body["error"]?.stringValue
        let description = nonEmpty(body["message"]?.stringValue) ?? nonEmpty(body["error_description"]?.stringValue)
        var server: [String: JSON] = [:]
        for key in bodyFields { if let v = body[key] { server[key] = v } }
        server["http_status"] = .int(Int64(httpStatus))
        var detail: [String: JSON] = ["server": .object(server)]
        // What the app needs to go on: the form errors, and the 310 / 380 data (docs/protocol.md §7.3).
        for key in ["invalid_fields", "prereg_fields", "prereg_attributes", "existing_provider"] {
            if let value = body[key] { detail[key] = value }
        }
        if let argument = body["argument_name"]?.stringValue ?? body["attribute_name"]?.stringValue {
            detail["argument"] = .string(argument)
        }

        let status = status(forCode: code, httpStatus: httpStatus)
        var message = "\(endpoint) failed"
        if let code { message += " (Capture code \(code)\(name.map { " " + $0 } ?? ""))" }
        else if let name { message += " (\(name))" }
        else { message += " (HTTP \(httpStatus), no error code)" }
        if let description { message += ": " + description }
        return JumpError(status, message, detail: detail)
    }

    static func status(forCode code: Int64?, httpStatus: Int) -> JumpStatus {
        switch code {
        case 210: return .badCredentials
        case 310: return .registrationRequired
        case 380: return .mergeRequired
        case 390, 212, 361: return .validation
        case 414: return .expired
        case 330: return .conflict
        case 223, 234, 340, 341, 342, 360, 362, 363: return .invalidArgument
        case 404: return .notFound
        default: return .server
        }
    }

    /// The access token is no longer accepted (expired, or replaced by a refresh).
    static func isExpiredToken(_ error: JumpError) -> Bool {
        guard let server = error.detail["server"], let code = server["code"]?.intValue else { return false }
        if code == 414 { return true }
        return code == 200 && server["argument_name"]?.stringValue == "access_token"
    }

    /// The refresh was refused for its `date` (too far from the server's time): nothing was retired.
    static func isRefusedDate(_ error: JumpError) -> Bool {
        guard let server = error.detail["server"], server["code"]?.intValue == 200 else { return false }
        return server["argument_name"]?.stringValue == "date"
    }

    private static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }
}
