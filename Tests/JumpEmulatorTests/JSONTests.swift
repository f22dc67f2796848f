import Foundation
import Testing

@testable import JumpEmulator

/// The hand-written JSON parser and writer: records and answers go through them.
@Suite("JSON parser and writer")
struct JSONTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try #require(JSONValue.parse(#" { "a" : [1, -2, 3.5, -0.25e2, 1E3, 1.0, true, false, null] , "b": {"c": ""} } "#))
        #expect(value == ["a": [1, -2, 3.5, -25.0, 1000.0, 1.0, true, false, nil], "b": ["c": ""]])
        #expect(JSONValue.parse("9223372036854775807") == .int(Int64.max))
        #expect(JSONValue.parse("-9223372036854775808") == .int(Int64.min))
        #expect(JSONValue.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(JSONValue.parse(#"{"k":1,"k":2}"#) == ["k": 2])
        #expect(JSONValue.parse("[]") == [])
        #expect(JSONValue.parse("{}") == [:])
    }

    @Test func decodesStringEscapes() {
        #expect(JSONValue.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
        #expect(JSONValue.parse(#""\u00e9\u20AC""#) == .string("é€"))
        #expect(JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(JSONValue.parse(#""\ud83d x""#) == .string("\u{FFFD} x"))
        #expect(JSONValue.parse("\"héllo wörld, a long string without escapes\"") == .string("héllo wörld, a long string without escapes"))
    }

    @Test func refusesWhatIsNotJSON() {
        for text in [
            "", " ", "{", "[1,]", "{\"a\":}", "{\"a\" 1}", "{a:1}", "01", "1.", "-", ".5", "1e", "tru", "nul",
            "\"unterminated", "\"tab\there\"", "\"bad \\x escape\"", "\"\\u12\"", "[1] x", "{} {}", "NaN", "1e400",
        ] {
            let parsed = JSONValue.parse(text)
            #expect(parsed == nil, "\(text) parsed as \(String(describing: parsed))")
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(JSONValue.parse(deep) == nil)
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(JSONValue.parse(fine) != nil)
    }

    @Test func writesSortedCompactAndEscaped() {
        let value: JSONValue = ["b": [1, -20, 0, 2.5], "a": "x", "c": ["z": nil, "y": true]]
        #expect(value.serialized() == #"{"a":"x","b":[1,-20,0,2.5],"c":{"y":true,"z":null}}"#)
        #expect(JSONValue.int(Int64.min).serialized() == "-9223372036854775808")
        #expect(JSONValue.string("a/b").serialized() == #""a/b""#)
        #expect(JSONValue.string("\u{01}\u{1F}\n\"\\é").serialized() == #""\u0001\u001f\n\"\\é""#)
        // The eight-byte scan must find a special byte at any position of a word.
        for offset in 0..<20 {
            let text = String(repeating: "a", count: offset) + "\"" + String(repeating: "b", count: 20 - offset)
            let written = JSONValue.string(text).serialized()
            #expect(written == "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"")
            #expect(JSONValue.parse(written) == .string(text))
        }
    }

    @Test func roundTrips() throws {
        let value: JSONValue = [
            "text": "line\nbreak \u{7F} ünïcode 😀 \\ \"quoted\"", "n": [0, -1, 123_456_789_012, 0.1, -1.5e-7],
            "nested": [["a": [[:], []]], nil, false],
        ]
        #expect(JSONValue.parse(value.serialized()) == value)
        #expect(JSONValue.parse(data: Data(value.serializedBytes())) == value)
    }
}
