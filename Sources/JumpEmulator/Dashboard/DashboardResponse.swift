import Hummingbird

/// The dashboard's HTTP answers: HTML pages that run no script and cannot be framed, and the 303 that
/// sends a browser back to a page after a form post.
enum DashboardResponse {
    /// No scripts, no plugins, styles only inline, forms only to the emulator, no framing (clickjacking).
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    static func page(_ name: DashboardTemplates.Name, _ model: Any, status: HTTPResponse.Status = .ok) -> Response {
        let html = DashboardTemplates.render(name, model)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func seeOther(_ path: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = path
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    /// A plain page for when the emulator itself failed (no template involved, so it cannot fail too).
    static func failure(_ text: String) -> Response {
        let html = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Dashboard error (jump-emulator)</title>"
            + "</head><body><h1>Dashboard error</h1><p>\(EngageHTML.escape(text))</p></body></html>"
        return Response(status: .internalServerError, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private static var headers: HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        DashboardHeaders.set(DashboardHeaders.xFrameOptions, "DENY", in: &headers)
        // Outbox links may lead to another site (an app's password_recover_url): it need not learn the
        // dashboard's address. Not `no-referrer`: browsers then send `Origin: null` with the dashboard's own
        // form posts, which `CrossSiteGuard` has to refuse.
        DashboardHeaders.set(DashboardHeaders.referrerPolicy, "same-origin", in: &headers)
        return headers
    }
}
