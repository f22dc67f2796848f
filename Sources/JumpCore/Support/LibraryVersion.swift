/// libjump's version (JUMP_VERSION_* in jump.h; a test checks they agree) and the User-Agent it sends.
public enum LibraryVersion {
    public static let major: UInt32 = 0
    public static let minor: UInt32 = 1
    public static let patch: UInt32 = 0
    public static let abi: Int32 = 1

    public static var text: String { "\(major).\(minor).\(patch)" }

    /// "libjump/0.1.0 (linux; x86_64)": CDNs and firewalls in front of identity services refuse requests
    /// without a User-Agent, and the reference SDKs send one too.
    public static var userAgent: String { "libjump/\(text) (\(operatingSystem); \(architecture))" }

    private static var operatingSystem: String {
        #if os(Linux)
        return "linux"
        #elseif os(macOS)
        return "macos"
        #else
        return "unknown"
        #endif
    }

    private static var architecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "aarch64"
        #else
        return "unknown"
        #endif
    }
}
