import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Verification emails and the outbox")
struct VerificationEmailTests {
    /// The path and query of an outbox link, for the in-process client.
    static func requestTarget(_ link: String) -> String {
        guard let url = URLComponents(string: link) else { return link }
        return url.path + (url.query.map { "?" + $0 } ?? "")
    }

    @Test func registrationMailsAVerificationLinkThatVerifies() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("locale", "fr-FR")])
            let emails = try await h.emails()
            #expect(emails.count == 1)
            let email = try #require(emails.first)
            #expect(email["kind"] == "verification")
            #expect(email["to"] == "ada@example.com")
            #expect(email["locale"] == "fr-FR")
            #expect(email["client_id"] == .string(Harness.clientId))
            let link = try #require(email["link"]?.stringValue)
            let code = try #require(email["code"]?.stringValue)
            #expect(link == "http://127.0.0.1:9080/verify_email?code=\(code)")
            #expect(try await h.entity(token)["result"]?["emailVerified"] == .null)

            let page = try await h.request(.get, Self.requestTarget(link))
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(String(buffer: page.body).contains("verified"))
            let verified = try #require(try await h.entity(token)["result"]?["emailVerified"]?.stringValue)
            #expect(CaptureTime.parseDateTime(verified) != nil)
            #expect(verified.hasSuffix(" +0000"))

            // Single use; nonsense is refused as well.
            #expect(try await h.request(.get, Self.requestTarget(link)).status == .badRequest)
            #expect(try await h.request(.get, "/verify_email?code=nope").status == .badRequest)
            #expect(try await h.request(.get, "/verify_email").status == .badRequest)
        }
    }

    @Test func resendVerification() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.admin(.delete, "/emails")
            #expect(try await h.emails().isEmpty)
            let params: [(String, String)] = [
                ("client_id", Harness.clientId), ("locale", "en-US"), ("response_type", "token"),
                ("redirect_uri", "http://localhost/done"), ("form", "resendVerificationForm"), ("flow", "standard"),
                ("flow_version", "20261121000000000001"),
            ]
            let ok = try await h.capture("/oauth/verify_email_native", params + [("signInEmailAddress", "ada@example.com")])
            #expect(ok == ["stat": "ok"])
            let emails = try await h.emails(to: "ADA@example.com")
            #expect(emails.count == 1)
            #expect(emails.first?["kind"] == "verification")
            #expect(try await h.emails(to: "someone@example.com").isEmpty)

            let unknown = try await h.capture("/oauth/verify_email_native", params + [("signInEmailAddress", "no@example.com")])
            #expect(unknown["code"] == 212)
            #expect(unknown.invalidField("resendVerificationForm") == ["We could not find an account with that email address."])

            // Expired after a day on the emulator clock.
            let link = try #require(emails.first?["link"]?.stringValue)
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 86_401])
            #expect(try await h.request(.get, Self.requestTarget(link)).status == .badRequest)

            // A reset clears the outbox.
            _ = try await h.admin(.post, "/reset")
            #expect(try await h.emails().isEmpty)
        }
    }
}
