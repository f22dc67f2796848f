import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Forgot password, /oauth/token")
struct PasswordResetTests {
    static let forgotDefaults: [(String, String)] = [
        ("client_id", Harness.clientId), ("locale", "en-US"), ("response_type", "token"),
        ("redirect_uri", "http://localhost/done"), ("flow", "standard"), ("flow_version", "20261121000000000001"),
        ("form", "forgotPasswordForm"),
    ]

    func forgot(_ h: Harness, _ extra: [(String, String)]) async throws -> JSONValue {
        try await h.capture("/oauth/forgot_password_native", Form.merge(Self.forgotDefaults, extra))
    }

    func token(_ h: Harness, _ params: [(String, String)], headers: HTTPFields = [:]) async throws -> (HTTPResponse.Status, JSONValue) {
        try await h.post("/oauth/token", params, headers: headers)
    }

    @Test func theWholeResetLoop() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let answer = try await forgot(h, [("signInEmailAddress", "ADA@example.com")])
            #expect(answer == ["stat": "ok"])

            let emails = try await h.emails(to: "ada@example.com").filter { $0["kind"] == "password_reset" }
            #expect(emails.count == 1)
            let email = try #require(emails.first)
            #expect(email["to"] == "ada@example.com")
            #expect(email["locale"] == "en-US")
            let code = try #require(email["code"]?.stringValue)
            #expect(email["link"] == .string("http://127.0.0.1:9080/password_recover?code=\(code)"))
            #expect(email["created"]?.stringValue?.hasSuffix("+0000") == true)

            // Exchange the code (client secret as a parameter), then set the new password.
            let (status, exchanged) = try await token(h, [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://localhost/done"),
                ("client_id", Harness.clientId), ("client_secret", Harness.defaultSecret),
            ])
            #expect(status == .ok)
            #expect(exchanged["stat"] == "ok")
            #expect(exchanged["expires_in"] == 3600)
            #expect(exchanged["refresh_token"]?.stringValue?.count == 43)
            let access = try #require(exchanged["access_token"]?.stringValue)
            #expect(try await h.entity(access)["result"]?["email"] == "ada@example.com")

            let set = try await h.capture("/oauth/update_profile_native", [
                ("access_token", access), ("client_id", Harness.clientId), ("locale", "en-US"), ("form", "changePasswordFormNoAuth"),
                ("flow", "standard"), ("newPassword", "a fresh password"), ("newPasswordConfirm", "a fresh password"),
            ])
            #expect(set == ["stat": "ok"])
            #expect(try await h.signIn(email: "ada@example.com", password: "a fresh password")["stat"] == "ok")
            let old = try await h.signIn(email: "ada@example.com", password: "correct horse")
            #expect(old["code"] == 210)

            // The code was used once.
            let (againStatus, again) = try await token(h, [
                ("grant_type", "authorization_code"), ("code", code), ("client_id", Harness.clientId),
                ("client_secret", Harness.defaultSecret),
            ])
            #expect(againStatus == .badRequest)
            #expect(again["stat"] == "error")
            #expect(again["code"] == 415)
            #expect(again["error"] == "authorization_code_expired")
        }
    }

    @Test func unknownEmailIsAFormLevelError() async throws {
        try await Harness.run { h in
            let english = try await forgot(h, [("signInEmailAddress", "nobody@example.com")])
            #expect(english["stat"] == "error")
            #expect(english["code"] == 212)
            #expect(english.invalidField("forgotPasswordForm") == ["We could not find an account with that email address."])
            let french = try await forgot(h, [("signInEmailAddress", "nobody@example.com"), ("locale", "fr-FR")])
            #expect(french.invalidField("forgotPasswordForm") == ["Aucun compte ne correspond à cette adresse e-mail."])

            let invalid = try await forgot(h, [("signInEmailAddress", "not an email")])
            #expect(invalid["code"] == 390)
            #expect(invalid.invalidField("signInEmailAddress") == [DefaultFlowTexts.english.emailInvalid])
            let missing = try await forgot(h, [("locale", "fr-FR")])
            #expect(missing.invalidField("signInEmailAddress") == [DefaultFlowTexts.french.emailRequired])
            #expect(try await forgot(h, [("signInEmailAddress", "a@b.co"), ("form", "nope")])["argument_name"] == "form")
            #expect(try await forgot(h, [("signInEmailAddress", "a@b.co"), ("client_id", "nope")])["code"] == 402)
            #expect(try await h.emails().isEmpty)
        }
    }

    @Test func codesExpireAfterAnHourAndBelongToTheirClient() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            _ = try await forgot(h, [("signInEmailAddress", "ada@example.com")])
            _ = try await forgot(h, [("signInEmailAddress", "ada@example.com")])
            let codes = try await h.emails().filter { $0["kind"] == "password_reset" }.compactMap { $0["code"]?.stringValue }
            #expect(codes.count == 2)

            _ = try await h.admin(.post, "/apps", ["client_id": "other", "capture_app_id": "o", "client_secret": "s2"])
            let (_, foreign) = try await token(h, [
                ("grant_type", "authorization_code"), ("code", codes[0]), ("client_id", "other"), ("client_secret", "s2"),
            ])
            #expect(foreign["code"] == 200)
            #expect(foreign["error"] == "invalid_request")
            #expect(foreign["sub_error"] == "invalid_argument")
            #expect(foreign["argument_name"] == "code")

            _ = try await h.admin(.post, "/clock", ["advance_seconds": 3601])
            let (status, expired) = try await token(h, [
                ("grant_type", "authorization_code"), ("code", codes[1]), ("client_id", Harness.clientId),
                ("client_secret", Harness.defaultSecret),
            ])
            #expect(status == .badRequest)
            #expect(expired["code"] == 415)
        }
    }

    @Test func tokenEndpointErrors() async throws {
        try await Harness.run { h in
            let (status, wrongSecret) = try await token(h, [
                ("grant_type", "authorization_code"), ("code", "x"), ("client_id", Harness.clientId), ("client_secret", "nope"),
            ])
            #expect(status == .badRequest)
            #expect(wrongSecret["code"] == 402)
            #expect(wrongSecret["error"] == "invalid_client_credentials")
            let (_, missingGrant) = try await token(h, [("client_id", Harness.clientId), ("client_secret", Harness.defaultSecret)])
            #expect(missingGrant["code"] == 100)
            #expect(missingGrant["error"] == "invalid_request")
            #expect(missingGrant["sub_error"] == "missing_argument")
            #expect(missingGrant["argument_name"] == "grant_type")
            let (_, badGrant) = try await token(h, [
                ("grant_type", "password"), ("client_id", Harness.clientId), ("client_secret", Harness.defaultSecret),
            ])
            #expect(badGrant["argument_name"] == "grant_type")
            let (_, unknownCode) = try await token(h, [
                ("grant_type", "authorization_code"), ("code", "nope"), ("client_id", Harness.clientId),
                ("client_secret", Harness.defaultSecret),
            ])
            #expect(unknownCode["argument_name"] == "code")
        }
    }

    @Test func signInCodesBasicAuthAndRefreshTokens() async throws {
        try await Harness.run { h in
            let registered = try await h.register(email: "ada@example.com", [("response_type", "code_and_token")])
            let code = try #require(registered["authorization_code"]?.stringValue)
            var headers = HTTPFields()
            headers[.authorization] = "Basic " + Data("\(Harness.clientId):\(Harness.defaultSecret)".utf8).base64EncodedString()

            let (_, mismatch) = try await token(h, [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://elsewhere/"),
            ], headers: headers)
            #expect(mismatch["code"] == 420)
            #expect(mismatch["error"] == "redirect_uri_mismatch")
            #expect(mismatch["expected_value"] == "http://localhost/done")

            let (status, exchanged) = try await token(h, [("grant_type", "authorization_code"), ("code", code)], headers: headers)
            #expect(status == .ok)
            let access = try #require(exchanged["access_token"]?.stringValue)
            let refresh = try #require(exchanged["refresh_token"]?.stringValue)
            #expect(try await h.entity(access)["stat"] == "ok")

            let (_, refreshed) = try await token(h, [("grant_type", "refresh_token"), ("refresh_token", refresh)], headers: headers)
            #expect(refreshed["stat"] == "ok")
            #expect(refreshed["access_token"] != exchanged["access_token"])
            #expect(refreshed["refresh_token"] != exchanged["refresh_token"])
            let newAccess = try #require(refreshed["access_token"]?.stringValue)
            #expect(try await h.entity(newAccess)["stat"] == "ok")
            // Single use.
            let (_, reused) = try await token(h, [("grant_type", "refresh_token"), ("refresh_token", refresh)], headers: headers)
            #expect(reused["argument_name"] == "refresh_token")
        }
    }
}
