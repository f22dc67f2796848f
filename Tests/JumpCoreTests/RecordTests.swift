import Testing
@testable import JumpCore

@Suite struct RecordTests {
    let server: JSON = [
        "id": 7, "uuid": "u-1", "email": "a@example.com", "aboutMe": nil, "givenName": "Ann",
        "primaryAddress": ["city": "Paris", "zip": nil], "photos": [["id": 1, "value": "p.png"]],
    ]

    @Test(arguments: ["/", "/aboutMe", "/primaryAddress/city", "/photos#1/value"])
    func validPaths(_ text: String) throws {
        #expect(try RecordPath(text).description == text)
    }

    @Test(arguments: ["", "aboutMe", "/a//b", "/photos#x", "/photos#", "//", "/a/"])
    func invalidPaths(_ text: String) {
        #expect(throws: JumpError.self) { try RecordPath(text) }
    }

    @Test func readsByPath() throws {
        let record = UserRecord(server: server)
        #expect(try record.value(at: RecordPath("/primaryAddress/city")) == "Paris")
        #expect(try record.value(at: RecordPath("/photos#1/value")) == "p.png")
        let missing = #expect(throws: JumpError.self) { try record.value(at: RecordPath("/nope")) }
        #expect(missing?.status == .notFound)
    }

    @Test func changesHoldOnlyWhatChanged() throws {
        var record = UserRecord(server: server)
        #expect(record.changes.isEmpty)
        try record.set(RecordPath("/aboutMe"), to: "hello")
        try record.set(RecordPath("/primaryAddress/city"), to: "Lyon")
        try record.set(RecordPath("/givenName"), to: "Ann")  // unchanged value: no change
        #expect(record.changes.paths == ["/aboutMe", "/primaryAddress/city"])
        #expect(record.changes.update == ["aboutMe": "hello", "primaryAddress": ["city": "Lyon"]])
    }

    @Test func acknowledgeMovesOnlyWhatWasSent() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/aboutMe"), to: "one")
        let sent = record.changes.update
        try record.set(RecordPath("/givenName"), to: "Anna")  // edited while the sync is in flight
        record.acknowledge(sent)
        #expect(record.changes.paths == ["/givenName"])
    }

    @Test func rebaseKeepsLocalEdits() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/aboutMe"), to: "mine")
        var fresh = server
        if case .object(var o) = fresh { o["givenName"] = "Annie"; fresh = .object(o) }
        record.rebase(onServer: fresh)
        #expect(try record.value(at: RecordPath("/givenName")) == "Annie")
        #expect(record.changes.paths == ["/aboutMe"])
    }

    @Test func refusesReservedUnknownAndPlurals() throws {
        var record = UserRecord(server: server)
        for (path, value) in [("/id", JSON.int(1)), ("/uuid", "x"), ("/nope", "x"), ("/photos", JSON.array([])),
                              ("/aboutMe", JSON.array(["x"])), ("/primaryAddress", "x"), ("/", JSON.object([:]))] {
            let error = #expect(throws: JumpError.self) { try record.set(RecordPath(path), to: value) }
            #expect(error?.status == .invalidArgument || error?.status == .notFound, "\(path)")
        }
        #expect(throws: JumpError.self) { try record.set(RecordPath("/photos#1/value"), to: "x") }
        #expect(record.changes.isEmpty)
    }
}
