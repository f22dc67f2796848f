import JumpRuntime

/// What the credentials call returns (issue 13): the credential an API request should carry now, and how
/// long it lasts. Apps call it before every request, so its common case (a token with time left) must not
/// touch the network.
public struct Credentials: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case capture
        case signInToken = "sign_in_token"
        case apiKey = "api_key"
    }

    public let kind: Kind
    /// The bearer access token; for `.apiKey`, the API key (sent in the apiKeyHeader header). A secret.
    public let accessToken: String
    /// Epoch seconds by the local clock; nil when the server gave no lifetime (and for an API key).
    public let expiresAt: Int64?
    /// Seconds left when the call returned, never negative; nil with expiresAt.
    public let expiresIn: Int64?
    /// The token differs from the one held when the call began: this call, or a refresh it joined, replaced it.
    public let refreshed: Bool

    init(kind: Kind, _ held: HeldToken, now: Int64 = Clock.now()) {
        self.kind = kind
        accessToken = held.token
        expiresAt = held.expiresAt
        expiresIn = held.expiresAt.map { max(0, TokenLifetime.secondsLeft(until: $0, now: now)) }
        refreshed = held.refreshed
    }
}

/// A session's answer to the credentials call, before the client names its kind.
struct HeldToken: Sendable {
    let token: String
    let expiresAt: Int64?
    let refreshed: Bool
}

/// The one freshness rule of the credentials call, shared by every session, so that
/// jump_client_has_valid_credentials says 1 exactly when jump_client_credentials would not refresh.
enum TokenLifetime {
    /// expiresAt - now, saturating (expiry times come from storage and servers; no trap on odd values).
    static func secondsLeft(until expiresAt: Int64, now: Int64) -> Int64 {
        let (left, overflow) = expiresAt.subtractingReportingOverflow(now)
        guard overflow else { return left }
        return expiresAt > now ? Int64.max : Int64.min
    }

    /// Whether a token lasts more than minTTL seconds from now. The clock has whole seconds, so a token with
    /// exactly minTTL left may have a fraction of a second less: it counts as expiring. A token without a
    /// known expiry is fresh (the server said nothing, and a 401 still refreshes it in jump_client_request).
    static func isFresh(_ expiresAt: Int64?, minTTL: Int64, now: Int64 = Clock.now()) -> Bool {
        guard let expiresAt else { return true }
        return secondsLeft(until: expiresAt, now: now) > minTTL
    }
}
