import Foundation

/// One Capture API call: the merged parameters and the `Authorization` header.
struct CaptureCall: Sendable {
    let params: FormParams
    let authorizationHeader: String?

    init(params: FormParams, authorizationHeader: String? = nil) {
        self.params = params
        self.authorizationHeader = authorizationHeader
    }

    /// A required parameter; blank counts as missing (100 missing_argument).
    func required(_ name: String) throws(CaptureError) -> String {
        guard let value = params.nonEmpty(name) else { throw CaptureError.missingArgument(name) }
        return value
    }

    /// The `access_token` parameter, or `Authorization: OAuth <token>` (protocol.md §3.0).
    var accessToken: String? {
        if let token = params.nonEmpty("access_token") { return token }
        guard let header = authorizationHeader else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "oauth" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
