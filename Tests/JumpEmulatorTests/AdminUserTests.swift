import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Admin: users")
struct AdminUserTests {
    @Test func createsAUserThatCanSignIn() async throws {
        try await Harness.run { h in
            let (status, created) = try await h.admin(.post, "/users", [
                "email": "fixture@example.com", "password": "fixture pass",
                "record": ["displayName": "Fixture", "primaryAddress": ["city": "Lyon"]],
            ])
            #expect(status == .created)
            let user = try #require(created["user"])
            #expect(user["email"] == "fixture@example.com")
            #expect(user["displayName"] == "Fixture")
            #expect(user["primaryAddress"]?["city"] == "Lyon")
            #expect(user["password"] == ["type": "password-bcrypt"])
            #expect(user["id"] == 1)

            let signIn = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "fixture@example.com"), ("currentPassword", "fixture pass"),
            ])
            #expect(signIn["stat"] == "ok")

            let uuid = try #require(user["uuid"]?.stringValue)
            let (getStatus, fetched) = try await h.admin(.get, "/users/\(uuid)")
            #expect(getStatus == .ok)
            #expect(fetched["user"]?["email"] == "fixture@example.com")
            #expect(fetched["active_sessions"] == 1)
        }
    }

    @Test func refusesDuplicatesAndBadRecords() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/users", ["email": "dup@example.com", "password": "x"])
            let (status, body) = try await h.admin(.post, "/users", ["email": "DUP@example.com", "password": "y"])
            #expect(status == .conflict)
            #expect(body["error"] == "email_taken")
            #expect(body["message"]?.stringValue?.isEmpty == false)

            let (badStatus, bad) = try await h.admin(.post, "/users", ["email": "a@example.com", "record": ["nope": 1]])
            #expect(badStatus == .badRequest)
            #expect(bad["capture_error"]?["code"] == 223)

            #expect(try await h.admin(.post, "/users", ["password": "x"]).0 == .badRequest)
            #expect(try await h.admin(.post, "/users", ["email": "a@example.com", "client_id": "nope"]).0 == .notFound)
            let notJSON = try await h.request(.post, "/emulator/users", body: "{oops", contentType: "application/json")
            #expect(notJSON.status == .badRequest)
        }
    }

    @Test func listsGetsAndDeletesUsers() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "one@example.com")
            _ = try await h.admin(.post, "/users", ["email": "two@example.com", "password": "pw"])
            let all = try await h.admin(.get, "/users?client_id=\(Harness.clientId)").1["users"]?.arrayValue ?? []
            let emails = all.map { $0["email"] }
            #expect(emails == ["one@example.com", "two@example.com"])

            let uuid = try #require(all[0]["uuid"]?.stringValue)
            #expect(try await h.admin(.delete, "/users/\(uuid)").0 == .ok)
            #expect(try await h.admin(.get, "/users/\(uuid)").0 == .notFound)
            #expect(try await h.admin(.delete, "/users/\(uuid)").0 == .notFound)

            let (status, deleted) = try await h.admin(.delete, "/users")
            #expect(status == .ok)
            #expect(deleted["deleted"] == 1)
            #expect(try await h.admin(.get, "/users").1["users"] == [])
        }
    }

    @Test func deletingAUserEndsItsSessions() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "gone@example.com")
            _ = try await h.admin(.delete, "/users")
            #expect(try await h.entity(token)["code"] == 200)
        }
    }
}
