import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Admin: apps, settings, clock, reset")
struct AdminAppTests {
    @Test func listsTheDefaultApp() async throws {
        try await Harness.run { h in
            let (status, body) = try await h.admin(.get, "/apps")
            #expect(status == .ok)
            let apps = body["apps"]?.arrayValue ?? []
            #expect(apps.count == 1)
            #expect(apps.first?["client_id"] == "jump-default-client")
            #expect(apps.first?["capture_app_id"] == "default-app")
            #expect(apps.first?["flow_name"] == "standard")
            #expect(apps.first?["flow_version"] == "20261121000000000001")
            #expect(apps.first?["locales"] == ["en-US", "fr-FR"])
            #expect(apps.first?["thin_registration"] == false)
            #expect(apps.first?["engage_app_id"] == "jump-default-engage")
            #expect(apps.first?["client_secret"] == "jump-default-secret")
            #expect(apps.first?["password_recover_url"] == .null)
        }
    }

    @Test func aVersion1DatabaseIsUpgradedInPlace() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("emu-v1-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let old = try Store.open(path: path, upTo: "v1")
        try await old.write { db in
            try db.execute(sql: """
                INSERT INTO apps (client_id, capture_app_id, flow_name, flow_version, locales, is_default)
                VALUES ('jump-default-client', 'default-app', 'standard', '1', '["en-US"]', 1),
                       ('extra', 'extra-app', 'standard', '1', '["en-US"]', 0);
                """)
        }
        let emulator = try await Emulator.open(EmulatorOptions(databasePath: path, passwordHashCost: 4))
        let apps = try await AdminApps(emulator: emulator).list()["apps"]?.arrayValue ?? []
        #expect(apps.first { $0["client_id"] == "jump-default-client" }?["client_secret"] == "jump-default-secret")
        let extra = apps.first { $0["client_id"] == "extra" }?["client_secret"]?.stringValue
        #expect(extra?.count == 32)
    }

    @Test func appsHaveClientSecretsAndResetLinks() async throws {
        try await Harness.run { h in
            let (_, given) = try await h.admin(.post, "/apps", [
                "client_id": "one", "capture_app_id": "one-app", "client_secret": "s3cret",
                "password_recover_url": "https://example.com/reset?lang=en",
            ])
            #expect(given["client_secret"] == "s3cret")
            #expect(given["password_recover_url"] == "https://example.com/reset?lang=en")
            let (_, made) = try await h.admin(.post, "/apps", ["client_id": "two", "capture_app_id": "two-app"])
            let secret = try #require(made["client_secret"]?.stringValue)
            #expect(secret.count >= 32)

            // The secret authenticates the client; the reset link uses the app's page.
            let schema = try await h.capture("/entityType.getAccessSchema", [
                ("client_id", "two"), ("client_secret", secret), ("access_type", "write_with_token"),
            ])
            #expect(schema["stat"] == "ok")
            _ = try await h.admin(.post, "/users", ["client_id": "one", "email": "u@example.com", "password": "pw"])
            let forgot = try await h.capture("/oauth/forgot_password_native", [
                ("client_id", "one"), ("form", "forgotPasswordForm"), ("signInEmailAddress", "u@example.com"),
            ])
            #expect(forgot["stat"] == "ok")
            let email = try #require(try await h.emails().last)
            let code = try #require(email["code"]?.stringValue)
            #expect(email["link"] == .string("https://example.com/reset?lang=en&code=\(code)"))
        }
    }

    @Test func createsAnAppWithACustomFlowAndSchema() async throws {
        try await Harness.run { h in
            let flow: JSONValue = [
                "version": "7",
                "fields": [
                    "signUp": ["fields": ["email", "pw", "nickname"]],
                    "email": ["type": "email", "schemaId": "email", "validation": [["rule": "required", "message": "Need email"]]],
                    "pw": ["type": "password", "schemaId": "password"],
                    "nickname": ["type": "text", "schemaId": "nick", "validation": [["rule": "maxLength", "value": 5, "message": "Too long"]]],
                ],
            ]
            let schema: JSONValue = [
                "name": "user",
                "attr_defs": [
                    ["name": "email", "type": "string", "constraints": ["unique"], "case-sensitive": false],
                    ["name": "password", "type": "password"],
                    ["name": "nick", "type": "string", "length": 10],
                    ["name": "level", "type": "integer"],
                ],
            ]
            let (status, app) = try await h.admin(.post, "/apps", [
                "client_id": "custom-client", "capture_app_id": "custom-app", "flow_name": "mini", "locales": ["en-US"],
                "flow": flow, "schema": schema, "thin_registration": true,
            ])
            #expect(status == .created)
            #expect(app["client_id"] == "custom-client")
            #expect(app["flow_version"] == "7")
            #expect(app["thin_registration"] == true)
            #expect(app["custom_flow"] == true)
            #expect(try await h.admin(.post, "/apps", ["client_id": "custom-client", "capture_app_id": "x"]).0 == .conflict)

            let served = try await h.request(.get, "/widget_data/flows/custom-app/mini/7/en-US.json")
            #expect(served.status == .ok)
            #expect(try await h.request(.get, "/widget_data/flows/custom-app/mini/7/fr-FR.json").status == .notFound)

            let base: [(String, String)] = [("client_id", "custom-client"), ("form", "signUp"), ("flow", "mini")]
            let invalid = try await h.capture("/oauth/register_native_traditional", base + [("nickname", "toolongnick")])
            #expect(invalid.invalidField("email") == ["Need email"])
            #expect(invalid.invalidField("nickname") == ["Too long"])

            let ok = try await h.capture(
                "/oauth/register_native_traditional", base + [("email", "c@example.com"), ("pw", "pw"), ("nickname", "cee")])
            #expect(ok["stat"] == "ok")
            let record = try #require(ok["capture_user"])
            #expect(record["nick"] == "cee")
            #expect(record["level"] == .null)
            #expect(record["displayName"] == nil)
            let token = try #require(ok["access_token"]?.stringValue)
            #expect(try await h.update(token, ["level": "high"])["code"] == 341)
            #expect(try await h.update(token, ["level": 3])["stat"] == "ok")
            #expect(try await h.update(token, ["displayName": "x"])["code"] == 223)

            // The same email in another app is fine: uniqueness is per app.
            _ = try await h.registeredToken(email: "c@example.com")

            let (resetStatus, reset) = try await h.admin(.post, "/apps/custom-client/reset")
            #expect(resetStatus == .ok)
            #expect(reset["deleted_users"] == 1)
            #expect(try await h.admin(.get, "/users?client_id=custom-client").1["users"] == [])
            #expect(try await h.admin(.get, "/users").1["users"]?.arrayValue?.count == 1)
            #expect(try await h.entity(token)["code"] == 200)
            #expect(try await h.admin(.post, "/apps/nobody/reset").0 == .notFound)
        }
    }

    @Test func refusesBadApps() async throws {
        try await Harness.run { h in
            let (status, body) = try await h.admin(.post, "/apps", ["capture_app_id": "x"])
            #expect(status == .badRequest)
            #expect(body["message"] == "client_id is required")
            #expect(try await h.admin(.post, "/apps", ["client_id": "c", "capture_app_id": "x", "flow": "nope"]).0 == .badRequest)
            let badSchema: JSONValue = ["attr_defs": [["name": "x", "type": "bogus"]]]
            #expect(try await h.admin(.post, "/apps", ["client_id": "c", "capture_app_id": "x", "schema": badSchema]).0 == .badRequest)
            #expect(try await h.admin(.delete, "/apps/jump-default-client").0 == .conflict)
        }
    }

    @Test func settingsAndClock() async throws {
        try await Harness.run { h in
            // The sign-in-token settings sit beside it (SignInTokenAdminTests).
            #expect(try await h.admin(.get, "/settings").1["access_token_lifetime"] == 3600)
            let (status, updated) = try await h.admin(.post, "/settings", ["access_token_lifetime": 5])
            #expect(status == .ok)
            #expect(updated["access_token_lifetime"] == 5)
            #expect(try await h.register(email: "a@example.com")["expires_in"] == 5)
            #expect(try await h.admin(.post, "/settings", ["access_token_lifetime": 0]).0 == .badRequest)

            let before = try await h.admin(.get, "/clock").1
            #expect(before["offset_seconds"] == 0)
            let now = try #require(before["now"]?.doubleValue)
            let advanced = try await h.admin(.post, "/clock", ["advance_seconds": 100]).1
            #expect(advanced["offset_seconds"] == 100)
            let later = try #require(advanced["now"]?.doubleValue)
            #expect(later - now >= 100)
            #expect(try await h.admin(.post, "/clock", ["offset_seconds": -50]).1["offset_seconds"] == -50)
            #expect(try await h.admin(.post, "/clock", [:]).0 == .badRequest)
            #expect(try await h.admin(.post, "/clock", ["offset_seconds": .double(1e300)]).0 == .badRequest)
            #expect(try await h.admin(.post, "/clock", ["advance_seconds": "soon"]).0 == .badRequest)
        }
    }

    @Test func resetRestoresAFreshStart() async throws {
        try await Harness.run(tokenLifetime: 120) { h in
            let token = try await h.registeredToken(email: "a@example.com")
            _ = try await h.admin(.post, "/apps", ["client_id": "extra", "capture_app_id": "extra-app"])
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 1000])
            _ = try await h.admin(.post, "/settings", ["access_token_lifetime": 9])
            _ = try await h.admin(.post, "/faults", ["kind": "html", "path": "/nowhere"])

            let (status, body) = try await h.admin(.post, "/reset")
            #expect(status == .ok)
            #expect(body["reset"] == true)
            #expect(try await h.admin(.get, "/apps").1["apps"]?.arrayValue?.count == 1)
            #expect(try await h.admin(.get, "/users").1["users"] == [])
            #expect(try await h.admin(.get, "/faults").1["faults"] == [])
            #expect(try await h.admin(.get, "/counters").1["counters"] == [:])
            #expect(try await h.admin(.get, "/clock").1["offset_seconds"] == 0)
            #expect(try await h.admin(.get, "/settings").1["access_token_lifetime"] == 120)
            #expect(try await h.entity(token)["code"] == 200)

            // Ids start again at 1.
            let again = try await h.register(email: "a@example.com")
            #expect(again["capture_user"]?["id"] == 1)
        }
    }

    @Test func unknownAdminPathsAnswerInTheAdminShape() async throws {
        try await Harness.run { h in
            let (status, body) = try await h.admin(.get, "/nothing-here")
            #expect(status == .notFound)
            #expect(body["error"] == "not_found")
            #expect(body["message"] != nil)
        }
    }
}
