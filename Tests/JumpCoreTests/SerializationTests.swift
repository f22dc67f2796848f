import Testing
import CJansson
import Glibc
@testable import JumpCore

/// The hand-written fast paths must print exactly what jansson prints, which stays the one definition of
/// libjump's JSON text.
@Suite struct SerializationTests {
    /// jansson's own text of a value, printed whole in one json_dumps (no pieces, no fast path).
    static func janssonText(_ json: JSON) -> String {
        guard let value = Jansson.makeValue(json) else { return "" }
        defer { jumpi_json_decref(value) }
        let flags = Int(JSON_COMPACT) | Int(JSON_SORT_KEYS) | Int(JSON_ENCODE_ANY)
        guard let text = json_dumps(value, flags) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    static let awkwardStrings: [String] = [
        "", "plain", "quote \" backslash \\ slash /", "controls \u{1}\u{8}\u{9}\u{a}\u{c}\u{d}\u{1f} end",
        "nul \u{0} inside", "é ü 日本 🎉", "\u{7f} delete", "line\u{2028}separator",
    ]

    @Test(arguments: awkwardStrings)
    func journalLinesMatchJansson(_ text: String) throws {
        let path = try RecordPath("/aboutMe")
        for value: JSON in [.string(text), .int(-42), .int(Int64.max), .bool(true), .bool(false), .null] {
            let op = RecordOp.set(path, value)
            let line = String(decoding: JournalLine.bytes(op), as: UTF8.self)
            #expect(line == SerializationTests.janssonText(op.json) + "\n")
        }
    }

    @Test func journalLinesOfOtherOperationsMatchJansson() throws {
        let element = try RecordPath("/photos#-3/value")
        let ops: [RecordOp] = [
            .remove(try RecordPath("/photos#12")), .revert(element), .set(element, .double(0.1)),
            .set(try RecordPath("/primaryAddress"), ["city": "Zürich", "zip": .null, "lines": ["a", "b\n"]]),
            .acknowledge(element, "x"), .renumber(try RecordPath("/photos"), []),
        ]
        for op in ops {
            #expect(String(decoding: JournalLine.bytes(op), as: UTF8.self) == SerializationTests.janssonText(op.json) + "\n")
        }
    }

    @Test func largeValuesArePrintedInPiecesAsJanssonPrintsThemWhole() {
        var members: [String: JSON] = ["é": 1, "Z": 2, "a\u{0}b": 3, "": 4]
        members["photos"] = .array((0..<3000).map { i in ["id": .int(Int64(i)), "value": .string("photo \(i) \"q\"")] })
        members["deep"] = ["list": .array((0..<700).map { .double(Double($0) / 7) })]
        let record = JSON.object(members)
        #expect(Jansson.serialize(record) == SerializationTests.janssonText(record))
    }

    @Test func pathsKeepTheirCanonicalTextOnly() throws {
        #expect(try RecordPath("/photos#+5/value").description == "/photos#5/value")
        #expect(try RecordPath("/photos#007").description == "/photos#7")
        #expect(try RecordPath("/a#-2/b").description == "/a#-2/b")
        #expect(try RecordPath("/photos#5") == RecordPath("/photos#+5"))
        for bad in ["", "a", "//", "/a/", "/#3", "/a#", "/a#0", "/a#x", "/a#1#2"] {
            #expect(throws: JumpError.self) { try RecordPath(bad) }
        }
    }
}
