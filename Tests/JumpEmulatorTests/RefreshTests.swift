import Testing

@testable import JumpEmulator

@Suite("refresh_access_token")
struct RefreshTests {
    @Test func refreshesWithACorrectSignatureAndRetiresTheOldToken() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "a1b2c3")
            let answer = try await h.refresh(token: token, secret: "a1b2c3")
            #expect(answer["stat"] == "ok")
            #expect(answer["expires_in"] == 3600)
            let fresh = try #require(answer["access_token"]?.stringValue)
            #expect(fresh != token)
            #expect(try await h.entity(fresh)["stat"] == "ok")

            // The old token can no longer be used or refreshed.
            let old = try await h.entity(token)
            #expect(old["code"] == 200)
            #expect(old["argument_name"] == "access_token")
            let again = try await h.refresh(token: token, secret: "a1b2c3")
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
            #expect(try await h.refresh(token: token, secret: "s", date: Harness.utcNow(offset: -600))["stat"] == "ok")
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
}
