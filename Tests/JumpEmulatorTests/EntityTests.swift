import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("entity")
struct EntityTests {
    @Test func readsTheWholeRecord() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada")])
            let answer = try await h.entity(token, [("type_name", "user")])
            #expect(answer["stat"] == "ok")
            let record = try #require(answer["result"])
            #expect(record["email"] == "ada@example.com")
            #expect(record["displayName"] == "Ada")
            #expect(record["password"] == ["type": "password-bcrypt"])
            #expect(record["profiles"] == [])
        }
    }

    @Test func readsValuesAtPaths() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, [
                "primaryAddress": ["city": "London", "zip": "NW1"],
                "photos": [["type": "small", "value": "a.png"], ["type": "large", "value": "b.png"]],
            ])
            let object = try await h.entity(token, [("attribute_name", "primaryAddress")])
            #expect(object["result"]?["city"] == "London")
            #expect(object["result"]?["address1"] == .null)

            let member = try await h.entity(token, [("attribute_name", "/primaryAddress/city")])
            #expect(member["result"] == "London")
            let dotted = try await h.entity(token, [("attribute_name", "primaryAddress.zip")])
            #expect(dotted["result"] == "NW1")

            let element = try await h.entity(token, [("attribute_name", "photos#2")])
            #expect(element["result"] == ["id": 2, "type": "large", "value": "b.png"])
            let inElement = try await h.entity(token, [("attribute_name", "/photos#1/value")])
            #expect(inElement["result"] == "a.png")
            let plural = try await h.entity(token, [("attribute_name", "photos")])
            #expect(plural["result"]?.arrayValue?.count == 2)
        }
    }

    @Test func badPathsAreErrors() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let unknown = try await h.entity(token, [("attribute_name", "favoriteColor")])
            #expect(unknown["code"] == 223)
            #expect(unknown["error"] == "unknown_attribute")
            #expect(unknown["attribute_name"] == "/favoriteColor")

            let password = try await h.entity(token, [("attribute_name", "password")])
            #expect(password["code"] == 223)

            let missingElement = try await h.entity(token, [("attribute_name", "photos#99")])
            #expect(missingElement["code"] == 200)
            #expect(missingElement["argument_name"] == "attribute_name")

            let malformed = try await h.entity(token, [("attribute_name", "photos#x")])
            #expect(malformed["code"] == 200)
            let notPlural = try await h.entity(token, [("attribute_name", "primaryAddress#1")])
            #expect(notPlural["code"] == 200)
        }
    }

    @Test func tokenChecks() async throws {
        try await Harness.run { h in
            let missing = try await h.capture("/entity", [])
            #expect(missing["code"] == 100)
            #expect(missing["argument_name"] == "access_token")

            let unknown = try await h.entity("not-a-token")
            #expect(unknown["code"] == 200)
            #expect(unknown["error"] == "invalid_argument")
            #expect(unknown["argument_name"] == "access_token")
        }
    }

    @Test func acceptsTheOAuthAuthorizationHeader() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            var headers = HTTPFields()
            headers[.authorization] = "OAuth \(token)"
            let answer = try await h.capture("/entity", [], headers: headers)
            #expect(answer["stat"] == "ok")
            #expect(answer["result"]?["email"] == "ada@example.com")
        }
    }

    @Test func expiredTokenIs414AfterTheClockMoves() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let (status, clock) = try await h.admin(.post, "/clock", ["advance_seconds": 3601])
            #expect(status == .ok)
            #expect(clock["offset_seconds"] == 3601)
            let answer = try await h.entity(token)
            #expect(answer["code"] == 414)
            #expect(answer["error"] == "access_token_expired")
        }
    }

    @Test func shortTokenLifetimeFromSettings() async throws {
        try await Harness.run(tokenLifetime: 60) { h in
            let answer = try await h.register(email: "ada@example.com")
            #expect(answer["expires_in"] == 60)
            let token = try #require(answer["access_token"]?.stringValue)
            // A few seconds of slack: real time passes too, and a loaded machine runs the whole
            // suite in parallel.
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 50])
            #expect(try await h.entity(token)["stat"] == "ok")
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 10])
            #expect(try await h.entity(token)["code"] == 414)
        }
    }
}
