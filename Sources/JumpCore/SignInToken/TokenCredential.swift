/// A session obtained by exchanging a sign-in token (docs/protocol.md §12.3).
public struct TokenGrant: Sendable, Equatable {
    public var userID: String
    public var teamID: String?
    public var environment: TokenEnvironment
    var accessToken: String
    var refreshToken: String
    /// Epoch seconds by the local clock, when the server gave expires_in.
    public var expiresAt: Int64?
    /// The server refused the refresh token: a new sign-in token for the same user is needed. The access
    /// token is still used until it expires.
    public var pendingReauthentication: Bool
}

/// API-key mode: the team key and (optionally) the user it acts for.
public struct APIKeySession: Sendable, Equatable {
    var apiKey: String
    public var userID: String?
    public var environment: TokenEnvironment
}

/// What the client authenticates API requests with, besides a Capture session.
public enum TokenCredential: Sendable, Equatable {
    case token(TokenGrant)
    case apiKey(APIKeySession)

    public var userID: String? {
        switch self {
        case .token(let t): return t.userID
        case .apiKey(let k): return k.userID
        }
    }

    public var environment: TokenEnvironment {
        switch self {
        case .token(let t): return t.environment
        case .apiKey(let k): return k.environment
        }
    }
}

/// The credential plus the app's own user id for it (identify_external_user). Saved as two entries: the
/// secret one, and a secret-free gist that status can read when the secret store cannot be read.
public struct TokenState: Sendable, Equatable {
    public var credential: TokenCredential?
    public var externalUserID: String?

    public init(credential: TokenCredential? = nil, externalUserID: String? = nil) {
        self.credential = credential
        self.externalUserID = externalUserID
    }

    /// User ids are UUIDs, written in either case by different platforms (docs/protocol.md §12.3).
    static func sameUser(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return false }
        return a.lowercased() == b.lowercased()
    }
}

/// The status flags of docs/protocol.md §12.8 (pending_reauthentication included, unlike iOS: §12.10 item 4).
public struct TokenStatus: Sendable, Equatable {
    public var configured = false
    public var signedIn = false
    public var useAPIKey = false
    public var useSignInToken = false
    public var pendingReauthentication = false
    public var userID: String?
    public var teamID: String?
    public var environment: String?
    public var region: String?
    public var externalUserID: String?

    init(_ state: TokenState) {
        externalUserID = state.externalUserID
        guard let credential = state.credential else { return }
        configured = true
        environment = credential.environment.name
        region = credential.environment.region
        userID = credential.userID
        signedIn = credential.userID != nil
        switch credential {
        case .token(let t):
            useSignInToken = true
            pendingReauthentication = t.pendingReauthentication
            teamID = t.teamID
        case .apiKey:
            useAPIKey = true
        }
    }

    init(gist: JSON) {
        configured = gist["configured"]?.boolValue ?? false
        signedIn = gist["signed_in"]?.boolValue ?? false
        useAPIKey = gist["use_api_key"]?.boolValue ?? false
        useSignInToken = gist["use_sign_in_token"]?.boolValue ?? false
        pendingReauthentication = gist["pending_reauthentication"]?.boolValue ?? false
        userID = gist["user_id"]?.stringValue
        teamID = gist["team_id"]?.stringValue
        environment = gist["environment"]?.stringValue
        region = gist["region"]?.stringValue
        externalUserID = gist["external_user_id"]?.stringValue
    }

    public var json: JSON {
        ["configured": .bool(configured), "signed_in": .bool(signedIn), "use_api_key": .bool(useAPIKey),
         "use_sign_in_token": .bool(useSignInToken), "pending_reauthentication": .bool(pendingReauthentication),
         "user_id": .optional(userID), "team_id": .optional(teamID), "environment": .optional(environment),
         "region": .optional(region), "external_user_id": .optional(externalUserID)]
    }
}

/// The saved forms: the credential entry (secrets) and the gist (none).
enum TokenStateCodec {
    static let format = "libjump-credential"
    static let gistFormat = "libjump-gist"

    static func encode(_ state: TokenState) -> [UInt8] {
        var document: [String: JSON] = ["format": .string(format), "version": 1,
                                        "external_user_id": .optional(state.externalUserID)]
        switch state.credential {
        case .token(let t)?:
            document["mode"] = "sign_in_token"
            document["user_id"] = .string(t.userID)
            document["team_id"] = .optional(t.teamID)
            document["environment"] = .string(t.environment.name)
            document["region"] = .string(t.environment.region)
            document["access_token"] = .string(t.accessToken)
            document["refresh_token"] = .string(t.refreshToken)
            document["expires_at"] = t.expiresAt.map(JSON.int) ?? .null
            document["pending_reauthentication"] = .bool(t.pendingReauthentication)
        case .apiKey(let k)?:
            document["mode"] = "api_key"
            document["api_key"] = .string(k.apiKey)
            document["user_id"] = .optional(k.userID)
            document["environment"] = .string(k.environment.name)
            document["region"] = .string(k.environment.region)
        case nil:
            document["mode"] = .null
        }
        return Jansson.serializedBytes(.object(document))
    }

    static func decode(_ bytes: [UInt8]) throws(JumpError) -> TokenState {
        let document: JSON
        do { document = try Jansson.parse(bytes, what: "the saved credential") } catch {
            // Position only: jansson's text quotes the bytes near the error, which may be part of a secret.
            throw JumpError(.storage, "the saved credential is unreadable (not valid JSON at line \(error.detail["line"]?.intValue ?? 0), "
                            + "column \(error.detail["column"]?.intValue ?? 0))")
        }
        guard document["format"]?.stringValue == format, document["version"]?.intValue == 1 else {
            throw JumpError(.storage, "the saved credential is not a libjump credential of version 1")
        }
        var state = TokenState(externalUserID: document["external_user_id"]?.stringValue)
        let mode = document["mode"]?.stringValue
        if mode == nil { return state }
        let environment: TokenEnvironment
        do {
            environment = try TokenEnvironment(name: document["environment"]?.stringValue ?? "",
                                               region: document["region"]?.stringValue ?? "")
        } catch {
            throw JumpError(.storage, "the saved credential has no valid environment: \(error.message)")
        }
        switch mode {
        case "sign_in_token":
            guard let user = document["user_id"]?.stringValue, let access = document["access_token"]?.stringValue,
                  let refresh = document["refresh_token"]?.stringValue else {
                throw JumpError(.storage, "the saved sign-in-token session is incomplete")
            }
            state.credential = .token(TokenGrant(
                userID: user, teamID: document["team_id"]?.stringValue, environment: environment, accessToken: access,
                refreshToken: refresh, expiresAt: document["expires_at"]?.intValue.map { min(max($0, 0), Int64(Int32.max) * 4) },
                pendingReauthentication: document["pending_reauthentication"]?.boolValue ?? false))
        case "api_key":
            guard let key = document["api_key"]?.stringValue else {
                throw JumpError(.storage, "the saved API-key credential has no key")
            }
            state.credential = .apiKey(APIKeySession(apiKey: key, userID: document["user_id"]?.stringValue,
                                                     environment: environment))
        default:
            throw JumpError(.storage, "the saved credential has the unknown mode '\(mode ?? "")'")
        }
        return state
    }

    static func gist(_ state: TokenState) -> [UInt8] {
        var members = TokenStatus(state).json.objectValue ?? [:]
        members["format"] = .string(gistFormat)
        return Jansson.serializedBytes(.object(members))
    }

    static func decodeGist(_ bytes: [UInt8]) -> TokenStatus? {
        guard let document = try? Jansson.parse(bytes, what: "the credential gist"),
              document["format"]?.stringValue == gistFormat else { return nil }
        return TokenStatus(gist: document)
    }
}
