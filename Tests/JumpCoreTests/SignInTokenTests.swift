import FoundationEssentials
import Testing
@testable import JumpCore

/// Sign-in token decoding (docs/protocol.md §12.1) and the saved credential, offline.
@Suite struct SignInTokenTests {
    static func segment(_ json: JSON, urlSafe: Bool = true) -> String {
        let text = Data(Jansson.serialize(json).utf8).base64EncodedString()
        guard urlSafe else { return text }
        return String(text.map { $0 == "+" ? "-" : ($0 == "/" ? "_" : $0) }).replacingOccurrences(of: "=", with: "")
    }

    static func token(issuer: String = "id-signer-dev-us@vital-id-dev-us.iam.gserviceaccount.com",
                      alg: String = "RS256", uid: String = "3F2504E0-4F89-11D3-9A0C-0305E82C3301") -> String {
        let jwt = segment(["alg": .string(alg), "typ": "JWT"]) + "." +
            segment(["iss": .string(issuer), "uid": .string(uid), "claims": ["vital_team_id": "team-1"], "exp": 1_900_000_000,
                     "tenant_id": "t-1"]) + ".c2ln"
        return segment(["public_key": "pk", "user_token": .string(jwt)], urlSafe: false)
    }

    @Test func decodesUserTeamEnvironmentRegion() throws {
        let token = try SignInToken(Self.token())
        #expect(token.userID == "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        #expect(token.teamID == "team-1")
        #expect(token.environment.name == "dev" && token.environment.region == "us")
        #expect(token.expiresAt == 1_900_000_000)
        #expect(token.jwt.split(separator: ".").count == 3)
    }

    @Test(arguments: [("prd", "eu", "production"), ("stg", "us", "sandbox"), ("production", "us", "production"),
                      ("local", "us", "local"), ("dev", "eu", "dev")])
    func everyEnvironmentNameOnEveryPlatform(_ env: String, _ region: String, _ expected: String) throws {
        let token = try SignInToken(Self.token(issuer: "id-signer-\(env)-\(region)@vital-id-\(env)-\(region).iam.gserviceaccount.com"))
        #expect(token.environment.name == expected)
        #expect(token.environment.region == region)
    }

    @Test func refusesWhatIsMalformed() {
        for raw in ["", "!!!", Self.segment(["user_token": "a.b"], urlSafe: false), Self.token(alg: "HS256"),
                    Self.token(issuer: "someone@example.com"), Self.token(issuer: "id-signer-mars-us@x")] {
            let error = #expect(throws: JumpError.self) { try SignInToken(raw) }
            #expect(error?.status == .invalidArgument)
        }
    }

    @Test func hostsFollowTheEnvironment() throws {
        #expect(try TokenEnvironment(name: "sandbox", region: "eu").authBase == "https://auth.sandbox.eu.junction.com")
        #expect(try TokenEnvironment(name: "prd", region: "US").apiBase == "https://api.us.junction.com")
    }

    @Test func credentialAndGistRoundTripWithoutSecretsInTheGist() throws {
        let session = TokenGrant(userID: "u", teamID: "t", environment: try TokenEnvironment(name: "dev", region: "us"),
                                   accessToken: "secret-access", refreshToken: "secret-refresh", expiresAt: 5,
                                   pendingReauthentication: true)
        let state = TokenState(credential: .token(session), externalUserID: "app-1")
        #expect(try TokenStateCodec.decode(TokenStateCodec.encode(state)) == state)
        let gist = String(decoding: TokenStateCodec.gist(state), as: UTF8.self)
        #expect(!gist.contains("secret"))
        let status = try #require(TokenStateCodec.decodeGist(TokenStateCodec.gist(state)))
        #expect(status.userID == "u" && status.pendingReauthentication && status.externalUserID == "app-1")
    }

    @Test func requestURLsStayOnTheCredentialsServer() throws {
        #expect(try JumpClient.resolve("/v2/user", on: "http://127.0.0.1:9/base") == "http://127.0.0.1:9/base/v2/user")
        #expect(try JumpClient.resolve("http://127.0.0.1:9/v2", on: "http://127.0.0.1:9") == "http://127.0.0.1:9/v2")
        for url in ["http://127.0.0.1:99/v2", "http://127.0.0.1:9.evil.com/", "//evil.com/x", "https://127.0.0.1:9/"] {
            #expect(throws: JumpError.self) { try JumpClient.resolve(url, on: "http://127.0.0.1:9") }
        }
    }
}
