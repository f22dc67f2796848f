import Hummingbird
import Logging
import NIOCore

/// Wires an `Emulator` into a Hummingbird router and application.
extension Emulator {
    /// The full router: Capture and Engage endpoints, flows, the sign-in-token API, web login, the admin API and
    /// its dashboard, behind the request log, the JSON error bodies and the fault/counter layer (outermost first).
    public func makeRouter(logger: Logger? = nil) -> Router<EmulatorRequestContext> {
        let logger = logger ?? Self.makeLogger()
        let router = Router(context: EmulatorRequestContext.self)
        if options.logRequests {
            router.add(middleware: RequestLogMiddleware(logger: logger))
        }
        router.add(middleware: ErrorBodyMiddleware(logger: logger))
        router.add(middleware: TrafficMiddleware(emulator: self))
        CaptureRoutes(emulator: self, logger: logger).register(on: router)
        EngageRoutes(emulator: self, logger: logger).register(on: router)
        FlowRoutes(emulator: self).register(on: router)
        EmailLinkRoutes(emulator: self).register(on: router)
        SignInTokenRoutes(emulator: self, logger: logger).register(on: router)
        WebLoginRoutes(emulator: self).register(on: router)
        AdminRoutes(emulator: self, logger: logger).register(on: router)
        DashboardRoutes(emulator: self, logger: logger).register(on: router)
        return router
    }

    /// The HTTP server. `onReady` gets the bound base URL (the real port when `port` is 0) once it
    /// accepts connections.
    public func makeApplication(
        onReady: @escaping @Sendable (String) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let logger = Self.makeLogger()
        let host = options.host
        return Application(
            router: makeRouter(logger: logger),
            configuration: .init(address: .hostname(host, port: options.port), serverName: "jump-emulator"),
            onServerRunning: { [self] channel in
                let url = Self.baseURL(host: host, port: channel.localAddress?.port ?? 0)
                setBoundURL(url)
                onReady(url)
            },
            logger: logger)
    }

    public static func baseURL(host: String, port: Int) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)"
    }

    /// Logs go to stderr: stdout carries only the base URL, which tests read.
    static func makeLogger() -> Logger {
        var logger = Logger(label: "jump-emulator", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .info
        return logger
    }
}
