import Glibc

/// The emulator switch: the config key `emulatorHost` ("127.0.0.1:9080"), else the environment's
/// JUMP_EMULATOR_HOST, points every endpoint of a client (Capture, the flow, Engage, sign-in tokens) at one
/// jump-emulator over plain http, as FIREBASE_AUTH_EMULATOR_HOST does for Firebase: a production
/// configuration runs against the emulator unchanged. An empty `emulatorHost` ignores the environment.
struct EmulatorHost: Sendable, Equatable {
    static let environmentVariable = "JUMP_EMULATOR_HOST"

    /// "http://host:port": plain http whatever the host (a container's name, say), because the emulator has
    /// no certificate; that is why this switch is a key of its own and not a captureDomain.
    let server: ServerURL
    /// Where it was set: "emulatorHost" or "JUMP_EMULATOR_HOST".
    let source: String

    /// nil when neither the key nor the environment sets it.
    init?(_ config: JumpConfig, environment: (String) -> String? = EmulatorHost.processEnvironment) throws(JumpError) {
        let text: String
        if let configured = config.value(.emulatorHost)?.stringValue {
            guard !configured.isEmpty else { return nil }
            text = configured
            source = ConfigKey.emulatorHost.rawValue
        } else if let fromEnvironment = environment(EmulatorHost.environmentVariable), !fromEnvironment.isEmpty {
            text = fromEnvironment
            source = EmulatorHost.environmentVariable
        } else {
            return nil
        }
        server = try EmulatorHost.server(text, source: source)
    }

    /// "host:port" or "http://host:port" (a trailing "/" allowed); anything else is refused here, not at the
    /// first request.
    private static func server(_ text: String, source: String) throws(JumpError) -> ServerURL {
        var authority = Substring(text.trimmingSpaces())
        if authority.lowercased().hasPrefix("http://") { authority = authority.dropFirst("http://".count) }
        while authority.hasSuffix("/") { authority = authority.dropLast() }
        let host = ServerURL.host(ofAuthority: String(authority))
        // "/" also refuses any other scheme ("https://..."): only http reaches an emulator.
        guard !host.isEmpty, !authority.contains(where: { "/?#@ \t\r\n".contains($0) }) else {
            throw .invalidArgument("\(source) ('\(text)') must be host:port of a jump-emulator, e.g. 127.0.0.1:9080",
                                   argument: ConfigKey.emulatorHost.rawValue)
        }
        return ServerURL(trusted: "http://" + authority)
    }

    static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The one line a client logs when it is made: which switch sent it where, so that a production build
    /// that kept the variable set is noticed.
    var warning: String {
        "every endpoint of this client goes to the emulator at \(server.base) (\(source)), over plain http"
    }
}
