import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Sign-in tokens: refresh, rotation, revocation")
struct SignInTokenRefreshTests {
    @Test func aRefreshRotatesBothTokens() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("app-user-1")
            let (status, answer) = try await h.refreshGrant(session.refreshToken)
            #expect(status == .ok)
            #expect(answer["expires_in"] == 3600)
            #expect(answer["token_type"] == "Bearer")
            let access = try #require(answer["access_token"]?.stringValue)
            let refresh = try #require(answer["refresh_token"]?.stringValue)
            #expect(access != session.accessToken)
            #expect(refresh != session.refreshToken)
            #expect(try await h.profile(session.userId, headers: Harness.bearer(access)).0 == .ok)
            // The new refresh token rotates in turn.
            #expect(try await h.refreshGrant(refresh).0 == .ok)
        }
    }

    @Test func reuseOutsideTheGraceWindowRevokesTheFamily() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("app-user-1")
            let (_, first) = try await h.refreshGrant(session.refreshToken)
            let newest = try #require(first["refresh_token"]?.stringValue)
            let newestAccess = try #require(first["access_token"]?.stringValue)
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 31])

            let (status, answer) = try await h.refreshGrant(session.refreshToken)
            #expect(status == .badRequest)
            #expect(answer.errorType == "reauthentication_required")
            #expect(answer["detail"]?["message"] == "refresh token reuse detected")

            // Every token of the family is dead, the newest included.
            let (newestStatus, newestAnswer) = try await h.refreshGrant(newest)
            #expect(newestStatus == .badRequest)
            #expect(newestAnswer.errorType == "reauthentication_required")
            let (profileStatus, profile, response) = try await h.profile(session.userId, headers: Harness.bearer(newestAccess))
            #expect(profileStatus == .unauthorized)
            #expect(profile.errorType == "invalid_token")
            #expect(response.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")

            // Another sign-in starts a new family.
            let again = try await h.exchange(try Harness.userToken(try await h.mintSignInToken(session.userId)))
            #expect(again.0 == .ok)
            let (_, admin) = try await h.admin(.get, "/token_users/\(session.userId)")
            #expect(admin["active_token_families"] == 1)
            #expect(admin["revoked_token_families"] == 1)
        }
    }

    @Test func aRetryInsideTheGraceWindowGetsTheSamePair() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("app-user-1")
            let (_, first) = try await h.refreshGrant(session.refreshToken)
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 10])
            let (status, retry) = try await h.refreshGrant(session.refreshToken)
            #expect(status == .ok)
            #expect(retry["access_token"] == first["access_token"])
            #expect(retry["refresh_token"] == first["refresh_token"])
            // The time left: 3600 s less the 10 s the clock moved, less the real seconds the test took.
            let left = retry["expires_in"]?.intValue ?? 0
            #expect((3580...3590).contains(left))

            // The successor is good, and once it is used, the grace of its predecessor ends.
            let successor = try #require(first["refresh_token"]?.stringValue)
            #expect(try await h.refreshGrant(successor).0 == .ok)
            let (late, lateAnswer) = try await h.refreshGrant(session.refreshToken)
            #expect(late == .badRequest)
            #expect(lateAnswer.errorType == "reauthentication_required")
        }
    }

    @Test func theGraceWindowIsASetting() async throws {
        try await Harness.run { h in
            let (status, settings) = try await h.admin(.post, "/settings", ["refresh_reuse_grace_seconds": 0])
            #expect(status == .ok)
            #expect(settings["refresh_reuse_grace_seconds"] == 0)
            let session = try await h.signedInTokenUser("app-user-1")
            #expect(try await h.refreshGrant(session.refreshToken).0 == .ok)
            #expect(try await h.refreshGrant(session.refreshToken).1.errorType == "reauthentication_required")
        }
    }

    @Test func revokeTokensEndsEveryFamily() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("app-user-1")
            let second = try await h.exchange(try Harness.userToken(try await h.mintSignInToken(session.userId)))
            let secondRefresh = try #require(second.1["refresh_token"]?.stringValue)

            let (revoked, body, _) = try await h.api(
                .post, "/v2/user/\(session.userId)/revoke_tokens", headers: Harness.apiKey())
            #expect(revoked == .ok)
            #expect(body == ["success": true])
            for token in [session.refreshToken, secondRefresh] {
                let (status, answer) = try await h.refreshGrant(token)
                #expect(status == .badRequest)
                #expect(answer.errorType == "reauthentication_required")
            }
            #expect(try await h.profile(session.userId, headers: Harness.bearer(session.accessToken)).0 == .unauthorized)
            // A user's own token cannot revoke.
            let fresh = try await h.exchange(try Harness.userToken(try await h.mintSignInToken(session.userId)))
            let freshAccess = try #require(fresh.1["access_token"]?.stringValue)
            let (ownStatus, _, _) = try await h.api(
                .post, "/v2/user/\(session.userId)/revoke_tokens", headers: Harness.bearer(freshAccess))
            #expect(ownStatus == .forbidden)
        }
    }

    @Test func aDeletedUserIsInvalidTokenOnRefreshAnd401OnTheProfile() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("app-user-1")
            let (deleted, body, _) = try await h.api(.delete, "/v2/user/\(session.userId)", headers: Harness.apiKey())
            #expect(deleted == .ok)
            #expect(body == ["success": true])
            let (status, answer) = try await h.refreshGrant(session.refreshToken)
            #expect(status == .badRequest)
            #expect(answer.errorType == "invalid_token")
            let (profileStatus, profile, _) = try await h.profile(session.userId, headers: Harness.bearer(session.accessToken))
            #expect(profileStatus == .unauthorized)
            #expect(profile.errorType == "invalid_token")
            #expect(try await h.profile(session.userId, headers: Harness.apiKey()).0 == .notFound)
            #expect(try await h.api(.get, "/v2/user/\(session.userId)", headers: Harness.apiKey()).0 == .notFound)
            // The client_user_id is free again.
            #expect(try await h.createTokenUser("app-user-1") != session.userId)
        }
    }

    @Test func unknownRefreshTokensNeedReauthentication() async throws {
        try await Harness.run { h in
            let (status, answer) = try await h.refreshGrant("no-such-token")
            #expect(status == .badRequest)
            #expect(answer.errorType == "reauthentication_required")
            #expect(answer["detail"]?["message"]?.stringValue?.contains("not known") == true)
        }
    }

    @Test func accessTokensExpireOnTheEmulatorClock() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/settings", ["sign_in_access_token_lifetime": 60])
            let session = try await h.signedInTokenUser("app-user-1")
            #expect(try await h.profile(session.userId, headers: Harness.bearer(session.accessToken)).0 == .ok)
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 61])
            let (status, answer, response) = try await h.profile(session.userId, headers: Harness.bearer(session.accessToken))
            #expect(status == .unauthorized)
            #expect(answer["detail"]?["message"]?.stringValue?.contains("expired") == true)
            #expect(response.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")
            // Refresh tokens do not expire.
            let (refreshed, fresh) = try await h.refreshGrant(session.refreshToken)
            #expect(refreshed == .ok)
            #expect(fresh["expires_in"] == 60)
        }
    }

    @Test func revokeEndsAFamilyAndAlwaysAnswersEmpty() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("app-user-1")
            let other = try await h.exchange(try Harness.userToken(try await h.mintSignInToken(session.userId)))
            let otherRefresh = try #require(other.1["refresh_token"]?.stringValue)

            let (status, body) = try await h.post("/v1/revoke", [("token", session.refreshToken)])
            #expect(status == .ok)
            #expect(body == [:])
            #expect(try await h.refreshGrant(session.refreshToken).1.errorType == "reauthentication_required")
            #expect(try await h.profile(session.userId, headers: Harness.bearer(session.accessToken)).0 == .unauthorized)
            // The user's other sign-in is untouched.
            #expect(try await h.refreshGrant(otherRefresh).0 == .ok)

            let (unknown, unknownBody) = try await h.post("/v1/revoke", [("token", "no-such-token")])
            #expect(unknown == .ok)
            #expect(unknownBody == [:])
            let (empty, emptyBody) = try await h.post("/v1/revoke", [])
            #expect(empty == .ok)
            #expect(emptyBody == [:])
        }
    }
}
