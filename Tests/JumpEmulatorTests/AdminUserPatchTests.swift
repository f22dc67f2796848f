import Hummingbird
import Testing

@testable import JumpEmulator

/// `PATCH /emulator/users/{uuid}`: a fixture edited with the checks of `entity.update` / `entity.replace`.
@Suite("Admin: editing users")
struct AdminUserPatchTests {
    @Test func mergesLikeEntityUpdate() async throws {
        try await Harness.run { h in
            let uuid = try await Self.create(h, ["givenName": "Ada", "familyName": "Lovelace"])
            let (status, patched) = try await h.admin(.patch, "/users/\(uuid)", ["record": ["givenName": "Augusta"]])
            #expect(status == .ok, "\(patched.serialized())")
            #expect(patched["user"]?["givenName"] == "Augusta")
            #expect(patched["user"]?["familyName"] == "Lovelace")
            #expect(try await h.admin(.get, "/users/\(uuid)").1["user"] == patched["user"])
        }
    }

    @Test func replacesLikeEntityReplace() async throws {
        try await Harness.run { h in
            let uuid = try await Self.create(h, ["givenName": "Ada", "familyName": "Lovelace"])
            let (status, patched) = try await h.admin(.patch, "/users/\(uuid)", [
                "record": ["email": "patch@example.com", "givenName": "Grace"], "replace": true,
            ])
            #expect(status == .ok, "\(patched.serialized())")
            #expect(patched["user"]?["givenName"] == "Grace")
            #expect(patched["user"]?["familyName"] == .null)
        }
    }

    @Test func aRecordInThePasswordSetsIt() async throws {
        try await Harness.run { h in
            let uuid = try await Self.create(h, [:])
            #expect(try await h.admin(.patch, "/users/\(uuid)", ["record": ["password": "new pass"]]).0 == .ok)
            #expect(try await h.signIn(email: "patch@example.com", password: "new pass")["stat"] == "ok")
            // The marker a record shows for the password leaves it alone.
            let marker: JSONValue = ["type": "password-bcrypt"]
            #expect(try await h.admin(.patch, "/users/\(uuid)", ["record": ["password": marker]]).0 == .ok)
            #expect(try await h.signIn(email: "patch@example.com", password: "new pass")["stat"] == "ok")
        }
    }

    @Test func refusesWhatEntityUpdateRefusesAndChangesNothing() async throws {
        try await Harness.run { h in
            let uuid = try await Self.create(h, ["givenName": "Kept"])
            _ = try await h.admin(.post, "/users", ["email": "other@example.com", "password": "pw"])
            let before = try await h.admin(.get, "/users/\(uuid)").1["user"]
            let refusals: [(JSONValue, HTTPResponse.Status, String, Int64?)] = [
                (["record": ["givenName": "Half", "nope": 1]], .badRequest, "invalid_record", 223),
                (["record": ["uuid": "mine"]], .badRequest, "invalid_record", 234),
                (["record": ["email": "OTHER@example.com"]], .conflict, "email_taken", nil),
                (["record": ["photos": [["id": 9, "value": "x"]]], "replace": true], .badRequest, "invalid_record", 320),
                (["record": ["a", "b"]], .badRequest, "bad_request", nil),
                (["replace": true], .badRequest, "bad_request", nil),
                (["record": [:], "replace": "yes"], .badRequest, "bad_request", nil),
            ]
            for (body, status, error, code) in refusals {
                let (got, answer) = try await h.admin(.patch, "/users/\(uuid)", body)
                #expect(got == status, "\(body.serialized())")
                #expect(answer["error"] == .string(error), "\(body.serialized())")
                if let code { #expect(answer["capture_error"]?["code"] == .int(code), "\(body.serialized())") }
            }
            #expect(try await h.admin(.get, "/users/\(uuid)").1["user"] == before)
            #expect(try await h.admin(.patch, "/users/no-such-uuid", ["record": [:]]).0 == .notFound)
        }
    }

    static func create(_ h: Harness, _ record: JSONValue) async throws -> String {
        let (status, created) = try await h.admin(.post, "/users", [
            "email": "patch@example.com", "password": "old pass", "record": record,
        ])
        #expect(status == .created)
        return try #require(created["user"]?["uuid"]?.stringValue)
    }
}
