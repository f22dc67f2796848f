import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Sign-in tokens: exchange")
struct SignInTokenExchangeTests {
    @Test func mintExchangeAndReadTheProfile() async throws {
        try await Harness.run { h in
            let userId = try await h.createTokenUser("app-user-1")
            let jwt = try Harness.userToken(try await h.mintSignInToken(userId))
            let (status, answer) = try await h.exchange(jwt)
            #expect(status == .ok)
            #expect(answer["expires_in"] == 3600)
            #expect(answer["token_type"] == "Bearer")
            let access = try #require(answer["access_token"]?.stringValue)
            let refresh = try #require(answer["refresh_token"]?.stringValue)
            #expect(access != refresh)

            let (profileStatus, profile, _) = try await h.profile(userId, headers: Harness.bearer(access))
            #expect(profileStatus == .ok)
            #expect(profile == ["user_id": .string(userId), "data": [:]])

            let (userStatus, user, _) = try await h.api(.get, "/v2/user/\(userId)", headers: Harness.bearer(access))
            #expect(userStatus == .ok)
            #expect(user == ["user_id": .string(userId), "client_user_id": "app-user-1",
                             "team_id": .string(Harness.defaultTeamId)])
        }
    }

    @Test func anExpiredSignInTokenIsRefused() async throws {
        try await Harness.run { h in
            let userId = try await h.createTokenUser("app-user-1")
            let jwt = try Harness.userToken(try await h.mintSignInToken(userId))
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 301])
            let (status, answer) = try await h.exchange(jwt)
            #expect(status == .badRequest)
            #expect(answer.errorType == "invalid_token")
            #expect(answer["detail"]?["message"]?.stringValue?.contains("expired") == true)
        }
    }

    @Test func aSignInTokenIsGoodOnce() async throws {
        try await Harness.run { h in
            let userId = try await h.createTokenUser("app-user-1")
            let jwt = try Harness.userToken(try await h.mintSignInToken(userId))
            #expect(try await h.exchange(jwt).0 == .ok)
            let (status, answer) = try await h.exchange(jwt)
            #expect(status == .badRequest)
            #expect(answer.errorType == "invalid_token")
            #expect(answer["detail"]?["message"]?.stringValue?.contains("already used") == true)
            // A new one for the same user works.
            #expect(try await h.exchange(try Harness.userToken(try await h.mintSignInToken(userId))).0 == .ok)
        }
    }

    @Test func badSignaturesAndForgedClaimsAreRefused() async throws {
        try await Harness.run { h in
            let userId = try await h.createTokenUser("app-user-1")
            let otherId = try await h.createTokenUser("app-user-2")
            let jwt = try Harness.userToken(try await h.mintSignInToken(userId))
            let segments = jwt.split(separator: ".").map(String.init)

            // Another user's uid under the original signature.
            var payload = try #require(try Harness.segmentJSON(segments[1]).objectValue)
            payload["uid"] = .string(otherId)
            let forged = [segments[0], Base64URL.encode(JSONValue.object(payload).serializedBytes()), segments[2]]
                .joined(separator: ".")
            let (forgedStatus, forgedAnswer) = try await h.exchange(forged)
            #expect(forgedStatus == .badRequest)
            #expect(forgedAnswer.errorType == "invalid_token")
            #expect(forgedAnswer["detail"]?["message"]?.stringValue?.contains("signature") == true)

            // A broken signature.
            let tampered = segments[0] + "." + segments[1] + "." + Base64URL.encode(Data(repeating: 7, count: 256))
            #expect(try await h.exchange(tampered).1.errorType == "invalid_token")

            // Not a JWT; and the envelope instead of the JWT inside it.
            #expect(try await h.exchange("not-a-jwt").1.errorType == "invalid_token")
            let envelope = try await h.mintSignInToken(userId)
            let (envelopeStatus, envelopeAnswer) = try await h.exchange(envelope)
            #expect(envelopeStatus == .badRequest)
            #expect(envelopeAnswer["detail"]?["message"]?.stringValue?.contains("envelope") == true)

            // The original still works: the failures used nothing up.
            #expect(try await h.exchange(jwt).0 == .ok)
        }
    }

    @Test func deletedAndUnknownUsersCannotExchange() async throws {
        try await Harness.run { h in
            let userId = try await h.createTokenUser("app-user-1")
            let jwt = try Harness.userToken(try await h.mintSignInToken(userId))
            let (deleted, _, _) = try await h.api(.delete, "/v2/user/\(userId)", headers: Harness.apiKey())
            #expect(deleted == .ok)
            let (status, answer) = try await h.exchange(jwt)
            #expect(status == .badRequest)
            #expect(answer.errorType == "invalid_token")
            #expect(answer["detail"]?["message"]?.stringValue?.contains("deleted") == true)

            // After a reset the user is unknown.
            let other = try await h.createTokenUser("app-user-2")
            let otherJWT = try Harness.userToken(try await h.mintSignInToken(other))
            _ = try await h.admin(.post, "/reset")
            let (unknownStatus, unknown) = try await h.exchange(otherJWT)
            #expect(unknownStatus == .badRequest)
            #expect(unknown.errorType == "invalid_token")
            #expect(unknown["detail"]?["message"]?.stringValue?.contains("does not exist") == true)
        }
    }

    @Test func malformedRequestsAreInvalidRequest() async throws {
        try await Harness.run { h in
            let cases: [[(String, String)]] = [
                [],
                [("grant_type", "password")],
                [("grant_type", Harness.tokenExchangeGrant), ("subject_token", "x")],
                [("grant_type", Harness.tokenExchangeGrant), ("subject_token_type", "urn:other"), ("subject_token", "x")],
                [("grant_type", Harness.tokenExchangeGrant), ("subject_token_type", Harness.signInTokenType)],
                [("grant_type", "refresh_token")],
            ]
            for params in cases {
                let (status, answer) = try await h.post("/v1/token", params)
                #expect(status == .badRequest)
                #expect(answer.errorType == "invalid_request", "\(params): \(answer.serialized())")
                #expect(answer["detail"]?["message"]?.stringValue?.isEmpty == false)
            }
        }
    }
}
