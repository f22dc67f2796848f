import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("auth_native_traditional")
struct SignInTests {
    @Test func signsInByEmailThroughTheSignInForm() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada")])
            let answer = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ADA@example.com"), ("currentPassword", "correct horse"),
                ("refresh_secret", "s1"), ("flow", "standard"), ("flow_version", "20261121000000000001"),
            ])
            #expect(answer["stat"] == "ok")
            #expect(answer["is_new"] == false)
            #expect(answer["expires_in"] == 3600)
            #expect(answer["capture_user"]?["displayName"] == "Ada")
            #expect(answer["capture_user"]?["email"] == "ada@example.com")
            #expect(answer["authorization_code"] == nil)
        }
    }

    @Test func signsInByUsername() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "grace@example.com", [("username", "grace.h")])
            let answer = try await h.signIn([
                ("form", "signInUsernameForm"), ("signInUsername", "Grace.H"), ("currentPassword", "correct horse"),
            ])
            #expect(answer["stat"] == "ok")
            #expect(answer["capture_user"]?["username"] == "grace.h")
        }
    }

    @Test func fallsBackToUserAndPassword() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "linus@example.com", [("username", "linus")])
            let byEmail = try await h.signIn([("user", "linus@example.com"), ("password", "correct horse")])
            #expect(byEmail["stat"] == "ok")
            let byName = try await h.signIn([("user", "linus"), ("password", "correct horse")])
            #expect(byName["stat"] == "ok")
            let missing = try await h.signIn([("user", "linus")])
            #expect(missing["code"] == 100)
            #expect(missing["argument_name"] == "password")
        }
    }

    @Test func wrongPasswordIs210InBothLocales() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let answer = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "wrong password"),
            ])
            #expect(answer["stat"] == "error")
            #expect(answer["code"] == 210)
            #expect(answer["error"] == "invalid_credentials")
            #expect(answer["error_description"] == "Incorrect username or password.")
            #expect(answer.invalidField("signInForm") == ["Incorrect username or password."])

            let french = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "wrong password"),
                ("locale", "fr-FR"),
            ])
            #expect(french["code"] == 210)
            #expect(french.invalidField("signInForm") == ["Nom d’utilisateur ou mot de passe incorrect."])
        }
    }

    @Test func unknownUserIs210() async throws {
        try await Harness.run { h in
            let answer = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "nobody@example.com"), ("currentPassword", "whatever1"),
            ])
            #expect(answer["code"] == 210)
            #expect(answer.invalidField("signInForm")?.count == 1)
        }
    }

    @Test func missingCredentialsAre390() async throws {
        try await Harness.run { h in
            let answer = try await h.signIn([("form", "signInForm"), ("signInEmailAddress", "ada@example.com")])
            #expect(answer["code"] == 390)
            #expect(answer.invalidField("currentPassword") == ["Password is required."])
            #expect(answer.invalidField("signInEmailAddress") == nil)
        }
    }

    @Test func codeAndTokenGivesAnAuthorizationCode() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let answer = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "correct horse"),
                ("response_type", "code_and_token"),
            ])
            #expect(answer["stat"] == "ok")
            let code = try #require(answer["authorization_code"]?.stringValue)
            #expect(!code.isEmpty)
            let stored = try await h.emulator.store.read { db in try AuthorizationCodeRow.fetchOne(db, key: code) }
            #expect(stored?.redirectUri == "http://localhost/done")

            let bad = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "correct horse"),
                ("response_type", "id_token"),
            ])
            #expect(bad["code"] == 200)
            #expect(bad["argument_name"] == "response_type")
        }
    }

    @Test func readsTheBodyOnlyButAcceptsALeadingAmpersand() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            // Real Capture reads sign-in parameters from the POST body only: a query string is not
            // enough (only auth_native keeps iOS's token-URL style), and the error says why.
            let query = "client_id=\(Harness.clientId)&form=signInForm&signInEmailAddress=ada%40example.com&currentPassword=correct+horse"
            let fromQuery = try await h.request(.post, "/oauth/auth_native_traditional?\(query)", body: "")
            let refused = try #require(JSONValue.parse(String(buffer: fromQuery.body)))
            #expect(refused["code"] == 100)
            #expect(refused["argument_name"] == "client_id")
            #expect(refused["error_description"]?.stringValue?.contains("query string") == true)

            // A body starting with '&' is fine, and the query is ignored (its wrong password too).
            let body = "&client_id=\(Harness.clientId)&form=signInForm&signInEmailAddress=ada@example.com&currentPassword=correct+horse"
            let response = try await h.request(
                .post, "/oauth/auth_native_traditional?currentPassword=wrong", body: body,
                contentType: "application/x-www-form-urlencoded")
            #expect(JSONValue.parse(String(buffer: response.body))?["stat"] == "ok")

            // A form field only in the query: the 390 names it as sent in the query string.
            let partial = "client_id=\(Harness.clientId)&form=signInForm&signInEmailAddress=ada@example.com"
            let split = try await h.request(
                .post, "/oauth/auth_native_traditional?currentPassword=correct+horse", body: partial,
                contentType: "application/x-www-form-urlencoded")
            let splitAnswer = try #require(JSONValue.parse(String(buffer: split.body)))
            #expect(splitAnswer["code"] == 390)
            #expect(splitAnswer["error_description"]?.stringValue?.contains("currentPassword was sent in the query string") == true)
        }
    }
}
