import Foundation
import Testing
@testable import JumpCore

/// The record model against a real emulator: plurals, the minimal sync, the journal across restarts,
/// schema checks and conflicts.
@Suite(.serialized) struct RecordSyncIntegrationTests {
    let emulator: EmulatorProcess

    init() throws { emulator = try EmulatorProcess() }

    /// A user with plural elements (registration makes none), signed in; counters cleared.
    func signedIn(storage: String? = nil) throws -> (JumpClient, String, String) {
        let email = EmulatorProcess.uniqueEmail("plural")
        let record: JSON = [
            "photos": [["value": "a.png"], ["value": "b.png"]],
            "profiles": [["identifier": .string("id-" + email), "friends": [["displayName": "Bo"]]]],
        ]
        let created = try emulator.admin("POST", "/emulator/users", ["email": .string(email), "password": "correct horse 1",
                                                                     "record": record])
        let uuid = try #require(created["user"]?["uuid"]?.stringValue)
        let client = try JumpClient(config: emulator.config(storage: storage))
        _ = try client.capture.signIn(user: email, password: "correct horse 1")
        try emulator.admin("DELETE", "/emulator/counters")
        return (client, uuid, email)
    }

    func entityCalls() throws -> [String: Int64] {
        var calls: [String: Int64] = [:]
        for (key, value) in try emulator.admin("GET", "/emulator/counters")["counters"]?.objectValue ?? [:]
        where key.hasPrefix("POST /entity.") {
            calls[key] = value.intValue ?? 0
        }
        return calls
    }

    @Test func rootElementAndPluralAreThreeRequests() throws {
        let (client, uuid, _) = try signedIn()
        let view = try client.capture.recordView()
        let first = try #require(try view.elementPaths("/photos").first)
        try view.set("/aboutMe", to: "a")
        try view.set(first + "/value", to: "c.png")
        let added = try view.append(["status": "hi"], to: "/statuses")
        #expect(added == "/statuses#-1")
        let result = try client.capture.sync()
        #expect(result.requests == 3)
        #expect(try entityCalls() == ["POST /entity.update": 3])
        let match = result.renamed.first { $0.0 == added }?.1
        let renamed = try #require(match)
        #expect(try view.value(at: renamed + "/status") == "hi")
        let stored = try emulator.admin("GET", "/emulator/users/\(uuid)")["user"]
        #expect(stored?["statuses"]?.arrayValue?.first?["status"] == "hi")
        #expect(stored?["photos"]?.arrayValue?.first?["value"] == "c.png")
    }

    @Test func nestedPluralAndRemoval() throws {
        let (client, uuid, _) = try signedIn()
        let view = try client.capture.recordView()
        let profile = try #require(try view.elementPaths("/profiles").first)
        _ = try view.append(["displayName": "Cy"], to: profile + "/friends")
        try view.remove(try #require(try view.elementPaths("/photos").last))
        _ = try client.capture.sync()
        #expect(try entityCalls() == ["POST /entity.update": 1, "POST /entity.delete": 1])
        let stored = try emulator.admin("GET", "/emulator/users/\(uuid)")["user"]
        #expect(stored?["photos"]?.arrayValue?.count == 1)
        #expect(stored?["profiles"]?.arrayValue?.first?["friends"]?.arrayValue?.count == 2)
    }

    @Test func journaledEditsSurviveARestartAndSyncOnce() throws {
        let storage = NSTemporaryDirectory() + "jump-journal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: storage) }
        let (first, _, _) = try signedIn(storage: storage)
        try first.capture.recordView().set("/aboutMe", to: "offline")
        _ = try first.capture.recordView().append(["value": "c.png"], to: "/photos")
        let pending = try first.capture.recordView().changes()
        let second = try JumpClient(config: emulator.config(storage: storage))
        #expect(try second.capture.recordView().changes() == pending)
        _ = try second.capture.sync()
        #expect(try entityCalls() == ["POST /entity.update": 2])
        let third = try JumpClient(config: emulator.config(storage: storage))
        #expect(try third.capture.sync().requests == 0)
    }

    @Test func conflictKeepsTheLocalValue() throws {
        let (mine, _, email) = try signedIn()
        let theirs = try JumpClient(config: emulator.config())
        _ = try theirs.capture.signIn(user: email, password: "correct horse 1")
        try theirs.capture.recordView().set("/aboutMe", to: "theirs")
        _ = try theirs.capture.sync()
        try mine.capture.recordView().set("/aboutMe", to: "mine")
        let error = #expect(throws: JumpError.self) { try mine.capture.fetchRecord() }
        #expect(error?.status == .conflict)
        #expect(error?.detail["conflicts"]?.arrayValue?.first?["path"] == "/aboutMe")
        #expect(try mine.capture.recordView().value(at: "/aboutMe") == "mine")
    }

    @Test func schemaRefusesBeforeAnyRequest() throws {
        let (client, _, _) = try signedIn()
        try client.capture.loadSchema()
        try emulator.admin("DELETE", "/emulator/counters")
        let view = try client.capture.recordView()
        let error = #expect(throws: JumpError.self) { try view.set("/birthday", to: "not a date") }
        #expect(error?.detail["argument"] == "/birthday")
        #expect(throws: JumpError.self) { try view.append(["nope": 1], to: "/photos") }
        #expect(try emulator.admin("GET", "/emulator/counters")["counters"]?.objectValue?.isEmpty == true)
    }
}
