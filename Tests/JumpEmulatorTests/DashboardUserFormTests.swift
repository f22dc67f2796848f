import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

/// The dashboard's user, reset and export forms, posted as the browser posts them (test_dashboard_browser.py
/// drives them in Chromium).
@Suite("Dashboard: users, reset and export forms")
struct DashboardUserFormTests {
    @Test func creatingEditingAndDeletingAUser() async throws {
        try await Harness.run { h in
            let created = try await h.postForm("/emulator/ui/users", [
                ("client_id", Harness.clientId), ("email", "form@example.com"), ("password", "form pass"),
                ("display_name", "Form"), ("record", #"{"givenName": "Forma"}"#),
            ])
            #expect(created.status == .seeOther)
            let users = try await h.admin(.get, "/users").1["users"]?.arrayValue ?? []
            let user = try #require(users.first)
            let uuid = try #require(user["uuid"]?.stringValue)
            #expect(created.headers[.location] == "/emulator/ui/users#user-\(uuid)")
            #expect(user["displayName"] == "Form" && user["givenName"] == "Forma")
            #expect(try await h.signIn(email: "form@example.com", password: "form pass")["stat"] == "ok")

            let editPage = String(buffer: try await h.get("/emulator/ui/users/\(uuid)").body)
            #expect(editPage.contains("id=\"edit-record\""))
            #expect(editPage.contains("&quot;givenName&quot;: &quot;Forma&quot;"))
            #expect(!editPage.contains("&quot;uuid&quot;:"))

            let edited = try await h.postForm("/emulator/ui/users/\(uuid)", [
                ("record", #"{"familyName": "Formsworth"}"#), ("mode", "merge"),
            ])
            #expect(edited.status == .seeOther)
            let after = try await h.admin(.get, "/users/\(uuid)").1["user"]
            #expect(after?["givenName"] == "Forma" && after?["familyName"] == "Formsworth")

            let confirmPage = try await h.get("/emulator/ui/users/\(uuid)/delete")
            #expect(confirmPage.status == .ok)
            #expect(String(buffer: confirmPage.body).contains("id=\"confirm-delete\""))
            let unconfirmed = try await h.postForm("/emulator/ui/users/\(uuid)/delete", [])
            #expect(unconfirmed.status == .badRequest)
            #expect(try await h.admin(.get, "/users/\(uuid)").0 == .ok)
            let deleted = try await h.postForm("/emulator/ui/users/\(uuid)/delete", [("confirm", "yes")])
            #expect(deleted.status == .seeOther)
            #expect(deleted.headers[.location] == "/emulator/ui/users")
            #expect(try await h.admin(.get, "/users/\(uuid)").0 == .notFound)
            #expect(try await h.get("/emulator/ui/users/\(uuid)").status == .notFound)
        }
    }

    @Test func refusedFormsShowTheErrorAndKeepTheText() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/users", ["email": "taken@example.com", "password": "pw"])
            let taken = try await h.postForm("/emulator/ui/users", [
                ("client_id", Harness.clientId), ("email", "taken@example.com"), ("record", #"{"givenName": "<b>"}"#),
            ])
            #expect(taken.status == .conflict)
            let page = String(buffer: taken.body)
            #expect(page.contains("id=\"users-error\""))
            #expect(page.contains("already has the email taken@example.com"))
            #expect(page.contains("{&quot;givenName&quot;: &quot;&lt;b&gt;&quot;}</textarea>"))

            let notJSON = try await h.postForm("/emulator/ui/users", [
                ("client_id", Harness.clientId), ("email", "new@example.com"), ("record", "{oops"),
            ])
            #expect(notJSON.status == .badRequest)
            #expect(String(buffer: notJSON.body).contains("the record is not valid JSON"))
            let twice = try await h.postForm("/emulator/ui/users", [
                ("client_id", Harness.clientId), ("email", "new@example.com"), ("display_name", "A"),
                ("record", #"{"displayName": "B"}"#),
            ])
            #expect(twice.status == .badRequest)
            #expect(try await h.admin(.get, "/users").1["users"]?.arrayValue?.count == 1)

            let remaining = try await h.admin(.get, "/users").1["users"]?.arrayValue ?? []
            let uuid = try #require(remaining.first?["uuid"]?.stringValue)
            let bad = try await h.postForm("/emulator/ui/users/\(uuid)", [("record", #"{"birthday": "someday"}"#)])
            #expect(bad.status == .badRequest)
            #expect(String(buffer: bad.body).contains("id=\"user-error\""))
            #expect(String(buffer: bad.body).contains("someday"))
            let badMode = try await h.postForm("/emulator/ui/users/\(uuid)", [("record", "{}"), ("mode", "smash")])
            #expect(badMode.status == .badRequest)
            #expect(try await h.postForm("/emulator/ui/users/nobody", [("record", "{}")]).status == .notFound)
        }
    }

    @Test func resetNeedsTheConfirmation() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/users", ["email": "gone@example.com", "password": "pw"])
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 3600])
            #expect(try await h.get("/emulator/ui/reset").status == .ok)
            let unconfirmed = try await h.postForm("/emulator/ui/reset", [])
            #expect(unconfirmed.status == .badRequest)
            #expect(try await h.admin(.get, "/users").1["users"]?.arrayValue?.count == 1)
            let reset = try await h.postForm("/emulator/ui/reset", [("confirm", "yes")])
            #expect(reset.status == .seeOther)
            #expect(reset.headers[.location] == "/emulator")
            #expect(try await h.admin(.get, "/users").1["users"] == [])
            #expect(h.emulator.clock.offsetSeconds == 0)
        }
    }

    @Test func exportIsTheExportDocumentAsAnAttachment() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/users", ["email": "kept@example.com", "password": "pw"])
            let download = try await h.postForm("/emulator/ui/export", [])
            #expect(download.status == .ok)
            #expect(download.headers[.contentDisposition] == "attachment; filename=\"jump-emulator-export.json\"")
            #expect(download.headers[.contentType] == "application/json")
            let admin = try await h.request(.post, "/emulator/export")
            #expect(admin.status == .ok)
            #expect(admin.headers[.contentDisposition] == nil)
            let expected = String(decoding: try await h.emulator.exportDocument().encoded(), as: UTF8.self)
            #expect(String(buffer: download.body) == expected)
            #expect(String(buffer: admin.body) == expected)
        }
    }
}
