import CCurl
import Glibc
import JumpRuntime

/// The trusted roots as one PEM blob (CURLOPT_CAINFO_BLOB). libcurl's CURLOPT_CAINFO replaces the system's
/// bundle instead of adding to it, and CURLOPT_CAPATH works only where the system keeps a hashed directory
/// (Debian does, Fedora's bundle-only layout does not); one blob of the system bundle followed by caFile works
/// with every layout. The system bundle is read once per process and shared (arrays are copy-on-write).
enum CABundle {
    private static let systemBundle = Lock<[UInt8]??>(nil)

    /// Where distributions keep the bundle, when libcurl does not say (libcurl before 7.84).
    private static let knownBundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
                                       "/etc/ssl/ca-bundle.pem", "/etc/ssl/cert.pem"]

    static func withSystemRoots(adding path: String) throws(JumpError) -> [UInt8] {
        guard let extra = SmallFile.read(path, limit: 16 << 20) else {
            throw .invalidArgument("caFile '\(path)' cannot be read", argument: "caFile")
        }
        guard String(decoding: extra, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw .invalidArgument("caFile '\(path)' holds no PEM certificate (-----BEGIN CERTIFICATE-----)", argument: "caFile")
        }
        var bundle = system() ?? []
        if let last = bundle.last, last != UInt8(ascii: "\n") { bundle.append(UInt8(ascii: "\n")) }
        bundle.append(contentsOf: extra)
        return bundle
    }

    private static func system() -> [UInt8]? {
        systemBundle.withLock { cached in
            if let cached { return cached }
            _ = curlGlobalInit
            var paths = knownBundles
            if let path = jumpi_curl_default_ca_file() {
                paths.insert(String(cString: path), at: 0)
                free(path)
            }
            let found = paths.lazy.compactMap { SmallFile.read($0, limit: 64 << 20) }.first
            if found == nil { Log.warning("caFile: no system CA bundle found; only caFile's certificates are trusted") }
            cached = .some(found)
            return found
        }
    }
}
