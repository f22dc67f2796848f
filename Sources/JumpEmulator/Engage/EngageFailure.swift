/// Engage's error answers: `{"stat":"fail","err":{"code":N,"msg":"..."}}` (docs/protocol.md §7.5),
/// HTTP 200 unless an endpoint says otherwise.
struct EngageFailure: Error, Sendable, Equatable {
    var code: Int
    var msg: String

    var json: JSONValue {
        ["stat": "fail", "err": ["code": .int(Int64(code)), "msg": .string(msg)]]
    }

    static func missing(_ name: String) -> EngageFailure {
        EngageFailure(code: 0, msg: "Missing parameter: \(name)")
    }

    static func invalid(_ name: String) -> EngageFailure {
        EngageFailure(code: 1, msg: "Invalid parameter: \(name)")
    }

    static let dataNotFound = EngageFailure(code: 2, msg: "Data not found")
    static let unknownApplication = EngageFailure(code: 7, msg: "Unknown application")
    /// The reference SDKs read exactly this as "the user must sign in again" (docs/protocol.md §4.8).
    static let reauthenticate = EngageFailure.missing("apiKey")
}
