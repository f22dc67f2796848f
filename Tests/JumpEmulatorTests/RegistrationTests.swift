import Testing

@testable import JumpEmulator

@Suite("register_native_traditional")
struct RegistrationTests {
    @Test func registersAndReturnsTheSignInResponse() async throws {
        try await Harness.run { h in
            let answer = try await h.register(email: "Ada@Example.com", [
                ("displayName", "Ada"), ("firstName", "Ada"), ("lastName", "Lovelace"), ("aboutMe", "Counting engines"),
                ("username", "ada_l"), ("birthdate[dateselect_year]", "1815"), ("birthdate[dateselect_month]", "12"),
                ("birthdate[dateselect_day]", "10"),
            ])
            #expect(answer["stat"] == "ok")
            #expect(answer["is_new"] == true)
            #expect(answer["expires_in"] == 3600)
            #expect((answer["access_token"]?.stringValue?.count ?? 0) >= 32)
            #expect(answer["authorization_code"] == nil)
            let user = try #require(answer["capture_user"])
            #expect(user["id"] == 1)
            #expect(user["email"] == "Ada@Example.com")
            #expect(user["displayName"] == "Ada")
            #expect(user["givenName"] == "Ada")
            #expect(user["familyName"] == "Lovelace")
            #expect(user["aboutMe"] == "Counting engines")
            #expect(user["username"] == "ada_l")
            #expect(user["birthday"] == "1815-12-10")
            // Whether there is a password, never the hash.
            #expect(user["password"] == ["type": "password-bcrypt"])
            // Every schema attribute is present, unset ones as null, plurals as [].
            #expect(user["middleName"] == .null)
            #expect(user["emailVerified"] == .null)
            #expect(user["photos"] == [])
            #expect(user["primaryAddress"]?["city"] == .null)
            #expect(user["name"]?["formatted"] == .null)
            let uuid = try #require(user["uuid"]?.stringValue)
            #expect(uuid.count == 36)
            let created = try #require(user["created"]?.stringValue)
            #expect(created.wholeMatch(of: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6} \+0000/) != nil)
        }
    }

    /// jump.android and jump.ios fill a form only from the fields that have a schemaId, taking each value
    /// from the user object (docs/protocol.md §9.3): registering that way against the default flow must work.
    @Test func registersWithTheFieldsAReferenceSDKFills() async throws {
        try await Harness.run { h in
            let response = try await h.request(.get, "\(FlowTests.base)/20261121000000000001/en-US.json")
            let flow = try #require(JSONValue.parse(String(buffer: response.body)))
            let user: [String: String] = ["email": "sdk@example.com", "password": "correct horse", "displayName": "Sdk",
                                          "givenName": "Ref", "familyName": "Erence"]
            var params = Harness.registrationDefaults + [("refresh_secret", "secret-1")]
            for name in (flow["fields"]?["registrationForm"]?["fields"]?.arrayValue ?? []).compactMap(\.stringValue) {
                guard let schemaId = flow["fields"]?[name]?["schemaId"]?.stringValue, let value = user[schemaId] else { continue }
                params.append((name, value))
            }
            let answer = try await h.capture("/oauth/register_native_traditional", params)
            #expect(answer["stat"] == "ok", "\(answer.serialized())")
            #expect(answer["capture_user"]?["email"] == "sdk@example.com")
        }
    }

    @Test func codeAndTokenAddsAnAuthorizationCode() async throws {
        try await Harness.run { h in
            let answer = try await h.register(email: "code@example.com", [("response_type", "code_and_token")])
            #expect(answer["stat"] == "ok")
            #expect(answer["authorization_code"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func reportsEveryInvalidFieldTogether() async throws {
        try await Harness.run { h in
            let answer = try await h.capture("/oauth/register_native_traditional", Harness.registrationDefaults + [
                ("emailAddress", "not-an-email"), ("newPassword", "short"), ("newPasswordConfirm", "different"),
                ("displayName", String(repeating: "x", count: 65)), ("aboutMe", String(repeating: "y", count: 1001)),
                ("username", "a b"), ("birthdate[dateselect_year]", "2001"), ("birthdate[dateselect_month]", "2"),
                ("birthdate[dateselect_day]", "30"),
            ])
            #expect(answer["stat"] == "error")
            #expect(answer["code"] == 390)
            #expect(answer["error"] == "form_validation_failed")
            #expect(answer.invalidField("emailAddress") == ["Enter a valid email address."])
            #expect(answer.invalidField("newPassword") == ["Password must be at least 8 characters long."])
            #expect(answer.invalidField("newPasswordConfirm") == ["Passwords do not match."])
            #expect(answer.invalidField("displayName") == ["Display name must be at most 64 characters long."])
            #expect(answer.invalidField("aboutMe") == ["About me must be at most 1000 characters long."])
            #expect(answer.invalidField("username")?.count == 1)
            #expect(answer.invalidField("birthdate") == ["Enter a valid birthdate in the past."])
            #expect(answer.invalidField("firstName") == nil)
            let users = try await h.admin(.get, "/users").1
            #expect(users["users"] == [])
        }
    }

    @Test func requiredFieldsInBothLocales() async throws {
        try await Harness.run { h in
            let english = try await h.capture("/oauth/register_native_traditional", Harness.registrationDefaults)
            #expect(english["code"] == 390)
            #expect(english.invalidField("emailAddress") == ["Email address is required."])
            #expect(english.invalidField("newPassword") == ["Password is required."])
            #expect(english.invalidField("newPasswordConfirm") == ["Please confirm your password."])

            let french = try await h.capture(
                "/oauth/register_native_traditional", Form.merge(Harness.registrationDefaults, [("locale", "fr-FR")]))
            #expect(french.invalidField("emailAddress") == ["L’adresse e-mail est obligatoire."])
            #expect(french.invalidField("newPassword") == ["Le mot de passe est obligatoire."])
        }
    }

    @Test func birthdateMustBeInThePast() async throws {
        try await Harness.run { h in
            let answer = try await h.register(email: "future@example.com", [
                ("birthdate[dateselect_year]", "2999"), ("birthdate[dateselect_month]", "01"),
                ("birthdate[dateselect_day]", "01"),
            ])
            #expect(answer["code"] == 390)
            #expect(answer.invalidField("birthdate") == ["Enter a valid birthdate in the past."])
        }
    }

    @Test func duplicateEmailIsRefusedCaseInsensitivelyInBothLocales() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "taken@example.com")
            let english = try await h.register(email: "TAKEN@example.com")
            #expect(english["code"] == 390)
            #expect(english.invalidField("emailAddress") == ["Email address is already in use."])

            let french = try await h.register(email: "Taken@Example.com", [("locale", "fr-FR")])
            #expect(french["code"] == 390)
            #expect(french.invalidField("emailAddress") == ["Cette adresse e-mail est déjà utilisée."])
        }
    }

    @Test func duplicateEmailIsReportedWithOtherFailures() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "taken@example.com")
            let answer = try await h.register(email: "taken@example.com", password: "short")
            #expect(answer.invalidField("emailAddress") == ["Email address is already in use."])
            #expect(answer.invalidField("newPassword") == ["Password must be at least 8 characters long."])
        }
    }

    @Test func duplicateUsernameIsRefused() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "one@example.com", [("username", "Grace")])
            let answer = try await h.register(email: "two@example.com", [("username", "grace")])
            #expect(answer["code"] == 390)
            #expect(answer.invalidField("username") == ["Username is already in use."])
        }
    }

    @Test func unknownLocaleFallsBackToEnglish() async throws {
        try await Harness.run { h in
            let answer = try await h.capture(
                "/oauth/register_native_traditional", Form.merge(Harness.registrationDefaults, [("locale", "xx-YY")]))
            #expect(answer.invalidField("emailAddress") == ["Email address is required."])
        }
    }

    @Test func clientAndFlowAreChecked() async throws {
        try await Harness.run { h in
            let unknownClient = try await h.register(email: "a@example.com", [("client_id", "nobody")])
            #expect(unknownClient["code"] == 402)
            #expect(unknownClient["error"] == "invalid_client_credentials")

            let missingClient = try await h.capture("/oauth/register_native_traditional", [("emailAddress", "a@example.com")])
            #expect(missingClient["code"] == 100)
            #expect(missingClient["error"] == "missing_argument")
            #expect(missingClient["argument_name"] == "client_id")

            let wrongFlow = try await h.register(email: "a@example.com", [("flow", "other")])
            #expect(wrongFlow["code"] == 200)
            #expect(wrongFlow["argument_name"] == "flow")

            let wrongForm = try await h.register(email: "a@example.com", [("form", "noSuchForm")])
            #expect(wrongForm["code"] == 200)
            #expect(wrongForm["argument_name"] == "form")
        }
    }

    @Test func passwordIsHashedWithBcrypt() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "hash@example.com")
            let hash = try await h.emulator.store.read { db in
                try UserRow.find(email: "hash@example.com", clientId: Harness.clientId, in: db)?.passwordHash
            }
            #expect(hash?.hasPrefix("$2") == true)
            #expect(hash?.contains("correct horse") == false)
        }
    }
}
