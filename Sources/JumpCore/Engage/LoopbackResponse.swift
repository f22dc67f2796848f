/// The few answers the loopback receiver gives. Every one closes the connection: a browser that wants more
/// opens a new one, which keeps the receiver free of keep-alive state.
enum LoopbackResponse {
    case signInReceived
    /// The callback path, but not the sign-in being waited for (another state).
    case notAwaited
    case badRequest
    case notFound
    case methodNotAllowed
    case headTooLarge

    var statusCode: Int {
        switch self {
        case .signInReceived: return 200
        case .notAwaited, .badRequest: return 400
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .headTooLarge: return 431
        }
    }

    private var reason: String {
        switch self {
        case .signInReceived: return "OK"
        case .notAwaited, .badRequest: return "Bad Request"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .headTooLarge: return "Request Header Fields Too Large"
        }
    }

    private var page: String {
        switch self {
        case .signInReceived:
            return """
                <!DOCTYPE html>
                <html><head><meta charset="utf-8"><title>Sign-in received</title></head>
                <body style="font-family:sans-serif;margin:3em">
                <p>Sign-in received. You may close this window and return to the application.</p>
                </body></html>

                """
        case .notAwaited:
            return "400 Bad Request: this is not the sign-in the application is waiting for\n"
        default:
            return "\(statusCode) \(reason)\n"
        }
    }

    /// The whole response. The sign-in URL carries a token, so the page must not be cached nor leak it as
    /// a Referer.
    var bytes: [UInt8] {
        let body = Array(page.utf8)
        let type = self == .signInReceived ? "text/html; charset=utf-8" : "text/plain; charset=utf-8"
        var head = "HTTP/1.1 \(statusCode) \(reason)\r\n"
        head += "Content-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
        head += "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n"
        if self == .methodNotAllowed { head += "Allow: GET\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}
