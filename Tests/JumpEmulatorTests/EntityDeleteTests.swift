import Testing

@testable import JumpEmulator

@Suite("entity.delete")
struct EntityDeleteTests {
    @Test func removesOneElement() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, ["photos": [["value": "a.png"], ["value": "b.png"], ["value": "c.png"]]])
            #expect(try await h.delete(token, "/photos#2") == ["stat": "ok"])
            let photos = try await h.entity(token, [("attribute_name", "photos")])["result"]?.arrayValue ?? []
            #expect(photos.compactMap { $0["id"]?.intValue } == [1, 3])

            let missing = try await h.delete(token, "photos#2")
            #expect(missing["stat"] == "error")
            #expect(missing["code"] == 200)
            #expect(missing["error"] == "invalid_argument")
            #expect(missing["argument_name"] == "attribute_name")
        }
    }

    @Test func emptiesAPluralAndClearsObjectsAndValues() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada")])
            _ = try await h.update(token, [
                "photos": [["value": "a.png"], ["value": "b.png"]],
                "primaryAddress": ["city": "London", "zip": "NW1"],
                "name": ["formatted": "Ada L."],
            ])
            #expect(try await h.delete(token, "photos")["stat"] == "ok")
            #expect(try await h.delete(token, "/primaryAddress/city")["stat"] == "ok")
            #expect(try await h.delete(token, "name")["stat"] == "ok")
            #expect(try await h.delete(token, "displayName")["stat"] == "ok")
            let record = try #require(try await h.entity(token)["result"])
            #expect(record["photos"] == [])
            #expect(record["primaryAddress"]?["city"] == .null)
            #expect(record["primaryAddress"]?["zip"] == "NW1")
            #expect(record["name"] == ["formatted": nil, "honorificPrefix": nil, "honorificSuffix": nil])
            #expect(record["displayName"] == .null)
            // New elements still get new ids: ids never come back.
            let added = try await h.update(token, ["photos": [["value": "c.png"]]], includeRecord: true)
            #expect(added["result"]?["photos"]?[0]?["id"] == 3)
        }
    }

    @Test func nestedPluralElements() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, [
                "profiles": [["identifier": "p1", "friends": [["displayName": "A"], ["displayName": "B"]]]],
            ])
            #expect(try await h.delete(token, "/profiles#1/friends#2")["stat"] == "ok")
            let friends = try await h.entity(token, [("attribute_name", "/profiles#1/friends")])["result"]
            #expect(friends == [["id": 3, "identifier": nil, "displayName": "B"]])
            #expect(try await h.delete(token, "/profiles#1/friends#2")["code"] == 200)
            #expect(try await h.delete(token, "/profiles#1")["stat"] == "ok")
            #expect(try await h.entity(token, [("attribute_name", "profiles")])["result"] == [])
        }
    }

    @Test func refusals() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, ["profiles": [["identifier": "p1"]]])

            let reserved = try await h.delete(token, "uuid")
            #expect(reserved["code"] == 234)
            #expect(reserved["error"] == "reserved_attribute")
            #expect(try await h.delete(token, "/profiles#1/id")["code"] == 234)

            let required = try await h.delete(token, "/profiles#1/identifier")
            #expect(required["code"] == 362)
            #expect(required["error"] == "missing_required_attribute")
            #expect(required["attribute_name"] == "/profiles#1/identifier")

            let unknown = try await h.delete(token, "favoriteColor")
            #expect(unknown["code"] == 223)
            #expect(try await h.delete(token, "primaryAddress#1")["code"] == 200)
            #expect(try await h.delete(token, "/")["code"] == 200)
            let missing = try await h.capture("/entity.delete", [("access_token", token)])
            #expect(missing["code"] == 100)
            #expect(missing["argument_name"] == "attribute_name")
            #expect(try await h.capture("/entity.delete", [("access_token", "nope"), ("attribute_name", "photos")])["code"] == 200)

            #expect(try await h.entity(token, [("attribute_name", "profiles#1/identifier")])["result"] == "p1")
        }
    }
}
