import Foundation
import Hummingbird
import Testing
import _CryptoExtras

@testable import JumpEmulator

@Suite("Sign-in tokens: minting")
struct SignInTokenMintTests {
    @Test func theEnvelopeHoldsAnRS256JWTInTheSDKsShape() async throws {
        try await Harness.run { h in
            let userId = try await h.createTokenUser("app-user-1")
            #expect(userId == userId.lowercased())
            #expect(UUID(uuidString: userId) != nil)
            let signInToken = try await h.mintSignInToken(userId)

            // Standard base64 with padding, of {"public_key","user_token"}.
            #expect(signInToken.count % 4 == 0)
            let envelope = try Harness.envelope(signInToken)
            #expect(Set(envelope.keys) == ["public_key", "user_token"])
            #expect(envelope["public_key"]?.stringValue?.isEmpty == false)
            let jwt = try #require(envelope["user_token"]?.stringValue)

            // Three base64url segments without padding.
            let segments = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            #expect(segments.count == 3)
            let forbidden = CharacterSet(charactersIn: "+/=")
            for segment in segments {
                #expect(segment.rangeOfCharacter(from: forbidden) == nil)
            }
            let header = try Harness.segmentJSON(segments[0])
            #expect(header["alg"] == "RS256")
            #expect(header["typ"] == "JWT")
            let kid = try #require(header["kid"]?.stringValue)

            let payload = try Harness.segmentJSON(segments[1])
            let signer = "id-signer-dev-us@vital-id-dev-us.iam.gserviceaccount.com"
            #expect(payload["iss"] == .string(signer))
            #expect(payload["sub"] == .string(signer))
            #expect(payload["aud"] == "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit")
            #expect(payload["uid"] == .string(userId))
            #expect(payload["tenant_id"]?.stringValue?.hasPrefix("t-") == true)
            #expect(payload["claims"] == ["vital_team_id": .string(Harness.defaultTeamId)])
            let iat = try #require(payload["iat"]?.intValue)
            let exp = try #require(payload["exp"]?.intValue)
            #expect(exp - iat == 300)
            #expect(abs(Double(iat) - h.emulator.clock.now().timeIntervalSince1970) < 5)
            #expect(payload["jti"]?.stringValue?.isEmpty == false)

            // The signature verifies with the key served at /v1/jwks.
            let (status, jwks, _) = try await h.api(.get, "/v1/jwks")
            #expect(status == .ok)
            let key = try #require(jwks["keys"]?[0])
            #expect(key["kty"] == "RSA")
            #expect(key["alg"] == "RS256")
            #expect(key["kid"] == .string(kid))
            let n = try #require(key["n"]?.stringValue.flatMap(Base64URL.decode))
            let e = try #require(key["e"]?.stringValue.flatMap(Base64URL.decode))
            let publicKey = try _RSA.Signing.PublicKey(n: n, e: e)
            let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Base64URL.decode(segments[2])))
            let input = Data("\(segments[0]).\(segments[1])".utf8)
            #expect(publicKey.isValidSignature(signature, for: input, padding: .insecurePKCS1v1_5))
            #expect(!publicKey.isValidSignature(signature, for: Data("tampered".utf8), padding: .insecurePKCS1v1_5))
        }
    }

    @Test func eachTokenHasItsOwnJTIAndTheClockSetsIatAndExp() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/settings", ["sign_in_token_lifetime": 900])
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 86_400])
            let userId = try await h.createTokenUser("app-user-1")
            let first = try Harness.userToken(try await h.mintSignInToken(userId))
            let second = try Harness.userToken(try await h.mintSignInToken(userId))
            let firstPayload = try Self.payload(first)
            let secondPayload = try Self.payload(second)
            #expect(firstPayload["jti"] != secondPayload["jti"])
            let iat = try #require(firstPayload["iat"]?.intValue)
            #expect(abs(Double(iat) - (Date().timeIntervalSince1970 + 86_400)) < 5)
            #expect(firstPayload["exp"]?.intValue == iat + 900)
        }
    }

    @Test func aTeamsEnvironmentAndRegionAreInTheIssuer() async throws {
        try await Harness.run { h in
            let (status, team) = try await h.admin(.post, "/teams", ["environment": "production", "region": "eu"])
            #expect(status == .created)
            #expect(team["environment"] == "production")
            #expect(team["region"] == "eu")
            let key = try #require(team["api_key"]?.stringValue)
            let teamId = try #require(team["team_id"]?.stringValue)
            let userId = try await h.createTokenUser("eu-user", key: key)
            let payload = try Self.payload(try Harness.userToken(try await h.mintSignInToken(userId, key: key)))
            #expect(payload["iss"] == "id-signer-prd-eu@vital-id-prd-eu.iam.gserviceaccount.com")
            #expect(payload["claims"]?["vital_team_id"] == .string(teamId))

            let (_, sandbox) = try await h.admin(.post, "/teams", ["environment": "sandbox"])
            let sandboxKey = try #require(sandbox["api_key"]?.stringValue)
            let sandboxUser = try await h.createTokenUser("stg-user", key: sandboxKey)
            let sandboxPayload = try Self.payload(
                try Harness.userToken(try await h.mintSignInToken(sandboxUser, key: sandboxKey)))
            #expect(sandboxPayload["iss"] == "id-signer-stg-us@vital-id-stg-us.iam.gserviceaccount.com")

            // The token of a prd/eu user exchanges like any other.
            let (exchanged, _) = try await h.exchange(
                try Harness.userToken(try await h.mintSignInToken(userId, key: key)))
            #expect(exchanged == .ok)
        }
    }

    @Test func mintingNeedsTheKeyOfTheUsersTeam() async throws {
        try await Harness.run { h in
            let userId = try await h.createTokenUser("app-user-1")
            let (unknown, unknownBody, _) = try await h.api(
                .post, "/v2/user/\(userId)/sign_in_token", headers: Harness.apiKey("not-a-key"))
            #expect(unknown == .unauthorized)
            #expect(unknownBody.errorType == "invalid_api_key")

            let (_, other) = try await h.admin(.post, "/teams", [:])
            let otherKey = try #require(other["api_key"]?.stringValue)
            let (forbidden, forbiddenBody, _) = try await h.api(
                .post, "/v2/user/\(userId)/sign_in_token", headers: Harness.apiKey(otherKey))
            #expect(forbidden == .forbidden)
            #expect(forbiddenBody.errorType == "forbidden")

            let (none, _, noneResponse) = try await h.api(.post, "/v2/user/\(userId)/sign_in_token")
            #expect(none == .unauthorized)
            #expect(noneResponse.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")

            let (missing, missingBody, _) = try await h.api(
                .post, "/v2/user/\(UUID().uuidString.lowercased())/sign_in_token", headers: Harness.apiKey())
            #expect(missing == .notFound)
            #expect(missingBody.errorType == "not_found")

            // The Vital header name works too; upper-case ids are the same user.
            let (vital, vitalBody, _) = try await h.api(
                .post, "/v2/user/\(userId.uppercased())/sign_in_token", headers: Harness.header("x-vital-api-key", Harness.teamKey))
            #expect(vital == .ok)
            #expect(vitalBody["user_id"] == .string(userId))
        }
    }

    static func payload(_ jwt: String) throws -> JSONValue {
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        return try Harness.segmentJSON(segments[1])
    }
}
