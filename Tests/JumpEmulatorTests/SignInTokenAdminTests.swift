import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Sign-in tokens: admin API")
struct SignInTokenAdminTests {
    @Test func theDefaultTeamExistsAndTeamsCanBeAdded() async throws {
        try await Harness.run { h in
            let (status, list) = try await h.admin(.get, "/teams")
            #expect(status == .ok)
            #expect(list["teams"] == [[
                "team_id": .string(Harness.defaultTeamId), "api_key": "jump-team-key", "environment": "dev",
                "region": "us", "default": true,
            ]])
            let (created, team) = try await h.admin(.post, "/teams", ["environment": "sandbox", "region": "eu"])
            #expect(created == .created)
            #expect(team["default"] == false)
            #expect(team["team_id"]?.stringValue.flatMap { UUID(uuidString: $0) } != nil)
            #expect(team["api_key"]?.stringValue?.isEmpty == false)
            #expect(try await h.admin(.get, "/teams").1["teams"]?.arrayValue?.count == 2)

            #expect(try await h.admin(.post, "/teams", ["environment": "staging"]).0 == .badRequest)
            #expect(try await h.admin(.post, "/teams", ["region": "ap"]).0 == .badRequest)
            let (chosen, chosenTeam) = try await h.admin(.post, "/teams", ["api_key": "my-key"])
            #expect(chosen == .created)
            #expect(chosenTeam["api_key"] == "my-key")
            #expect(try await h.admin(.post, "/teams", ["api_key": "my-key"]).0 == .conflict)
        }
    }

    @Test func tokenUsersCanBeMadeInspectedRevokedAndDeleted() async throws {
        try await Harness.run { h in
            let (status, user) = try await h.admin(.post, "/token_users", ["client_user_id": "fixture"])
            #expect(status == .created)
            let userId = try #require(user["user_id"]?.stringValue)
            #expect(user["team_id"] == .string(Harness.defaultTeamId))
            #expect(user["active_token_families"] == 0)
            #expect(try await h.admin(.post, "/token_users", ["client_user_id": "fixture"]).0 == .conflict)
            #expect(try await h.admin(.post, "/token_users", ["team_id": .string(UUID().uuidString)]).0 == .notFound)
            let (generated, generatedUser) = try await h.admin(.post, "/token_users", [:])
            #expect(generated == .created)
            #expect(generatedUser["client_user_id"]?.stringValue?.isEmpty == false)

            // An admin-minted token exchanges like the API's.
            let (minted, token) = try await h.admin(.post, "/token_users/\(userId)/sign_in_token", ["lifetime_seconds": 60])
            #expect(minted == .ok)
            let jwt = try #require(token["user_token"]?.stringValue)
            #expect(try Harness.userToken(try #require(token["sign_in_token"]?.stringValue)) == jwt)
            let (_, exchanged) = try await h.exchange(jwt)
            let refresh = try #require(exchanged["refresh_token"]?.stringValue)

            let (_, shown) = try await h.admin(.get, "/token_users/\(userId)")
            #expect(shown["active_token_families"] == 1)
            #expect(shown["active_refresh_tokens"] == 1)
            #expect(shown["active_access_tokens"] == 1)
            #expect(shown["deleted"] == false)

            let (_, revoked) = try await h.admin(.post, "/token_users/\(userId)/revoke")
            #expect(revoked["revoked_token_families"] == 1)
            #expect(try await h.refreshGrant(refresh).1.errorType == "reauthentication_required")

            #expect(try await h.admin(.delete, "/token_users/\(userId)").1 == ["deleted": 1])
            #expect(try await h.admin(.get, "/token_users/\(userId)").1["deleted"] == true)
            #expect(try await h.admin(.delete, "/token_users/\(userId)").0 == .notFound)
            #expect(try await h.admin(.get, "/token_users").1["token_users"]?.arrayValue?.count == 2)
            #expect(try await h.admin(.get, "/token_users/\(UUID().uuidString)").0 == .notFound)
        }
    }

    @Test func settingsHoldTheTokenLifetimesAndGrace() async throws {
        try await Harness.run { h in
            let defaults: JSONValue = [
                "access_token_lifetime": 3600, "sign_in_token_lifetime": 300, "sign_in_access_token_lifetime": 3600,
                "refresh_reuse_grace_seconds": 30, "capture_refresh_grace_seconds": 30, "engage_token_lifetime": 600,
            ]
            #expect(try await h.admin(.get, "/settings").1 == defaults)
            let (status, updated) = try await h.admin(.post, "/settings", [
                "sign_in_token_lifetime": 3600, "sign_in_access_token_lifetime": 120, "refresh_reuse_grace_seconds": 5,
            ])
            #expect(status == .ok)
            #expect(updated["sign_in_token_lifetime"] == 3600)
            #expect(updated["sign_in_access_token_lifetime"] == 120)
            #expect(updated["refresh_reuse_grace_seconds"] == 5)
            #expect(updated["access_token_lifetime"] == 3600)

            for bad: JSONValue in [
                ["sign_in_token_lifetime": 3601], ["sign_in_token_lifetime": 0], ["sign_in_access_token_lifetime": 0],
                ["refresh_reuse_grace_seconds": -1], ["refresh_reuse_grace_seconds": "x"],
            ] {
                #expect(try await h.admin(.post, "/settings", bad).0 == .badRequest)
            }
            // A refused update changes nothing.
            #expect(try await h.admin(.post, "/settings", ["access_token_lifetime": 5, "sign_in_token_lifetime": 0]).0
                == .badRequest)
            #expect(try await h.admin(.get, "/settings").1 == updated)

            let session = try await h.signedInTokenUser("alice")
            #expect(try await h.refreshGrant(session.refreshToken).1["expires_in"] == 120)
        }
    }

    @Test func resetClearsTheTokenWorld() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("alice")
            _ = try await h.admin(.post, "/teams", [:])
            _ = try await h.admin(.post, "/settings", ["refresh_reuse_grace_seconds": 1])
            #expect(try await h.admin(.post, "/reset").0 == .ok)

            #expect(try await h.admin(.get, "/teams").1["teams"]?.arrayValue?.count == 1)
            #expect(try await h.admin(.get, "/token_users").1["token_users"] == [])
            #expect(try await h.admin(.get, "/settings").1["refresh_reuse_grace_seconds"] == 30)
            #expect(try await h.refreshGrant(session.refreshToken).1.errorType == "reauthentication_required")
            #expect(try await h.profile(session.userId, headers: Harness.bearer(session.accessToken)).0 == .unauthorized)
            // The default team works as before, and the same client_user_id is free.
            _ = try await h.signedInTokenUser("alice")
        }
    }

    @Test func tokenSettingsSurviveARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("emu-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = EmulatorOptions(databasePath: path, passwordHashCost: 4)
        let first = try await Emulator.open(options)
        try await first.setSignInTokenSettings(
            SignInTokenSettings(signInTokenLifetime: 600, accessTokenLifetime: 90, refreshReuseGraceSeconds: 3))
        let second = try await Emulator.open(options)
        #expect(second.signInTokenSettings
            == SignInTokenSettings(signInTokenLifetime: 600, accessTokenLifetime: 90, refreshReuseGraceSeconds: 3))
        let teams = try await second.store.read { db in try TeamRow.fetchCount(db) }
        #expect(teams == 1)
    }
}
