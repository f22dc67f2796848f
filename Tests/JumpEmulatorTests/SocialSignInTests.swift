import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

/// Engage tokens for the social tests, stored as the Engage endpoints store them.
extension Harness {
    // engageAppId (the default Engage app) is declared with the Engage test helpers.

    /// Stores an Engage token for an identity and returns it (40 characters, as Engage's).
    @discardableResult
    func engageToken(
        provider: String = "facebook", identifier: String = "https://facebook.example/1", email: String? = "ada@example.com",
        verified: Bool = true, displayName: String = "Ada Lovelace", givenName: String? = "Ada",
        familyName: String? = "Lovelace", engageAppId: String = Harness.engageAppId, lifetime: Double = 600
    ) async throws -> String {
        var profile: [String: JSONValue] = [
            "identifier": .string(identifier), "providerName": .string(provider.capitalized),
            "displayName": .string(displayName), "preferredUsername": .string(displayName),
        ]
        if let email {
            profile["email"] = .string(email)
            if verified { profile["verifiedEmail"] = .string(email) }
        }
        var name: [String: JSONValue] = ["formatted": .string(displayName)]
        if let givenName { name["givenName"] = .string(givenName) }
        if let familyName { name["familyName"] = .string(familyName) }
        profile["name"] = .object(name)
        return try await storeEngageToken(
            provider: provider, identifier: identifier, profile: profile, engageAppId: engageAppId, lifetime: lifetime)
    }

    func storeEngageToken(
        provider: String, identifier: String, profile: [String: JSONValue], engageAppId: String = Harness.engageAppId,
        lifetime: Double = 600
    ) async throws -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let token = String((0..<40).compactMap { _ in alphabet.randomElement() })
        let now = emulator.clock.now().timeIntervalSince1970
        let row = EngageTokenRow(
            token: token, engageAppId: engageAppId, provider: provider, identifier: identifier,
            profileJSON: JSONValue.object(profile).serialized(), deviceToken: nil, created: now,
            expiresAt: now + lifetime, captureState: nil, captureClientId: nil)
        try await emulator.store.write { db in try row.insert(db) }
        return token
    }

    func engageTokenRow(_ token: String) async throws -> EngageTokenRow? {
        try await emulator.store.read { db in try EngageTokenRow.find(token, in: db) }
    }

    func identityRows() async throws -> [UserIdentityRow] {
        try await emulator.store.read { db in try UserIdentityRow.fetchAll(db) }.sorted { $0.identifier < $1.identifier }
    }

    static let socialDefaults: [(String, String)] = [
        ("client_id", clientId), ("locale", "en-US"), ("response_type", "token"),
        ("redirect_uri", "http://localhost/done"), ("flow", "standard"), ("flow_version", "20261121000000000001"),
        ("registration_form", "socialRegistrationForm"), ("refresh_secret", "social-secret"),
    ]

    func authNative(_ token: String, _ extra: [(String, String)] = []) async throws -> JSONValue {
        try await capture("/oauth/auth_native", Form.merge(Self.socialDefaults + [("token", token)], extra))
    }

    /// Signs in (thin registration) a new social user and returns the answer, failing the test when it does not work.
    func socialUser(
        provider: String = "facebook", identifier: String = "https://facebook.example/1", email: String = "ada@example.com"
    ) async throws -> JSONValue {
        let token = try await engageToken(provider: provider, identifier: identifier, email: email)
        let answer = try await authNative(token, [("thin_registration", "true")])
        #expect(answer["stat"] == "ok", "thin registration failed: \(answer.serialized())")
        return answer
    }
}

@Suite("auth_native")
struct SocialSignInTests {
    @Test func unknownIdentityIs310WithTheRegistrationFormPrefilled() async throws {
        try await Harness.run { h in
            let token = try await h.engageToken()
            let answer = try await h.authNative(token)
            #expect(answer["stat"] == "error")
            #expect(answer["code"] == 310)
            #expect(answer["error"] == "record_not_found")
            #expect(answer["prereg_fields"] == [
                "emailAddress": "ada@example.com", "displayName": "Ada Lovelace", "firstName": "Ada", "lastName": "Lovelace",
            ])
            #expect(answer["prereg_attributes"] == [
                "email": "ada@example.com", "displayName": "Ada Lovelace", "givenName": "Ada", "familyName": "Lovelace",
            ])
            let row = try await h.engageTokenRow(token)
            #expect(row?.captureState == "registration")
            #expect(row?.captureClientId == Harness.clientId)
            #expect(try await h.admin(.get, "/users").1["users"] == [])
        }
    }

    @Test func prefilledFieldsLeaveOutWhatTheProfileLacks() async throws {
        try await Harness.run { h in
            let token = try await h.engageToken(email: nil, givenName: nil, familyName: nil)
            let answer = try await h.authNative(token, [("thin_registration", "true")])
            // Thin registration needs an email.
            #expect(answer["code"] == 310)
            #expect(answer["prereg_fields"] == ["displayName": "Ada Lovelace"])
        }
    }

    @Test func thinRegistrationMakesTheUserFromTheProfile() async throws {
        try await Harness.run { h in
            let token = try await h.engageToken()
            let answer = try await h.authNative(token, [("thin_registration", "true")])
            #expect(answer["stat"] == "ok")
            #expect(answer["is_new"] == true)
            #expect(answer["access_token"]?.stringValue?.count == 43)
            let user = try #require(answer["capture_user"])
            #expect(user["email"] == "ada@example.com")
            #expect(user["displayName"] == "Ada Lovelace")
            #expect(user["givenName"] == "Ada")
            #expect(user["familyName"] == "Lovelace")
            #expect(user["password"] == .null)
            #expect(user["emailVerified"]?.stringValue != nil)
            let profiles = try #require(user["profiles"]?.arrayValue)
            #expect(profiles.count == 1)
            #expect(profiles.first?["identifier"] == "https://facebook.example/1")
            #expect(profiles.first?["domain"] == "facebook.com")
            #expect(profiles.first?["verifiedEmail"] == "ada@example.com")
            #expect(profiles.first?["profile"]?["providerName"] == "Facebook")
            #expect(profiles.first?["id"]?.intValue != nil)
            // A provider-verified address needs no verification email.
            #expect(try await h.emails().isEmpty)
            #expect(try await h.engageTokenRow(token)?.captureState == "used")
            let rows = try await h.identityRows()
            #expect(rows.map(\.identifier) == ["https://facebook.example/1"])
            #expect(rows.first?.provider == "facebook")

            // The access token works like any other.
            let access = try #require(answer["access_token"]?.stringValue)
            #expect(try await h.entity(access)["result"]?["email"] == "ada@example.com")

            // The next sign-in with the identity finds the same user.
            let again = try await h.authNative(try await h.engageToken(), [("thin_registration", "true")])
            #expect(again["stat"] == "ok")
            #expect(again["is_new"] == false)
            #expect(again["capture_user"]?["uuid"] == user["uuid"])
            #expect(again["capture_user"]?["profiles"]?.arrayValue?.count == 1)
        }
    }

    @Test func anUnverifiedEmailGetsAVerificationEmail() async throws {
        try await Harness.run { h in
            let token = try await h.engageToken(verified: false)
            let answer = try await h.authNative(token, [("thin_registration", "true")])
            #expect(answer["stat"] == "ok")
            #expect(answer["capture_user"]?["emailVerified"] == .null)
            #expect(answer["capture_user"]?["profiles"]?[0]?["verifiedEmail"] == .null)
            let mails = try await h.emails(to: "ada@example.com")
            #expect(mails.map { $0["kind"] } == ["verification"])
        }
    }

    @Test func theEmailOfAPasswordAccountIs380Capture() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "Ada@Example.com")
            let token = try await h.engageToken()
            let answer = try await h.authNative(token, [("thin_registration", "true")])
            #expect(answer["stat"] == "error")
            #expect(answer["code"] == 380)
            #expect(answer["error"] == "email_address_in_use")
            #expect(answer["existing_provider"] == "capture")
            let row = try await h.engageTokenRow(token)
            #expect(row?.captureState == "merge")
            #expect(row?.captureClientId == Harness.clientId)
        }
    }

    @Test func theEmailOfASocialAccountIs380WithItsProvider() async throws {
        try await Harness.run { h in
            _ = try await h.socialUser(provider: "google", identifier: "https://google.example/7")
            let token = try await h.engageToken()
            let answer = try await h.authNative(token)
            #expect(answer["code"] == 380)
            #expect(answer["existing_provider"] == "google")
            // Only the verified address counts when there is one.
            let other = try await h.engageToken(identifier: "https://facebook.example/2", email: "someone@example.com")
            #expect(try await h.authNative(other)["code"] == 310)
        }
    }

    @Test func badTokensAreRefused() async throws {
        try await Harness.run { h in
            let missing = try await h.capture("/oauth/auth_native", Harness.socialDefaults)
            #expect(missing["code"] == 100)
            #expect(missing["argument_name"] == "token")

            let unknown = try await h.authNative(String(repeating: "x", count: 40))
            #expect(unknown["code"] == 200)
            #expect(unknown["error"] == "invalid_argument")
            #expect(unknown["argument_name"] == "token")

            let otherApp = try await h.engageToken(engageAppId: "some-other-engage-app")
            #expect(try await h.authNative(otherApp)["argument_name"] == "token")

            let expiring = try await h.engageToken(lifetime: 60)
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 61])
            #expect(try await h.authNative(expiring)["argument_name"] == "token")
            _ = try await h.admin(.post, "/clock", ["offset_seconds": 0])

            let token = try await h.engageToken()
            #expect(try await h.authNative(token, [("thin_registration", "true")])["stat"] == "ok")
            let spent = try await h.authNative(token, [("thin_registration", "true")])
            #expect(spent["code"] == 200)
            #expect(spent["argument_name"] == "token")

            let unknownClient = try await h.authNative(try await h.engageToken(), [("client_id", "nobody")])
            #expect(unknownClient["code"] == 402)
        }
    }

    @Test func iOSTokenURLStyleParametersInTheQueryString() async throws {
        try await Harness.run { h in
            _ = try await h.socialUser()
            let token = try await h.engageToken()
            let query = "client_id=\(Harness.clientId)&locale=en-US&response_type=code_and_token"
                + "&redirect_uri=http%3A%2F%2Flocalhost%2Fdone&thin_registration=false&token=\(token)"
            let response = try await h.request(.post, "/oauth/auth_native?\(query)", body: "")
            #expect(response.status == .ok)
            let answer = try #require(JSONValue.parse(String(buffer: response.body)))
            #expect(answer["stat"] == "ok")
            #expect(answer["is_new"] == false)
            #expect(answer["authorization_code"]?.stringValue != nil)
        }
    }

    @Test func anUnknownRegistrationFormIs200() async throws {
        try await Harness.run { h in
            let token = try await h.engageToken()
            let answer = try await h.authNative(token, [("registration_form", "noSuchForm")])
            #expect(answer["code"] == 200)
            #expect(answer["argument_name"] == "registration_form")
            // The token is left as it was.
            #expect(try await h.engageTokenRow(token)?.captureState == nil)
        }
    }
}
