import Hummingbird

/// HTML of the fake identity provider. Every piece of text that came from a request or a test fixture goes
/// through `escape` (or mustache's `{{ }}`, which escapes the same way).
enum EngageHTML {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func response(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// What `IdentityProviderMessageTemplate` renders.
    struct Message: Sendable {
        let title: String
        let text: String
    }

    /// A page with a title and one message (errors the flow cannot send back to the app).
    static func message(_ title: String, _ text: String, status: HTTPResponse.Status) -> Response {
        response(DashboardTemplates.render(.identityProviderMessage, Message(title: title, text: text)), status: status)
    }
}
