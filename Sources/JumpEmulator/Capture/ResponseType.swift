/// `response_type`: `token` (default) or `code_and_token`, which adds an authorization code.
enum ResponseType: String, Sendable {
    case token
    case codeAndToken = "code_and_token"

    init(parameter: String?) throws(CaptureError) {
        guard let parameter, !parameter.isEmpty else {
            self = .token
            return
        }
        guard let value = ResponseType(rawValue: parameter) else {
            throw CaptureError.invalidArgument("response_type", "response_type must be token or code_and_token")
        }
        self = value
    }
}
