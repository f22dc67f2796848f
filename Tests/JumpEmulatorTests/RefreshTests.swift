import Testing

@testable import JumpEmulator

@Suite("refresh_access_token")
struct RefreshTests {
    @Test func refreshesWithACorrectSignatureAndRetiresTheOldToken() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "a1b2c3")
            let answer = try await h.refresh(token: token, secret: "a1b2c3", date: Harness.utcNow())
            #expect(answer["stat"] == "ok")
            #expect(answer["expires_in"] == 3600)
            let fresh = try #require(answer["access_token"]?.stringValue)
            #expect(fresh != token)
            #expect(try await h.entity(fresh)["stat"] == "ok")

            // The old token can no longer be used or refreshed (by anything but a replay of that very
            // request: a date a minute off is another request).
            let old = try await h.entity(token)
            #expect(old["code"] == 200)
            #expect(old["argument_name"] == "access_token")
            let again = try await h.refresh(token: token, secret: "a1b2c3", date: Harness.utcNow(offset: -60))
            #expect(again["code"] == 200)
            #expect(again["argument_name"] == "access_token")

            // The new one refreshes with the same secret.
            #expect(try await h.refresh(token: fresh, secret: "a1b2c3")["stat"] == "ok")
        }
    }

    @Test func refreshesAnExpiredToken() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 7200])
            #expect(try await h.entity(token)["code"] == 414)
            // The date is signed with the real clock, whatever the emulator clock says.
            let answer = try await h.refresh(token: token, secret: "s")
            #expect(answer["stat"] == "ok")
            let fresh = try #require(answer["access_token"]?.stringValue)
            #expect(try await h.entity(fresh)["stat"] == "ok")
        }
    }

    @Test func refusesAWrongSignature() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "right")
            let answer = try await h.refresh(
                token: token, secret: "right",
                signature: Harness.refreshSignature(secret: "wrong", date: Harness.utcNow(), token: token))
            #expect(answer["code"] == 200)
            #expect(answer["error"] == "invalid_argument")
            #expect(answer["argument_name"] == "signature")
            // A failed attempt leaves the token usable.
            #expect(try await h.entity(token)["stat"] == "ok")
        }
    }

    @Test func refusesAStaleOrMalformedDate() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            let stale = try await h.refresh(token: token, secret: "s", date: Harness.utcNow(offset: -1000))
            #expect(stale["code"] == 200)
            #expect(stale["argument_name"] == "date")
            let future = try await h.refresh(token: token, secret: "s", date: Harness.utcNow(offset: 1000))
            #expect(future["argument_name"] == "date")
            let malformed = try await h.refresh(token: token, secret: "s", date: "yesterday")
            #expect(malformed["argument_name"] == "date")
            // 300 s either way, as strict as the signed server API.
            #expect(try await h.refresh(token: token, secret: "s", date: Harness.utcNow(offset: -400))["argument_name"] == "date")
            #expect(try await h.refresh(token: token, secret: "s", date: Harness.utcNow(offset: -200))["stat"] == "ok")
        }
    }

    @Test func sessionsWithoutASecretCannotBeRefreshed() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: nil)
            let answer = try await h.refresh(token: token, secret: "")
            #expect(answer["code"] == 200)
            #expect(answer["argument_name"] == "access_token")
        }
    }

    @Test func missingArgumentsAndUnknownTokens() async throws {
        try await Harness.run { h in
            let missing = try await h.capture("/oauth/refresh_access_token", [("client_id", Harness.clientId)])
            #expect(missing["code"] == 100)
            #expect(missing["argument_name"] == "access_token")
            let noSignature = try await h.capture(
                "/oauth/refresh_access_token", [("client_id", Harness.clientId), ("access_token", "x"), ("date", "d")])
            #expect(noSignature["argument_name"] == "signature")
            let unknown = try await h.refresh(token: "no-such-token", secret: "s")
            #expect(unknown["code"] == 200)
            #expect(unknown["argument_name"] == "access_token")
        }
    }

    // MARK: - The grace window (capture_refresh_grace_seconds)

    @Test func aReplayWithinTheGraceWindowGetsTheSameToken() async throws {
        try await Harness.run { h in
            let registered = try await h.register(email: "ada@example.com", refreshSecret: "s")
            let token = try #require(registered["access_token"]?.stringValue)
            let uuid = try #require(registered["capture_user"]?["uuid"]?.stringValue)
            let date = Harness.utcNow()
            let first = try await h.refresh(token: token, secret: "s", date: date)
            let fresh = try #require(first["access_token"]?.stringValue)

            // The client died before saving `fresh`; 10 s later it sends the same request again.
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 10])
            let replay = try await h.refresh(token: token, secret: "s", date: date)
            #expect(replay["stat"] == "ok")
            #expect(replay["access_token"]?.stringValue == fresh)
            let left = try #require(replay["expires_in"]?.intValue)
            #expect((3585...3590).contains(left), "expires_in \(left) should count from the first answer")

            // No second rotation: one session, and it works.
            #expect(try await h.admin(.get, "/users/\(uuid)").1["active_sessions"] == 1)
            #expect(try await h.entity(fresh)["stat"] == "ok")
            #expect(try await h.entity(token)["argument_name"] == "access_token")
        }
    }

    @Test func aReplayAfterTheGraceWindowIsRefused() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            let date = Harness.utcNow()
            let fresh = try #require(try await h.refresh(token: token, secret: "s", date: date)["access_token"]?.stringValue)
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 30])
            let replay = try await h.refresh(token: token, secret: "s", date: date)
            #expect(replay["code"] == 200)
            #expect(replay["argument_name"] == "access_token")
            // The successor is unaffected.
            #expect(try await h.entity(fresh)["stat"] == "ok")
        }
    }

    @Test func anotherRequestForTheRetiredTokenIsRefused() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            let date = Harness.utcNow(offset: -120)
            #expect(try await h.refresh(token: token, secret: "s", date: date)["stat"] == "ok")

            // A fresh date, correctly signed: a new request, not a replay.
            let otherDate = try await h.refresh(token: token, secret: "s", date: Harness.utcNow())
            #expect(otherDate["code"] == 200)
            #expect(otherDate["argument_name"] == "access_token")
            // The same date with a bad signature is refused as a retired token, not as a bad signature.
            let badSignature = try await h.refresh(
                token: token, secret: "s", date: date,
                signature: Harness.refreshSignature(secret: "wrong", date: date, token: token))
            #expect(badSignature["code"] == 200)
            #expect(badSignature["argument_name"] == "access_token")
            // And the real replay still works after those.
            #expect(try await h.refresh(token: token, secret: "s", date: date)["stat"] == "ok")
        }
    }

    @Test func aReplayIsRefusedOnceTheSuccessorWasRefreshed() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            let date = Harness.utcNow(offset: -60)
            let fresh = try #require(try await h.refresh(token: token, secret: "s", date: date)["access_token"]?.stringValue)
            let nextDate = Harness.utcNow()
            let second = try await h.refresh(token: fresh, secret: "s", date: nextDate)
            let fresher = try #require(second["access_token"]?.stringValue)

            let replay = try await h.refresh(token: token, secret: "s", date: date)
            #expect(replay["code"] == 200)
            #expect(replay["argument_name"] == "access_token")
            // The latest rotation still has its own grace.
            #expect(try await h.refresh(token: fresh, secret: "s", date: nextDate)["access_token"]?.stringValue == fresher)
        }
    }

    @Test func aGraceOfZeroDisablesReplays() async throws {
        try await Harness.run { h in
            let (status, settings) = try await h.admin(.post, "/settings", ["capture_refresh_grace_seconds": 0])
            #expect(status == .ok)
            #expect(settings["capture_refresh_grace_seconds"] == 0)
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            let date = Harness.utcNow()
            #expect(try await h.refresh(token: token, secret: "s", date: date)["stat"] == "ok")
            let replay = try await h.refresh(token: token, secret: "s", date: date)
            #expect(replay["code"] == 200)
            #expect(replay["argument_name"] == "access_token")
        }
    }

    @Test func theGraceIsASettingThatResetRestores() async throws {
        try await Harness.run { h in
            #expect(try await h.admin(.get, "/settings").1["capture_refresh_grace_seconds"] == 30)
            for bad: JSONValue in [["capture_refresh_grace_seconds": -1], ["capture_refresh_grace_seconds": "x"]] {
                #expect(try await h.admin(.post, "/settings", bad).0 == .badRequest)
            }
            // A refused update changes nothing, this setting included.
            #expect(try await h.admin(.post, "/settings", ["capture_refresh_grace_seconds": 5, "access_token_lifetime": 0]).0
                == .badRequest)
            #expect(try await h.admin(.get, "/settings").1["capture_refresh_grace_seconds"] == 30)

            let (_, updated) = try await h.admin(.post, "/settings", ["capture_refresh_grace_seconds": 5])
            #expect(updated["capture_refresh_grace_seconds"] == 5)
            // The window follows the setting.
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            let date = Harness.utcNow()
            #expect(try await h.refresh(token: token, secret: "s", date: date)["stat"] == "ok")
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 6])
            #expect(try await h.refresh(token: token, secret: "s", date: date)["argument_name"] == "access_token")

            #expect(try await h.admin(.post, "/reset").0 == .ok)
            #expect(try await h.admin(.get, "/settings").1["capture_refresh_grace_seconds"] == 30)
        }
    }
}
