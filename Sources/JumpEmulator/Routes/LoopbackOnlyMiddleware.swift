import Hummingbird
import NIOCore

/// The admin API has no authentication, so it only answers clients on this machine, even when
/// the emulator is bound to a wider address.
struct LoopbackOnlyMiddleware: RouterMiddleware {
    typealias Context = EmulatorRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.isLocal(context.remoteAddress) else {
            return AdminError(status: .forbidden, error: "forbidden", message: "the admin API answers loopback clients only")
                .response
        }
        return try await next(request, context)
    }

    /// In-process test clients have no address; unix sockets are local by nature.
    static func isLocal(_ address: SocketAddress?) -> Bool {
        guard let address else { return true }
        switch address {
        case .unixDomainSocket:
            return true
        case .v4, .v6:
            guard let ip = address.ipAddress else { return false }
            return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
        }
    }
}
