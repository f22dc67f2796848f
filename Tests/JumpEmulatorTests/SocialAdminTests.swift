import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

/// `POST /emulator/merge_conflict`.
@Suite("admin merge_conflict")
struct SocialAdminTests {
    /// An Engage token for an identity the admin call described, as /signin/oauth_token would make it.
    static func token(_ h: Harness, for identity: JSONValue?) async throws -> String {
        let provider = try #require(identity?["provider"]?.stringValue)
        let text = try #require(identity?["token"]?.stringValue)
        let providerToken = try #require(JSONValue.parse(text))
        let identifier = try #require(providerToken["identifier"]?.stringValue)
        #expect(identifier == identity?["identifier"]?.stringValue)
        let email = providerToken["email"]?.stringValue
        return try await h.storeEngageToken(provider: provider, identifier: identifier, profile: [
            "identifier": .string(identifier), "providerName": .string(provider.capitalized),
            "displayName": providerToken["display_name"] ?? .null, "email": email.map(JSONValue.string) ?? .null,
            "verifiedEmail": providerToken["verified_email"] == true ? email.map(JSONValue.string) ?? .null : .null,
        ])
    }

    @Test func aPasswordAccountAndAConflictingIdentity() async throws {
        try await Harness.run { h in
            let (status, answer) = try await h.admin(.post, "/merge_conflict", [
                "email": "ada@example.com", "existing_provider": "capture", "provider": "facebook",
            ])
            #expect(status == .created)
            #expect(answer["user"]?["email"] == "ada@example.com")
            #expect(answer["user"]?["uuid"]?.stringValue != nil)
            #expect(answer["password"] == "Passw0rd!")
            #expect(answer["existing_identity"] == .null)
            #expect(answer["conflicting_identity"]?["provider"] == "facebook")
            #expect(answer["conflicting_identity"]?["identifier"]?.stringValue?.hasPrefix("https://facebook.example/") == true)

            let conflicting = try await Self.token(h, for: answer["conflicting_identity"])
            let refused = try await h.authNative(conflicting)
            #expect(refused["code"] == 380)
            #expect(refused["existing_provider"] == "capture")

            let merged = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "Passw0rd!"),
                ("merge_token", conflicting),
            ])
            #expect(merged["stat"] == "ok")
            #expect(merged["capture_user"]?["profiles"]?[0]?["identifier"] == answer["conflicting_identity"]?["identifier"])
        }
    }

    @Test func aSocialAccountAndAConflictingIdentity() async throws {
        try await Harness.run { h in
            let (status, answer) = try await h.admin(.post, "/merge_conflict", [
                "email": "grace.hopper@example.com", "existing_provider": "google", "provider": "facebook",
                "password": "ignored for social accounts",
            ])
            #expect(status == .created)
            #expect(answer["password"] == .null)
            #expect(answer["existing_identity"]?["provider"] == "google")

            let (_, user) = try await h.admin(.get, "/users/\(answer["user"]?["uuid"]?.stringValue ?? "")")
            #expect(user["user"]?["password"] == .null)
            #expect(user["user"]?["displayName"] == "Grace Hopper")
            #expect(user["user"]?["profiles"]?[0]?["identifier"] == answer["existing_identity"]?["identifier"])
            #expect(user["user"]?["profiles"]?[0]?["profile"]?["providerName"] == "Google")

            let conflicting = try await Self.token(h, for: answer["conflicting_identity"])
            #expect(try await h.authNative(conflicting)["existing_provider"] == "google")
            let existing = try await Self.token(h, for: answer["existing_identity"])
            let merged = try await h.authNative(existing, [("merge_token", conflicting)])
            #expect(merged["stat"] == "ok")
            #expect(merged["capture_user"]?["profiles"]?.arrayValue?.count == 2)
        }
    }

    @Test func refusals() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let taken = try await h.admin(.post, "/merge_conflict", ["email": "ada@example.com", "provider": "facebook"])
            #expect(taken.0 == .conflict)
            #expect(taken.1["error"] == "email_taken")
            let noProvider = try await h.admin(.post, "/merge_conflict", ["email": "b@example.com"])
            #expect(noProvider.0 == .badRequest)
            let capture = try await h.admin(.post, "/merge_conflict", ["email": "b@example.com", "provider": "capture"])
            #expect(capture.0 == .badRequest)
            let badEmail = try await h.admin(.post, "/merge_conflict", ["email": "nope", "provider": "facebook"])
            #expect(badEmail.0 == .badRequest)
            let unknownApp = try await h.admin(.post, "/merge_conflict", [
                "email": "b@example.com", "provider": "facebook", "client_id": "nobody",
            ])
            #expect(unknownApp.0 == .notFound)
        }
    }
}
