import Foundation

/// One Capture API call: its parameters, where they came from, and the headers that can carry
/// credentials (`Authorization`, and `Date` for signed calls).
struct CaptureCall: Sendable {
    /// The parameters the endpoint reads: query and body merged (the body wins), or the body alone
    /// for endpoints that read only the POST body (see `ParameterLocation`).
    let params: FormParams
    let authorizationHeader: String?
    /// The request path, e.g. `/entity.find`: the first line of a janrain signature.
    let path: String
    /// The `Date` header of a signed call (`yyyy-MM-dd HH:mm:ss`, UTC).
    let dateHeader: String?
    /// The form body alone: what a janrain signature covers.
    let body: FormParams
    /// The query string alone.
    let query: FormParams
    /// Whether `params` is the body alone: the query's parameters were ignored. A required parameter
    /// found only there is then named as such in the error, so the mistake is plain.
    let readsBodyOnly: Bool

    init(
        params: FormParams, authorizationHeader: String? = nil, path: String = "", dateHeader: String? = nil,
        body: FormParams? = nil, query: FormParams = .empty, readsBodyOnly: Bool = false
    ) {
        self.params = params
        self.authorizationHeader = authorizationHeader
        self.path = path
        self.dateHeader = dateHeader
        self.body = body ?? params
        self.query = query
        self.readsBodyOnly = readsBodyOnly
    }

    /// The same call reading the POST body only.
    func bodyOnly() -> CaptureCall {
        CaptureCall(params: body, authorizationHeader: authorizationHeader, path: path, dateHeader: dateHeader,
                    body: body, query: query, readsBodyOnly: true)
    }

    /// A required parameter; blank counts as missing (100 missing_argument).
    func required(_ name: String) throws(CaptureError) -> String {
        guard let value = params.nonEmpty(name) else { throw CaptureError.missingArgument(name) }
        return value
    }

    /// The `access_token` parameter, or `Authorization: OAuth <token>` (docs/protocol.md §5.3).
    var accessToken: String? {
        if let token = params.nonEmpty("access_token") { return token }
        guard let (scheme, value) = authorization, scheme == "oauth" else { return nil }
        return value.isEmpty ? nil : value
    }

    /// The `Authorization` header split into its lowercased scheme and its credentials.
    var authorization: (scheme: String, value: String)? {
        guard let header = authorizationHeader else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return (parts[0].lowercased(), parts[1].trimmingCharacters(in: .whitespaces))
    }

    /// Whether the call presents the API client's own credentials (a secret, Basic or a signature)
    /// rather than a user's access token.
    var presentsClientCredentials: Bool {
        if let scheme = authorization?.scheme, scheme == "basic" || scheme == "signature" { return true }
        return body.nonEmpty("client_secret") != nil || query.nonEmpty("client_secret") != nil
    }
}
