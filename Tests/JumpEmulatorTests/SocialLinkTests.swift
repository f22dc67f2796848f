import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

/// Linking and unlinking identities (docs/protocol.md §6.7), and the identity index following the record.
@Suite("link_account_native, unlink_account_native")
struct SocialLinkTests {
    static func link(_ h: Harness, _ accessToken: String, _ token: String) async throws -> JSONValue {
        try await h.capture("/oauth/link_account_native", [
            ("client_id", Harness.clientId), ("locale", "en-US"), ("redirect_uri", "http://localhost/done"),
            ("response_type", "token"), ("access_token", accessToken), ("token", token),
        ])
    }

    static func unlink(_ h: Harness, _ accessToken: String, _ identifier: String) async throws -> JSONValue {
        try await h.capture("/oauth/unlink_account_native", [
            ("client_id", Harness.clientId), ("locale", "en-US"), ("access_token", accessToken),
            ("identifier_to_remove", identifier),
        ])
    }

    static func identifiers(_ h: Harness, _ accessToken: String) async throws -> [String] {
        let profiles = try await h.entity(accessToken)["result"]?["profiles"]?.arrayValue ?? []
        return profiles.compactMap { $0["identifier"]?.stringValue }
    }

    @Test func linksAnIdentityOnce() async throws {
        try await Harness.run { h in
            let access = try await h.registeredToken(email: "ada@example.com")
            let token = try await h.engageToken(email: "ada@elsewhere.example")
            let answer = try await Self.link(h, access, token)
            #expect(answer == ["stat": "ok"])
            #expect(try await Self.identifiers(h, access) == ["https://facebook.example/1"])
            #expect(try await h.engageTokenRow(token)?.captureState == "used")

            // The same identity again changes nothing.
            #expect(try await Self.link(h, access, try await h.engageToken())["stat"] == "ok")
            #expect(try await Self.identifiers(h, access) == ["https://facebook.example/1"])

            // It signs in to the account now.
            let signIn = try await h.authNative(try await h.engageToken())
            #expect(signIn["stat"] == "ok")
            #expect(signIn["capture_user"]?["email"] == "ada@example.com")

            let spent = try await Self.link(h, access, token)
            #expect(spent["code"] == 200)
            #expect(spent["argument_name"] == "token")
            let noAccess = try await h.capture("/oauth/link_account_native", [("token", try await h.engageToken())])
            #expect(noAccess["code"] == 100)
            #expect(noAccess["argument_name"] == "access_token")
        }
    }

    @Test func anIdentityOfAnotherAccountIs361() async throws {
        try await Harness.run { h in
            _ = try await h.socialUser()
            let grace = try await h.registeredToken(email: "grace@example.com")
            let answer = try await Self.link(h, grace, try await h.engageToken())
            #expect(answer == [
                "stat": "error", "code": 361, "error": "unique_violation",
                "error_description": "this identity is already linked to another account",
                "attribute_name": "/profiles/identifier",
            ])
            #expect(try await Self.identifiers(h, grace) == [])
        }
    }

    @Test func unlinksButNeverTheLastSignInMethod() async throws {
        try await Harness.run { h in
            let social = try await h.socialUser()
            let access = try #require(social["access_token"]?.stringValue)

            let unknown = try await Self.unlink(h, access, "https://facebook.example/nope")
            #expect(unknown["code"] == 200)
            #expect(unknown["argument_name"] == "identifier_to_remove")

            let last = try await Self.unlink(h, access, "https://facebook.example/1")
            #expect(last["stat"] == "error")
            #expect(last["code"] == 360)
            #expect(last["error"] == "constraint_violation")
            #expect(last["error_description"] == "at least one sign-in method must remain")

            let google = try await h.engageToken(provider: "google", identifier: "https://google.example/7")
            #expect(try await Self.link(h, access, google)["stat"] == "ok")
            #expect(try await Self.unlink(h, access, "https://facebook.example/1") == ["stat": "ok"])
            #expect(try await Self.identifiers(h, access) == ["https://google.example/7"])
            #expect(try await h.identityRows().map(\.identifier) == ["https://google.example/7"])
            #expect(try await h.authNative(try await h.engageToken())["code"] == 380)
            #expect(try await Self.unlink(h, access, "https://google.example/7")["code"] == 360)

            let missing = try await h.capture("/oauth/unlink_account_native", [("access_token", access)])
            #expect(missing["argument_name"] == "identifier_to_remove")
        }
    }

    @Test func anAccountWithAPasswordMayUnlinkItsLastIdentity() async throws {
        try await Harness.run { h in
            let access = try await h.registeredToken(email: "ada@example.com")
            _ = try await Self.link(h, access, try await h.engageToken())
            #expect(try await Self.unlink(h, access, "https://facebook.example/1")["stat"] == "ok")
            #expect(try await Self.identifiers(h, access) == [])
            #expect(try await h.identityRows().isEmpty)
        }
    }

    @Test func entityWritesKeepTheIndexInStep() async throws {
        try await Harness.run { h in
            let access = try await h.registeredToken(email: "ada@example.com")
            let added = try await h.update(access, ["profiles": [["identifier": "https://twitter.example/3", "domain": "twitter.com"]]])
            #expect(added["stat"] == "ok")
            #expect(try await h.identityRows().map(\.provider) == ["twitter"])
            let twitter = try await h.engageToken(provider: "twitter", identifier: "https://twitter.example/3", email: nil)
            #expect(try await h.authNative(twitter)["capture_user"]?["email"] == "ada@example.com")

            // A replace swaps the identities.
            let replaced = try await h.replace(access, [["identifier": "https://google.example/4", "domain": "google.com"]],
                                               attributeName: "profiles")
            #expect(replaced["stat"] == "ok")
            #expect(try await h.identityRows().map(\.identifier) == ["https://google.example/4"])
            let oldTwitter = try await h.engageToken(provider: "twitter", identifier: "https://twitter.example/3", email: nil)
            #expect(try await h.authNative(oldTwitter)["code"] == 310)

            // A delete of the element drops it.
            let element = try #require(try await h.entity(access)["result"]?["profiles"]?[0]?["id"]?.intValue)
            #expect(try await h.delete(access, "/profiles#\(element)")["stat"] == "ok")
            #expect(try await h.identityRows().isEmpty)

            // Replacing the root with what was read leaves the password alone.
            let record = try #require(try await h.entity(access)["result"]?.objectValue)
            var written = record
            for reserved in ["id", "uuid", "created", "lastUpdated"] { written.removeValue(forKey: reserved) }
            #expect(try await h.replace(access, .object(written))["stat"] == "ok")
            #expect(try await h.signIn(email: "ada@example.com", password: "correct horse")["stat"] == "ok")
        }
    }

    @Test func deletedUsersAndResetsTakeTheirIdentities() async throws {
        try await Harness.run { h in
            let social = try await h.socialUser()
            let uuid = try #require(social["capture_user"]?["uuid"]?.stringValue)
            _ = try await h.socialUser(provider: "google", identifier: "https://google.example/7", email: "grace@example.com")
            #expect(try await h.identityRows().count == 2)

            #expect(try await h.admin(.delete, "/users/\(uuid)").0 == .ok)
            #expect(try await h.identityRows().map(\.identifier) == ["https://google.example/7"])
            #expect(try await h.authNative(try await h.engageToken())["code"] == 310)

            #expect(try await h.admin(.post, "/reset").0 == .ok)
            #expect(try await h.identityRows().isEmpty)
        }
    }

    @Test func adminFixturesWithProfilesAreFound() async throws {
        try await Harness.run { h in
            let (status, _) = try await h.admin(.post, "/users", [
                "email": "ada@example.com",
                "record": ["profiles": [["identifier": "https://facebook.example/1", "domain": "facebook.com"]]],
            ])
            #expect(status == .created)
            let answer = try await h.authNative(try await h.engageToken())
            #expect(answer["stat"] == "ok")
            #expect(answer["capture_user"]?["email"] == "ada@example.com")
        }
    }

    @Test func anOlderDatabaseGetsItsProfilesIndexed() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("emu-v4-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let old = try Store.open(path: path, upTo: "v4")
        try await old.write { db in
            try db.execute(sql: """
                INSERT INTO apps (client_id, capture_app_id, flow_name, flow_version, locales, is_default, engage_app_id)
                VALUES ('jump-default-client', 'default-app', 'standard', '20261121000000000001', '["en-US"]', 1,
                        'jump-default-engage');
                INSERT INTO users (uuid, client_id, email_lower, record, created, last_updated, next_element_id)
                VALUES ('u-1', 'jump-default-client', 'ada@example.com',
                        '{"email":"ada@example.com","profiles":[{"id":1,"identifier":"https://google.example/4","domain":"google.com"}]}',
                        0, 0, 2);
                """)
        }
        let emulator = try await Emulator.open(EmulatorOptions(databasePath: path, passwordHashCost: 4))
        let rows = try await emulator.store.read { db in try UserIdentityRow.fetchAll(db) }
        #expect(rows == [UserIdentityRow(clientId: "jump-default-client", identifier: "https://google.example/4", userId: 1, provider: "google")])
    }
}
