import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the peer address, which the admin
/// API checks (it answers loopback clients only).
public struct EmulatorRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Request bodies are small forms or JSON documents.
    public var maxUploadSize: Int { 1 << 20 }
}
