import Testing

@testable import JumpEmulator

/// The filter language of entity.find / entity.count: parsing, bounded nesting, and matching.
@Suite("Capture filter expressions")
struct FilterParserTests {
    @Test func parsesPrecedenceAndForms() throws {
        let parsed = try FilterParser.parse("a = 'x' or b != 2 and not (c is null or d is not null)")
        #expect(parsed == .any([
            .compare(path: "a", .equal, .string("x")),
            .all([
                .compare(path: "b", .notEqual, .number("2")),
                .not(.any([.isNull(path: "c", negated: false), .isNull(path: "d", negated: true)])),
            ]),
        ]))
        #expect(try FilterParser.parse("name = 'O''Brien'") == .compare(path: "name", .equal, .string("O'Brien")))
        #expect(try FilterParser.parse("x>=-1.5") == .compare(path: "x", .greaterOrEqual, .number("-1.5")))
        #expect(try FilterParser.parse("!flag = TRUE") == .not(.compare(path: "flag", .equal, .bool(true))))
        #expect(try FilterParser.parse("primaryAddress.city <= 'P'")
            == .compare(path: "primaryAddress.city", .lessOrEqual, .string("P")))
        // A long chain is one wide node, not a deep tree.
        let chain = Array(repeating: "a = 1", count: 500).joined(separator: " and ")
        if case .all(let operands) = try FilterParser.parse(chain) {
            #expect(operands.count == 500)
        } else {
            Issue.record("a chain of and should be one node")
        }
    }

    @Test func refusesMalformedFilters() {
        for bad in ["", "a =", "a = 'x", "= 'x'", "a 'x'", "a = b", "a = null", "(a = 1", "a = 1)", "a is 'x'",
                    "a = 1 b = 2", "a..b = 1", "a = 1 and", "a ~ 1", "a = 1.", "not"]
        {
            #expect(throws: FilterError.self, "\(bad)") { try FilterParser.parse(bad) }
        }
    }

    @Test func refusesDeepNestingWithoutRecursingOnIt() throws {
        let ok = String(repeating: "(", count: 32) + "a = 1" + String(repeating: ")", count: 32)
        #expect(throws: Never.self) { try FilterParser.parse(ok) }
        let deep = String(repeating: "(", count: 33) + "a = 1" + String(repeating: ")", count: 33)
        let error = #expect(throws: FilterError.self) { try FilterParser.parse(deep) }
        #expect(error?.message.contains("32") == true)
        // Far deeper than any stack: refused at level 33, never parsed further.
        let hostile = String(repeating: "(", count: 9_000)
        #expect(throws: FilterError.self) { try FilterParser.parse(hostile) }
        let nots = String(repeating: "not ", count: 2_400) + "a = 1"
        #expect(throws: FilterError.self) { try FilterParser.parse(nots) }
        let bangs = String(repeating: "!", count: 5_000) + "a = 1"
        #expect(throws: FilterError.self) { try FilterParser.parse(bangs) }
        // Beyond the length limit: refused before lexing.
        let long = String(repeating: "a = 1 or ", count: 2_000) + "a = 1"
        #expect(throws: FilterError.self) { try FilterParser.parse(long) }
    }

    @Test func matchesTypedValuesAgainstTheSchema() throws {
        let schema = DefaultSchema.user
        let record: JSONValue = [
            "id": 7, "email": "Ada@Example.com", "displayName": "Ada", "birthday": "1990-05-01",
            "created": "2026-01-02 03:04:05.000000 +0000", "primaryAddress": ["city": "Paris", "zip": nil],
            "profiles": [["id": 1, "domain": "facebook.com", "identifier": "f1"], ["id": 2, "domain": "google.com", "identifier": "g1"]],
            "photos": [],
        ]
        func matches(_ filter: String) throws -> Bool { try RecordFilter(filter, schema: schema).matches(record) }
        #expect(try matches("email = 'ada@example.com'"))  // email is case-insensitive
        #expect(try matches("displayName = 'Ada' and id > 5 and id < '8'"))  // numbers may be quoted
        #expect(try !matches("displayName = 'ada'"))  // displayName is case-sensitive
        #expect(try matches("birthday < '1991-01-01' and birthday >= '1990-05-01'"))
        #expect(try matches("created > '2026-01-01 00:00:00 +0000'"))
        #expect(try matches("primaryAddress.city = 'Paris' and primaryAddress.zip is null"))
        #expect(try matches("profiles.domain = 'google.com'"))  // any element
        #expect(try matches("photos is null and profiles is not null"))
        #expect(try !matches("givenName != 'x'"))  // null compares false
        #expect(try matches("(givenName = 'x' or displayName = 'Ada') and not id = 8"))
        for bad in ["nosuch = 1", "primaryAddress = 'x'", "id = 'seven'", "birthday = 'May'", "profiles.profile.x = 1",
                    "password = 'x'", "emailVerified > 'soon'"]
        {
            #expect(throws: FilterError.self, "\(bad)") { try RecordFilter(bad, schema: schema) }
        }
    }
}
