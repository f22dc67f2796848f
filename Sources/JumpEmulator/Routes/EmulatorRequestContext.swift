import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the peer address, which the admin
/// API checks (it answers loopback clients only), and the connection (the `reset` fault closes it).
public struct EmulatorRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.channel = source.channel
    }

    /// Request bodies are forms or JSON documents; records with 100 000 plural elements (the SDK's
    /// benchmark) are several MiB, so the bound is generous but still refuses runaway bodies.
    public var maxUploadSize: Int { Self.maximumBodySize }

    public static let maximumBodySize = 64 << 20
}
