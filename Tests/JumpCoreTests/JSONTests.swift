import Testing
@testable import JumpCore

@Suite struct JSONTests {
    @Test func roundTripsThroughJansson() throws {
        let text = #"{"a":[1,2.5,"x",null,true,false],"b":{"c":"é\u0000z"},"n":-9007199254740993}"#
        let value = try Jansson.parse(text, what: "test")
        #expect(value["n"] == .int(-9_007_199_254_740_993))
        #expect(value["b"]?["c"] == .string("é\u{0}z"))
        #expect(try Jansson.parse(Jansson.serialize(value), what: "again") == value)
    }

    @Test func serializesWithSortedKeys() {
        #expect(Jansson.serialize(["b": 1, "a": 2]) == #"{"a":2,"b":1}"#)
    }

    @Test(arguments: ["", "{", "{\"a\":}", "[1,]", "{\"a\":1,\"a\":2}", "\u{FEFF}{}"])
    func refusesMalformedJSON(_ text: String) {
        #expect(throws: JumpError.self) { try Jansson.parse(text, what: "input") }
    }

    @Test func refusesInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xFF, 0xFE, 0x22]
        let error = #expect(throws: JumpError.self) { try Jansson.parse(bytes, what: "input") }
        #expect(error?.status == .invalidArgument)
    }

    @Test func integerAccessorAcceptsWholeDoubles() {
        #expect(JSON.double(3600).intValue == 3600)
        #expect(JSON.double(1.5).intValue == nil)
        #expect(JSON.string("1").intValue == nil)
    }
}
