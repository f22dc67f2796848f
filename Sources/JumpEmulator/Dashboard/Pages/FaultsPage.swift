/// `/emulator/ui/faults`: `GET /emulator/faults` for people, and the form that arms one through
/// `POST /emulator/ui/faults` (see `DashboardActions.armFault`).
struct FaultsPage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .faults)
        let hasFaults: Bool
        let faults: [Armed]
        let kinds = Fault.Kind.allCases.map { Kind(value: $0.rawValue, label: FaultsPage.describe($0)) }
        let hasError: Bool
        let error: String
    }

    struct Armed: Sendable {
        let kind: String
        let remaining: Int64
        let path: String
        let details: String
    }

    struct Kind: Sendable {
        let value: String
        let label: String
    }

    func model(error: String? = nil) -> Model {
        let faults = (AdminControl(emulator: emulator).faults()["faults"]?.arrayValue ?? []).map { fault in
            var details = ""
            if let delay = fault["delay_ms"]?.intValue { details = "delay \(delay) ms" }
            if let code = fault["code"]?.intValue { details = "Capture error code \(code)" }
            if let retryAfter = fault["retry_after"]?.stringValue { details = "Retry-After: \(retryAfter)" }
            return Armed(
                kind: fault["kind"]?.stringValue ?? "", remaining: fault["count"]?.intValue ?? 0,
                path: fault["path"]?.stringValue ?? "every non-admin path", details: details)
        }
        return Model(hasFaults: !faults.isEmpty, faults: faults, hasError: error != nil, error: error ?? "")
    }

    static func describe(_ kind: Fault.Kind) -> String {
        switch kind {
        case .http500: "http_500: HTTP 500 with a Capture error body"
        case .html: "html: a proxy's 502 HTML page"
        case .garbage: "garbage: truncated JSON"
        case .empty: "empty: an empty body"
        case .delay: "delay: answer late"
        case .captureError: "capture_error: HTTP 200 with a Capture error code"
        case .lostAnswer: "lost_answer: carried out, then a proxy's 502 page"
        case .http429: "http_429: too many requests (Retry-After when set)"
        case .http503: "http_503: service unavailable (Retry-After when set)"
        case .reset: "reset: the connection is reset, no answer"
        }
    }
}
