import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Web login")
struct SignInTokenWebLoginTests {
    static func form(_ email: String, _ password: String) -> String {
        Form.encode([("email", email), ("password", password)])
    }

    @Test func theFormPageHasEmailAndPassword() async throws {
        try await Harness.run { h in
            let page = try await h.request(.get, "/weblogin")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: page.body)
            #expect(html.contains("<form method=\"post\" action=\"/weblogin\">"))
            #expect(html.contains("name=\"email\""))
            #expect(html.contains("name=\"password\""))
        }
    }

    @Test func signingInSetsTheCookieAndTitle() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/users", ["email": "ada@example.com", "password": "correct horse"])
            let response = try await h.request(
                .post, "/weblogin", body: Self.form("Ada@example.com", "correct horse"),
                contentType: "application/x-www-form-urlencoded")
            #expect(response.status == .ok)
            let cookie = try #require(response.headers[.setCookie])
            let match = try #require(cookie.wholeMatch(of: /oauth_token=([A-Za-z0-9_-]+); Path=\/; HttpOnly/))
            let token = String(match.1)
            #expect(String(buffer: response.body).contains("<title>oauth_token=\(token)</title>"))

            let (status, me, _) = try await h.api(.get, "/weblogin/me", headers: Harness.bearer(token))
            #expect(status == .ok)
            #expect(me["email"] == "ada@example.com")
            let uuid = try #require(me["uuid"]?.stringValue)
            #expect(try await h.admin(.get, "/users/\(uuid)").1["user"]?["email"] == "ada@example.com")
            let (cookieStatus, cookieMe, _) = try await h.api(
                .get, "/weblogin/me", headers: Harness.header("cookie", "other=1; oauth_token=\(token)"))
            #expect(cookieStatus == .ok)
            #expect(cookieMe == me)

            // It is a Capture access token of that user, and it expires like one.
            #expect(try await h.entity(token)["result"]?["email"] == "ada@example.com")
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 3600])
            let (expired, expiredBody, _) = try await h.api(.get, "/weblogin/me", headers: Harness.bearer(token))
            #expect(expired == .unauthorized)
            #expect(expiredBody.errorType == "invalid_token")
        }
    }

    @Test func aWrongPasswordShowsTheFormAgain() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/users", ["email": "ada@example.com", "password": "correct horse"])
            let response = try await h.request(
                .post, "/weblogin", body: Self.form("ada@example.com", "wrong"),
                contentType: "application/x-www-form-urlencoded")
            #expect(response.status == .unauthorized)
            #expect(response.headers[.setCookie] == nil)
            let html = String(buffer: response.body)
            #expect(html.contains("<form"))
            #expect(html.contains("Incorrect email address or password."))
            #expect(!html.contains("oauth_token="))

            let unknown = try await h.request(
                .post, "/weblogin", body: Self.form("nobody@example.com", "correct horse"),
                contentType: "application/x-www-form-urlencoded")
            #expect(unknown.status == .unauthorized)
            let missing = try await h.request(
                .post, "/weblogin", body: "email=ada%40example.com", contentType: "application/x-www-form-urlencoded")
            #expect(missing.status == .badRequest)
        }
    }

    @Test func meRefusesBadTokens() async throws {
        try await Harness.run { h in
            for headers in [HTTPFields(), Harness.bearer("nope"), Harness.header("cookie", "oauth_token=nope")] {
                let (status, body, response) = try await h.api(.get, "/weblogin/me", headers: headers)
                #expect(status == .unauthorized)
                #expect(body.errorType == "invalid_token")
                #expect(response.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")
            }
        }
    }
}
