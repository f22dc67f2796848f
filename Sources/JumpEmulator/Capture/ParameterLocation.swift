/// Where an endpoint reads its parameters.
///
/// docs/protocol.md §2.4 has the emulator merge the query string with the body, because the
/// iOS SDK posts some calls with everything in the query (the `auth_native` token URL, §6.3). Real
/// Capture reads sign-in and registration parameters, and anything proven by the client secret, from
/// the POST body only: a password or secret in a URL ends up in proxy and server logs, and a janrain
/// signature covers only the body, so query parameters next to it would be unsigned. Those endpoints
/// use `.body`; the others keep the lenient merge.
enum ParameterLocation: Sendable {
    /// Query string and body merged, the body winning (docs/protocol.md §2.4).
    case queryOrBody
    /// The POST body only; the query string is ignored.
    case body

    func apply(to call: CaptureCall) -> CaptureCall {
        switch self {
        case .queryOrBody: call
        case .body: call.bodyOnly()
        }
    }

    /// Says so in the error when a parameter the endpoint missed (100 `argument_name`, or a 390 form
    /// field) was sent in the query string of a body-only call: otherwise the client would be told a
    /// parameter it did send is missing.
    static func explain(_ error: CaptureError, for call: CaptureCall) -> CaptureError {
        guard call.readsBodyOnly, !call.query.values.isEmpty else { return error }
        var error = error
        let note = "was sent in the query string, but \(call.path) reads its parameters from the POST body only"
        if error.code == 100, let name = error.extras["argument_name"]?.stringValue, call.query[name] != nil {
            error.description = "missing required argument: \(name) (it \(note))"
        } else if error.code == 390, let fields = error.extras["invalid_fields"]?.objectValue {
            let inQuery = fields.keys.filter { call.query[$0] != nil }.sorted()
            if !inQuery.isEmpty {
                error.description += "; \(inQuery.joined(separator: ", ")) \(note)"
            }
        }
        return error
    }
}
