/// The environment and region a sign-in token belongs to, read from its issuer
/// "id-signer-{env}-{region}@vital-id-{env}-{region}.iam.gserviceaccount.com" (docs/protocol.md §12.1), and the
/// hosts that go with them (§12.2). Every name the reference SDKs accept is accepted, on every platform.
public struct TokenEnvironment: Sendable, Equatable {
    /// "production", "sandbox", "dev" or "local".
    public let name: String
    /// "us" or "eu".
    public let region: String

    public init(name: String, region: String) throws(JumpError) {
        guard let canonical = TokenEnvironment.canonicalName(name) else {
            throw JumpError(.invalidArgument, "unknown environment '\(name)' (production, sandbox, dev or local)",
                            detail: ["argument": "environment"])
        }
        let lower = region.lowercased()
        guard lower == "us" || lower == "eu" else {
            throw JumpError(.invalidArgument, "unknown region '\(region)' (us or eu)", detail: ["argument": "region"])
        }
        self.name = canonical
        self.region = lower
    }

    init(issuer: String) throws(JumpError) {
        let prefix = "id-signer-"
        guard issuer.hasPrefix(prefix), let at = issuer.firstIndex(of: "@") else {
            throw SignInToken.malformed("the sign-in token's issuer '\(issuer)' is not a Junction id signer")
        }
        let parts = issuer[issuer.index(issuer.startIndex, offsetBy: prefix.count)..<at].split(separator: "-")
        guard parts.count == 2 else {
            throw SignInToken.malformed("the sign-in token's issuer '\(issuer)' names no environment and region")
        }
        do { try self.init(name: String(parts[0]), region: String(parts[1])) } catch {
            throw SignInToken.malformed("the sign-in token's issuer '\(issuer)': \(error.message)")
        }
    }

    static func canonicalName(_ name: String) -> String? {
        switch name.lowercased() {
        case "production", "prd", "prod": return "production"
        case "sandbox", "stg", "staging": return "sandbox"
        case "dev", "development": return "dev"
        case "local": return "local"
        default: return nil
        }
    }

    /// The API host (§12.2).
    public var apiBase: String {
        switch name {
        case "production": return "https://api.\(region).junction.com"
        case "sandbox": return "https://api.sandbox.\(region).junction.com"
        case "dev": return "https://api.dev.\(region).junction.com"
        default: return "http://localhost:8000"
        }
    }

    /// The token endpoint's host (§12.2).
    public var authBase: String {
        switch name {
        case "production": return "https://auth.\(region).junction.com"
        case "sandbox": return "https://auth.sandbox.\(region).junction.com"
        case "dev": return "https://auth.dev.\(region).junction.com"
        default: return "http://localhost:8000/auth"
        }
    }
}
