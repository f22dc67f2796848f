import Testing
@testable import JumpCore

/// The record engine on its own: edits, the sync plan, acknowledgements, rebase and journal replay.
@Suite struct RecordTests {
    let server: JSON = [
        "id": 7, "uuid": "u-1", "email": "a@example.com", "aboutMe": nil, "givenName": "Ann",
        "primaryAddress": ["city": "Paris", "zip": nil], "name": ["formatted": nil],
        "photos": [["id": 1, "value": "p.png"], ["id": 2, "value": "q.png"]],
        "profiles": [["id": 3, "identifier": "x", "friends": [["id": 4, "displayName": "Bo"]]]],
        "statuses": [],
    ]

    func plan(_ record: UserRecord) -> [String] {
        record.plan(schema: nil).map { "\($0.kind) \($0.path)" }
    }

    @Test(arguments: ["/", "/aboutMe", "/primaryAddress/city", "/photos#1/value", "/photos#-1", "/profiles#3/friends#4"])
    func validPaths(_ text: String) throws {
        #expect(try RecordPath(text).description == text)
    }

    @Test(arguments: ["", "aboutMe", "/a//b", "/photos#x", "/photos#", "//", "/a/", "/photos#0"])
    func invalidPaths(_ text: String) {
        #expect(throws: JumpError.self) { try RecordPath(text) }
    }

    @Test func readsByPath() throws {
        let record = UserRecord(server: server)
        #expect(try record.value(at: RecordPath("/primaryAddress/city")) == "Paris")
        #expect(try record.value(at: RecordPath("/photos#2/value")) == "q.png")
        #expect(try record.value(at: RecordPath("/profiles#3/friends#4/displayName")) == "Bo")
        let missing = #expect(throws: JumpError.self) { try record.value(at: RecordPath("/nope")) }
        #expect(missing?.status == .notFound)
    }

    @Test func rootAndNestedObjectEditsAreOneUpdate() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/aboutMe"), to: "hello")
        try record.set(RecordPath("/primaryAddress/city"), to: "Lyon")
        let requests = record.plan(schema: nil)
        #expect(requests.count == 1)
        #expect(requests.first?.attributes == ["aboutMe": "hello", "primaryAddress": ["city": "Lyon"]])
        #expect(requests.first?.changed == ["/aboutMe", "/primaryAddress/city"])
    }

    @Test func settingBackTheOriginalIsNoChange() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/givenName"), to: "Bob")
        try record.set(RecordPath("/givenName"), to: "Ann")
        #expect(record.plan(schema: nil).isEmpty)
    }

    @Test func elementEditIsAnUpdateAtTheElement() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/photos#2/value"), to: "r.png")
        #expect(plan(record) == ["update /photos#2"])
        #expect(record.plan(schema: nil).first?.attributes == ["value": "r.png"])
    }

    @Test func appendedElementsAreAnUpdateOfTheParentWithOnlyThem() throws {
        var record = UserRecord(server: server)
        let (_, path) = try record.append(["value": "new.png"], to: RecordPath("/photos"))
        #expect(path.description == "/photos#-1")
        try record.set(path.appending("type"), to: "other")
        let requests = record.plan(schema: nil)
        #expect(plan(record) == ["append /"])
        #expect(requests.first?.kind.endpoint == "entity.update")
        #expect(requests.first?.attributes == ["photos": [["type": "other", "value": "new.png"]]])
    }

    @Test func aReorderOrAnInsertionBeforeTheServersElementsIsAReplace() throws {
        var reordered = UserRecord(server: server)
        reordered.apply(.set(try RecordPath("/photos"), [["id": 2, "value": "q.png"], ["id": 1, "value": "p.png"]]))
        #expect(plan(reordered) == ["replace /photos"])
        var inserted = UserRecord(server: server)
        inserted.apply(.set(try RecordPath("/photos"), [["id": -1, "value": "first.png"], ["id": 1, "value": "p.png"],
                                                         ["id": 2, "value": "q.png"]]))
        #expect(plan(inserted) == ["replace /photos"])
        // Removing one and appending one: a delete and an append, the other element untouched.
        var mixed = UserRecord(server: server)
        mixed.apply(.set(try RecordPath("/photos"), [["id": 2, "value": "q.png"], ["id": -1, "value": "n.png"]]))
        #expect(plan(mixed) == ["delete /photos#1", "append /"])
    }

    @Test func removalsAreDeletes() throws {
        var record = UserRecord(server: server)
        try record.remove(RecordPath("/photos#1"))
        #expect(plan(record) == ["delete /photos#1"])
        try record.remove(RecordPath("/photos#2"))
        #expect(plan(record) == ["delete /photos"])
    }

    @Test func nestedPluralInsideAnElement() throws {
        var record = UserRecord(server: server)
        _ = try record.append(["displayName": "Cy"], to: RecordPath("/profiles#3/friends"))
        try record.set(RecordPath("/profiles#3/identifier"), to: "y")
        #expect(plan(record) == ["update /profiles#3", "append /profiles#3"])
    }

    @Test func twoObjectsAndAPluralAreThreeRequests() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/aboutMe"), to: "a")
        try record.set(RecordPath("/photos#1/value"), to: "b")
        _ = try record.append(["status": "hi"], to: RecordPath("/statuses"))
        #expect(plan(record) == ["update /", "update /photos#1", "append /"])
    }

    @Test func acknowledgementsMoveOnlyWhatWasAccepted() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/aboutMe"), to: "a")
        _ = try record.append(["value": "n.png"], to: RecordPath("/photos"))
        let requests = record.plan(schema: nil)
        var renamed: [(String, String)] = []
        for op in try record.acknowledgements(of: requests[0], result: nil, renamed: &renamed) { record.apply(op) }
        #expect(plan(record) == ["append /"])
        // The parent as the server has it: another writer's element (11) came in before ours (12).
        let result: JSON = ["photos": [["id": 1, "value": "p.png"], ["id": 2, "value": "q.png"], ["id": 11, "value": "theirs.png"],
                                       ["id": 12, "value": "n.png"]]]
        for op in try record.acknowledgements(of: requests[1], result: result, renamed: &renamed) { record.apply(op) }
        #expect(record.plan(schema: nil).isEmpty)
        #expect(renamed.map(\.0) == ["/photos#-1"])
        #expect(renamed.map(\.1) == ["/photos#12"])
        #expect(try record.value(at: RecordPath("/photos#12/value")) == "n.png")
        #expect(try record.value(at: RecordPath("/photos#1/value")) == "p.png")
    }

    @Test func appendWithoutResultIsAnErrorAndStaysPending() throws {
        var record = UserRecord(server: server)
        _ = try record.append(["value": "n.png"], to: RecordPath("/photos"))
        var renamed: [(String, String)] = []
        #expect(throws: JumpError.self) {
            try record.acknowledgements(of: record.plan(schema: nil)[0], result: nil, renamed: &renamed)
        }
        #expect(throws: JumpError.self) {  // fewer elements than were appended
            try record.acknowledgements(of: record.plan(schema: nil)[0], result: ["photos": []], renamed: &renamed)
        }
        #expect(plan(record) == ["append /"])
    }

    @Test func editsDuringASyncStayPending() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/aboutMe"), to: "a")
        let request = record.plan(schema: nil)[0]
        try record.set(RecordPath("/aboutMe"), to: "b")
        var renamed: [(String, String)] = []
        for op in try record.acknowledgements(of: request, result: nil, renamed: &renamed) { record.apply(op) }
        #expect(record.plan(schema: nil).first?.attributes == ["aboutMe": "b"])
    }

    @Test func journalOfTheEarlierFormatStillReplaysOntoItsOwnSession() throws {
        var record = UserRecord(server: server)
        let op = try record.set(RecordPath("/aboutMe"), to: "offline edit")
        // A journal and session saved by libjump before sessions had ids: the journal names its epoch only.
        let bytes = Array("{\"epoch\":5,\"format\":\"libjump-journal\"}\n".utf8) + RecordJournal.encode([op])
        let legacy = Session(sessionID: "", accessToken: "t", refreshSecret: nil, accessTokenExpiresAt: nil,
                             reauthenticationRequired: false, record: UserRecord(server: server), epoch: 5)
        #expect(try RecordJournal.decode(bytes, for: legacy) == [op])
        // A session with an id (made by a sign-in since) never takes such a journal.
        var current = legacy
        current.sessionID = "s1"
        #expect(try RecordJournal.decode(bytes, for: current) == nil)
    }

    @Test func journalReplayGivesTheSameRecord() throws {
        var record = UserRecord(server: server)
        var ops: [RecordOp] = []
        ops.append(try record.set(RecordPath("/aboutMe"), to: "a"))
        ops.append(try record.append(["value": "n.png"], to: RecordPath("/photos")).0)
        ops.append(try record.remove(RecordPath("/photos#1")))
        ops.append(try record.set(RecordPath("/photos#2/value"), to: "z"))
        let saved = Session(sessionID: "s1", accessToken: "t", refreshSecret: nil, accessTokenExpiresAt: nil,
                            reauthenticationRequired: false, record: UserRecord(server: server), epoch: 5)
        let bytes = RecordJournal.header(for: saved) + RecordJournal.encode(ops)
        var replayed = UserRecord(server: server)
        for op in try #require(try RecordJournal.decode(bytes, for: saved)) { replayed.apply(op) }
        #expect(replayed.current == record.current)
        #expect(plan(replayed) == plan(record))
        // A journal of another full save, or of another session (even with the same epoch), is not applied.
        var later = saved
        later.epoch = 6
        #expect(try RecordJournal.decode(bytes, for: later) == nil)
        var other = saved
        other.sessionID = "s2"
        #expect(try RecordJournal.decode(bytes, for: other) == nil)
        // A line cut short by a crash is dropped; the lines before it are kept.
        let cut = Array(bytes.dropLast(3))
        #expect(try RecordJournal.decode(cut, for: saved)?.count == ops.count - 1)
        let snapshot = UserRecord(baseline: record.baseline, edits: record.snapshotEdits, nextLocalID: record.nextLocalID)
        #expect(snapshot.current == record.current)
        #expect(plan(snapshot) == plan(record))
    }

    @Test func rebaseKeepsEditsAndReportsConflicts() throws {
        var record = UserRecord(server: server)
        try record.set(RecordPath("/aboutMe"), to: "mine")
        try record.set(RecordPath("/givenName"), to: "Mine")
        var fresh = server
        RecordTree.put("theirs", at: try RecordPath("/givenName"), in: &fresh)
        RecordTree.put("Nice", at: try RecordPath("/primaryAddress/city"), in: &fresh)
        let conflicts = record.rebase(onServer: fresh)
        #expect(conflicts.map(\.path.description) == ["/givenName"])
        #expect(try record.value(at: RecordPath("/givenName")) == "Mine")
        #expect(try record.value(at: RecordPath("/primaryAddress/city")) == "Nice")
        #expect(record.plan(schema: nil).first?.changed == ["/aboutMe", "/givenName"])
        record.revert(try RecordPath("/givenName"))
        #expect(try record.value(at: RecordPath("/givenName")) == "theirs")
    }

    @Test func refusals() throws {
        var record = UserRecord(server: server)
        for (path, value) in [("/uuid", JSON.string("x")), ("/nope", "x"), ("/photos", []), ("/primaryAddress", "x"),
                              ("/photos#1/id", 5), ("/photos#9/value", "x"), ("/", [:])] as [(String, JSON)] {
            let error = #expect(throws: JumpError.self) { try record.set(RecordPath(path), to: value) }
            #expect(error?.status == .invalidArgument || error?.status == .notFound)
        }
        #expect(throws: JumpError.self) { try record.append(["id": 3, "value": "x"], to: RecordPath("/photos")) }
        #expect(throws: JumpError.self) { try record.append(["value": "x"], to: RecordPath("/aboutMe")) }
        #expect(throws: JumpError.self) { try record.remove(RecordPath("/photos")) }
        #expect(record.plan(schema: nil).isEmpty)
    }

    @Test func schemaAndAccessSchemaChecks() throws {
        let schema = try RecordSchema(document: [
            "schema": ["attr_defs": [
                ["name": "aboutMe", "type": "string", "length": 5], ["name": "givenName", "type": "string"],
                ["name": "birthday", "type": "date"], ["name": "optIn", "type": "boolean"],
                ["name": "photos", "type": "plural", "attr_defs": [["name": "value", "type": "string"]]],
            ]],
            "access_schema": ["write_with_token": ["aboutMe", "birthday", "photos", "optIn"]],
        ])
        var record = UserRecord(server: ["aboutMe": nil, "givenName": "A", "birthday": nil, "optIn": nil, "photos": []])
        try record.set(RecordPath("/aboutMe"), to: "short", schema: schema)
        try record.set(RecordPath("/optIn"), to: true, schema: schema)
        _ = try record.append(["value": "v"], to: RecordPath("/photos"), schema: schema)
        for (path, value) in [("/aboutMe", JSON.string("too long")), ("/birthday", "1990-13-01"), ("/optIn", "yes"),
                              ("/givenName", "B"), ("/unknown", 1)] as [(String, JSON)] {
            let error = #expect(throws: JumpError.self) { try record.set(RecordPath(path), to: value, schema: schema) }
            #expect(error?.detail["argument"] == .string(path))
        }
        #expect(throws: JumpError.self) { try record.append(["nope": 1], to: RecordPath("/photos"), schema: schema) }
    }
}
