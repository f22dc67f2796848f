import Hummingbird
import Testing

@testable import JumpEmulator

/// Two-step social registration (docs/protocol.md §6.4, §11.3).
@Suite("register_native")
struct SocialRegistrationTests {
    static func registerNative(_ h: Harness, token: String, _ fields: [(String, String)]) async throws -> JSONValue {
        let params = Form.merge(Harness.registrationDefaults, [("form", "socialRegistrationForm"), ("token", token)])
        return try await h.capture("/oauth/register_native", params + fields)
    }

    @Test func registersAfterA310() async throws {
        try await Harness.run { h in
            let token = try await h.engageToken()
            #expect(try await h.authNative(token)["code"] == 310)
            let answer = try await Self.registerNative(h, token: token, [
                ("emailAddress", "ada@example.com"), ("displayName", "Countess"), ("firstName", "Augusta"),
                ("lastName", "King"), ("refresh_secret", "s1"),
            ])
            #expect(answer["stat"] == "ok")
            #expect(answer["is_new"] == true)
            let user = try #require(answer["capture_user"])
            #expect(user["displayName"] == "Countess")
            #expect(user["givenName"] == "Augusta")
            #expect(user["familyName"] == "King")
            #expect(user["password"] == .null)
            // The form kept the address the provider verified.
            #expect(user["emailVerified"]?.stringValue != nil)
            #expect(user["profiles"]?[0]?["identifier"] == "https://facebook.example/1")
            #expect(user["profiles"]?[0]?["domain"] == "facebook.com")
            #expect(try await h.engageTokenRow(token)?.captureState == "used")

            let again = try await h.authNative(try await h.engageToken())
            #expect(again["stat"] == "ok")
            #expect(again["capture_user"]?["uuid"] == user["uuid"])

            let spent = try await Self.registerNative(h, token: token, [("emailAddress", "other@example.com")])
            #expect(spent["code"] == 200)
            #expect(spent["argument_name"] == "token")
        }
    }

    @Test func anotherAddressThanTheVerifiedOneIsMailedAVerification() async throws {
        try await Harness.run { h in
            let token = try await h.engageToken()
            _ = try await h.authNative(token)
            let answer = try await Self.registerNative(h, token: token, [("emailAddress", "ada@work.example")])
            #expect(answer["stat"] == "ok")
            #expect(answer["capture_user"]?["emailVerified"] == .null)
            #expect(try await h.emails(to: "ada@work.example").count == 1)
        }
    }

    @Test func aTokenNotFirstSentToAuthNativeIsRefused() async throws {
        try await Harness.run { h in
            let fresh = try await h.engageToken()
            let answer = try await Self.registerNative(h, token: fresh, [("emailAddress", "ada@example.com")])
            #expect(answer["code"] == 200)
            #expect(answer["error"] == "invalid_argument")
            #expect(answer["argument_name"] == "token")
            #expect(answer["error_description"] == "the token was not first sent to auth_native")

            // A 380's token is for merging, not registering.
            _ = try await h.registeredToken(email: "grace@example.com")
            let merge = try await h.engageToken(identifier: "https://facebook.example/2", email: "grace@example.com")
            #expect(try await h.authNative(merge)["code"] == 380)
            let refused = try await Self.registerNative(h, token: merge, [("emailAddress", "grace2@example.com")])
            #expect(refused["argument_name"] == "token")

            let missing = try await h.capture("/oauth/register_native", Form.merge(Harness.registrationDefaults, [
                ("form", "socialRegistrationForm"), ("emailAddress", "ada@example.com"),
            ]))
            #expect(missing["code"] == 100)
            #expect(missing["argument_name"] == "token")
        }
    }

    @Test func formFailuresAre390AndKeepTheToken() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "taken@example.com")
            let token = try await h.engageToken()
            _ = try await h.authNative(token)

            let empty = try await Self.registerNative(h, token: token, [("displayName", String(repeating: "x", count: 65))])
            #expect(empty["code"] == 390)
            #expect(empty.invalidField("emailAddress")?.isEmpty == false)
            #expect(empty.invalidField("displayName")?.isEmpty == false)

            let taken = try await Self.registerNative(h, token: token, [("emailAddress", "TAKEN@example.com")])
            #expect(taken["code"] == 390)
            #expect(taken.invalidField("emailAddress") == ["Email address is already in use."])
            #expect(try await h.engageTokenRow(token)?.captureState == "registration")

            let good = try await Self.registerNative(h, token: token, [("emailAddress", "ada@example.com")])
            #expect(good["stat"] == "ok")
        }
    }
}
