import Testing

@testable import JumpEmulator

@Suite("update_profile_native")
struct UpdateProfileTests {
    static func params(_ token: String, form: String, locale: String = "en-US", _ fields: [(String, String)]) -> [(String, String)] {
        [
            ("access_token", token), ("client_id", Harness.clientId), ("locale", locale), ("flow", "standard"),
            ("flow_version", "20261121000000000001"), ("form", form),
        ] + fields
    }

    func updateProfile(_ h: Harness, _ token: String, form: String, locale: String = "en-US", _ fields: [(String, String)])
        async throws -> JSONValue
    {
        try await h.capture("/oauth/update_profile_native", Self.params(token, form: form, locale: locale, fields))
    }

    @Test func editProfileWritesThroughSchemaIds() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada"), ("aboutMe", "Hello")])
            let answer = try await updateProfile(h, token, form: "editProfileForm", [
                ("firstName", "Augusta"), ("lastName", "King"), ("birthdate[dateselect_year]", "1815"),
                ("birthdate[dateselect_month]", "12"), ("birthdate[dateselect_day]", "10"), ("aboutMe", ""),
            ])
            #expect(answer == ["stat": "ok"])
            let record = try #require(try await h.entity(token)["result"])
            #expect(record["givenName"] == "Augusta")
            #expect(record["familyName"] == "King")
            #expect(record["birthday"] == "1815-12-10")
            #expect(record["displayName"] == "Ada")  // not sent: left alone
            #expect(record["aboutMe"] == .null)  // sent blank: cleared
        }
    }

    @Test func validationErrorsInTheRequestLocale() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada")])
            let long = String(repeating: "x", count: 65)
            let fields: [(String, String)] = [
                ("displayName", long), ("birthdate[dateselect_year]", "2999"), ("birthdate[dateselect_month]", "1"),
                ("birthdate[dateselect_day]", "1"), ("firstName", "Fine"),
            ]
            let english = try await updateProfile(h, token, form: "editProfileForm", fields)
            #expect(english["code"] == 390)
            #expect(english["error"] == "form_validation_failed")
            #expect(english.invalidField("displayName") == [DefaultFlowTexts.english.displayNameTooLong])
            #expect(english.invalidField("birthdate") == [DefaultFlowTexts.english.birthdateInvalid])
            #expect(english.invalidField("firstName") == nil)

            let french = try await updateProfile(h, token, form: "editProfileForm", locale: "fr-FR", fields)
            #expect(french.invalidField("displayName") == ["Le nom affiché ne doit pas dépasser 64 caractères."])
            #expect(french.invalidField("birthdate") == [DefaultFlowTexts.french.birthdateInvalid])

            // Nothing was written.
            let record = try await h.entity(token)["result"]
            #expect(record?["displayName"] == "Ada")
            #expect(record?["givenName"] == .null)
        }
    }

    @Test func changePasswordChecksTheCurrentPassword() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let wrong = try await updateProfile(h, token, form: "changePasswordForm", [
                ("currentPassword", "not it"), ("newPassword", "brand new pass"), ("newPasswordConfirm", "brand new pass"),
            ])
            #expect(wrong["code"] == 390)
            #expect(wrong.invalidField("currentPassword") == ["The current password is incorrect."])
            let wrongFrench = try await updateProfile(h, token, form: "changePasswordForm", locale: "fr-FR", [
                ("currentPassword", "not it"), ("newPassword", "short"), ("newPasswordConfirm", "other"),
            ])
            #expect(wrongFrench.invalidField("currentPassword") == ["Le mot de passe actuel est incorrect."])
            #expect(wrongFrench.invalidField("newPassword") == [DefaultFlowTexts.french.passwordTooShort])
            #expect(wrongFrench.invalidField("newPasswordConfirm") == [DefaultFlowTexts.french.passwordsDiffer])
            let missing = try await updateProfile(h, token, form: "changePasswordForm", [])
            #expect(missing.invalidField("currentPassword") == [DefaultFlowTexts.english.passwordRequired])
            #expect(missing.invalidField("newPassword") == [DefaultFlowTexts.english.passwordRequired])
            #expect(try await h.signIn(email: "ada@example.com", password: "correct horse")["stat"] == "ok")

            let right = try await updateProfile(h, token, form: "changePasswordForm", [
                ("currentPassword", "correct horse"), ("newPassword", "brand new pass"), ("newPasswordConfirm", "brand new pass"),
            ])
            #expect(right == ["stat": "ok"])
            #expect(try await h.signIn(email: "ada@example.com", password: "correct horse")["code"] == 210)
            #expect(try await h.signIn(email: "ada@example.com", password: "brand new pass")["stat"] == "ok")
        }
    }

    @Test func changePasswordWithoutTheCurrentOne() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let mismatch = try await updateProfile(h, token, form: "changePasswordFormNoAuth", [
                ("newPassword", "brand new pass"), ("newPasswordConfirm", "brand new pasS"),
            ])
            #expect(mismatch.invalidField("newPasswordConfirm") == [DefaultFlowTexts.english.passwordsDiffer])
            let ok = try await updateProfile(h, token, form: "changePasswordFormNoAuth", [
                ("newPassword", "brand new pass"), ("newPasswordConfirm", "brand new pass"),
            ])
            #expect(ok == ["stat": "ok"])
            #expect(try await h.signIn(email: "ada@example.com", password: "brand new pass")["stat"] == "ok")
        }
    }

    @Test func formsAndTokensThatDoNotFit() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let unknown = try await updateProfile(h, token, form: "noSuchForm", [])
            #expect(unknown["code"] == 200)
            #expect(unknown["argument_name"] == "form")
            let signIn = try await updateProfile(h, token, form: "signInForm", [("signInEmailAddress", "x@example.com")])
            #expect(signIn["argument_name"] == "form")
            let registration = try await updateProfile(h, token, form: "registrationForm", [])
            #expect(registration["argument_name"] == "form")
            let noForm = try await h.capture("/oauth/update_profile_native", [("access_token", token), ("client_id", Harness.clientId)])
            #expect(noForm["code"] == 100)
            #expect(noForm["argument_name"] == "form")
            let badToken = try await updateProfile(h, "nope", form: "editProfileForm", [])
            #expect(badToken["argument_name"] == "access_token")
            let badFlow = try await h.capture(
                "/oauth/update_profile_native", Self.params(token, form: "editProfileForm", []) + [("flow", "other")])
            #expect(badFlow["argument_name"] == "flow")
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 3600])
            #expect(try await updateProfile(h, token, form: "editProfileForm", [])["code"] == 414)
        }
    }

    @Test func uniqueFieldsOfCustomFlowsAreReportedOnTheField() async throws {
        try await Harness.run { h in
            let flow: JSONValue = [
                "fields": [
                    "signIn": ["fields": ["email", "pw"]],
                    "register": ["fields": ["email", "pw", "nick"]],
                    "edit": ["fields": ["nick", "email"]],
                    "email": ["type": "email", "schemaId": "email"],
                    "pw": ["type": "password", "schemaId": "password"],
                    "nick": ["type": "text", "schemaId": "username", "validation": [["rule": "unique", "message": "Nick taken"]]],
                ],
            ]
            _ = try await h.admin(.post, "/apps", ["client_id": "c", "capture_app_id": "c-app", "flow": flow, "locales": ["en-US"]])
            let register: [(String, String)] = [("client_id", "c"), ("form", "register")]
            _ = try await h.capture("/oauth/register_native_traditional", register + [("email", "a@x.org"), ("pw", "p"), ("nick", "alpha")])
            let second = try await h.capture(
                "/oauth/register_native_traditional", register + [("email", "b@x.org"), ("pw", "p"), ("nick", "beta")])
            let token = try #require(second["access_token"]?.stringValue)
            let taken = try await h.capture("/oauth/update_profile_native", [
                ("access_token", token), ("client_id", "c"), ("form", "edit"), ("nick", "ALPHA"), ("email", "a@x.org"),
            ])
            #expect(taken["code"] == 390)
            #expect(taken.invalidField("nick") == ["Nick taken"])
            #expect(taken.invalidField("email") == ["Email address is already in use."])
            let ok = try await h.capture("/oauth/update_profile_native", [
                ("access_token", token), ("client_id", "c"), ("form", "edit"), ("nick", "gamma"),
            ])
            #expect(ok["stat"] == "ok")
            #expect(try await h.entity(token)["result"]?["username"] == "gamma")
        }
    }
}
