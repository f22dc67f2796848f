import Hummingbird

/// Refuses admin calls and dashboard form posts that another web page made. Neither has a login, and a page
/// from any site can post to 127.0.0.1 (a plain form post reaches the JSON admin API too), so loopback-only
/// is not enough for actions: the browser says where a request comes from (`Sec-Fetch-Site`, `Origin`) and
/// only the dashboard's own pages, or clients that are not browsers (no such headers), may act.
struct CrossSiteGuard: RouterMiddleware {
    typealias Context = EmulatorRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get || request.method == .head
            || Self.isSameOrigin(
                fetchSite: DashboardHeaders.value(DashboardHeaders.secFetchSite, in: request.headers),
                origin: request.headers[.origin], host: request.head.authority)
        else {
            return AdminError(status: .forbidden, error: "cross_site_request",
                              message: "the emulator's admin API and dashboard refuse requests from other web sites").response
        }
        return try await next(request, context)
    }

    /// `Sec-Fetch-Site` must be `same-origin` (or `none`: typed by the user), and `Origin`, when sent, must
    /// be this server. `same-site` is refused too: another port of 127.0.0.1 is the same site.
    static func isSameOrigin(fetchSite: String?, origin: String?, host: String?) -> Bool {
        if let fetchSite {
            let site = fetchSite.trimmingCharacters(in: .whitespaces).lowercased()
            guard site == "same-origin" || site == "none" else { return false }
        }
        guard let origin else { return true }
        guard let host, !host.isEmpty else { return false }
        let given = origin.trimmingCharacters(in: .whitespaces).lowercased()
        return given == "http://" + host.lowercased() || given == "https://" + host.lowercased()
    }
}
