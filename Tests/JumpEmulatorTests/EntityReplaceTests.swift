import Testing

@testable import JumpEmulator

@Suite("entity.replace")
struct EntityReplaceTests {
    @Test func replacesAnObjectClearingMembersNotGiven() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, ["primaryAddress": ["city": "London", "zip": "NW1", "country": "UK"]])
            let answer = try await h.replace(token, ["city": "Paris"], attributeName: "primaryAddress", includeRecord: true)
            #expect(answer["stat"] == "ok")
            let address = try #require(answer["result"])
            #expect(address["city"] == "Paris")
            #expect(address["zip"] == .null)
            #expect(address["country"] == .null)
            #expect(try await h.entity(token, [("attribute_name", "primaryAddress")])["result"] == address)

            // Without include_record the answer is just ok; the older parameter name works too.
            let plain = try await h.capture(
                "/entity.replace", [("access_token", token), ("attribute_name", "/primaryAddress"), ("value", #"{"zip":"75001"}"#)])
            #expect(plain == ["stat": "ok"])
            #expect(try await h.entity(token, [("attribute_name", "primaryAddress/city")])["result"] == .null)
        }
    }

    @Test func replacesTheRootKeepingReservedAttributesAndThePassword() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada"), ("firstName", "Ada")])
            let before = try #require(try await h.entity(token)["result"])
            let answer = try await h.replace(token, ["email": "ada@example.com", "familyName": "Lovelace"], includeRecord: true)
            let record = try #require(answer["result"])
            #expect(record["familyName"] == "Lovelace")
            #expect(record["displayName"] == .null)
            #expect(record["givenName"] == .null)
            #expect(record["uuid"] == before["uuid"])
            #expect(record["created"] == before["created"])
            #expect(try await h.signIn(email: "ada@example.com", password: "correct horse")["stat"] == "ok")

            let reserved = try await h.replace(token, ["uuid": "x"])
            #expect(reserved["code"] == 234)
            #expect(try await h.replace(token, ["a", "b"])["code"] == 341)
        }
    }

    @Test func replacesAPluralWithNewIdsInTheOrderSent() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let first = try await h.update(token, ["photos": [["value": "a.png"], ["value": "b.png"]]], includeRecord: true)
            #expect(first["result"]?["photos"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 2])

            let answer = try await h.replace(
                token, [["type": "large", "value": "c.png"], ["value": "d.png"], ["value": "e.png"]], attributeName: "photos",
                includeRecord: true)
            let photos = try #require(answer["result"]?.arrayValue)
            #expect(photos.count == 3)
            #expect(photos.compactMap { $0["id"]?.intValue } == [3, 4, 5])
            #expect(photos.compactMap { $0["value"]?.stringValue } == ["c.png", "d.png", "e.png"])
            #expect(photos[1] == ["id": 4, "type": nil, "value": "d.png"])
            #expect(try await h.entity(token, [("attribute_name", "photos")])["result"]?.arrayValue == photos)

            // An empty array (or null) empties it.
            #expect(try await h.replace(token, [], attributeName: "/photos", includeRecord: true)["result"] == [])
        }
    }

    @Test func elementsWithAnIdAreRefused() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, ["photos": [["value": "a.png"]]])
            let answer = try await h.replace(token, [["id": 1, "value": "b.png"]], attributeName: "photos")
            #expect(answer["stat"] == "error")
            #expect(answer["code"] == 320)
            #expect(answer["error"] == "id_in_new_record")
            #expect(answer["attribute_name"] == "/photos")
            // A null id is no id.
            #expect(try await h.replace(token, [["id": nil, "value": "b.png"]], attributeName: "photos")["stat"] == "ok")
        }
    }

    @Test func replacesOneElementKeepingItsId() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, ["photos": [["type": "small", "value": "a.png"], ["type": "large", "value": "b.png"]]])
            let answer = try await h.replace(token, ["value": "z.png"], attributeName: "photos#2", includeRecord: true)
            #expect(answer["result"] == ["id": 2, "type": nil, "value": "z.png"])
            #expect(try await h.entity(token, [("attribute_name", "photos#1")])["result"] == ["id": 1, "type": "small", "value": "a.png"])
            let missing = try await h.replace(token, ["value": "x"], attributeName: "photos#9")
            #expect(missing["code"] == 200)
            #expect(missing["argument_name"] == "attribute_name")
        }
    }

    @Test func nestedPluralsGetNewIdsToo() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let profile: JSONValue = [
                "identifier": "https://x/1", "domain": "x",
                "friends": [["identifier": "f1", "displayName": "One"], ["identifier": "f2", "displayName": "Two"]],
            ]
            let created = try await h.update(token, ["profiles": [profile]], includeRecord: true)
            let stored = try #require(created["result"]?["profiles"]?[0])
            #expect(stored["id"] == 1)
            #expect(stored["friends"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [2, 3])

            // Replace the whole profiles plural: the profile and its friends all get new ids.
            let replaced = try await h.replace(token, [profile], attributeName: "profiles", includeRecord: true)
            let again = try #require(replaced["result"]?[0])
            #expect(again["id"] == 4)
            #expect(again["friends"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [5, 6])

            // Replace only the nested plural of one element.
            let friends = try await h.replace(
                token, [["displayName": "Three"]], attributeName: "/profiles#4/friends", includeRecord: true)
            #expect(friends["result"] == [["id": 7, "identifier": nil, "displayName": "Three"]])
            let read = try await h.entity(token, [("attribute_name", "/profiles#4/friends#7/displayName")])
            #expect(read["result"] == "Three")
            #expect(try await h.entity(token, [("attribute_name", "profiles#4")])["result"]?["identifier"] == "https://x/1")

            // Elements of nested plurals may not bring ids either.
            let withId = try await h.replace(token, [["id": 7, "displayName": "x"]], attributeName: "/profiles#4/friends")
            #expect(withId["code"] == 320)
            #expect(withId["attribute_name"] == "/profiles#4/friends")
        }
    }

    @Test func schemaChecksAreAllOrNothing() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada")])
            let unknown = try await h.replace(token, ["email": "ada@example.com", "favoriteColor": "blue"])
            #expect(unknown["code"] == 223)
            #expect(unknown["attribute_name"] == "/favoriteColor")
            #expect(try await h.replace(token, ["city": 5], attributeName: "primaryAddress")["code"] == 341)
            #expect(try await h.replace(token, ["birthday": "1990-13-01", "email": "ada@example.com"])["code"] == 342)
            let long = String(repeating: "x", count: 65)
            #expect(try await h.replace(token, [["domain": "x"]], attributeName: "/profiles")["code"] == 362)
            #expect(try await h.replace(token, [["identifier": "i", "displayName": .string(long)]], attributeName: "/profiles")["code"] == 223)
            let tooLong = try await h.replace(
                token, [["identifier": "i", "friends": [["displayName": .string(long)]]]], attributeName: "/profiles")
            #expect(tooLong["code"] == 363)
            #expect(tooLong["attribute_name"] == "/profiles#1/friends#2/displayName")

            _ = try await h.registeredToken(email: "other@example.com")
            let taken = try await h.replace(token, ["email": "OTHER@example.com"])
            #expect(taken["code"] == 361)

            let record = try await h.entity(token)["result"]
            #expect(record?["displayName"] == "Ada")
            #expect(record?["email"] == "ada@example.com")
            #expect(record?["profiles"] == [])
        }
    }
}
