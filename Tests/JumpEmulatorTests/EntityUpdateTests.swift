import Testing

@testable import JumpEmulator

@Suite("entity.update")
struct EntityUpdateTests {
    @Test func mergesObjectMembersAndLeavesOthersAlone() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada"), ("firstName", "Ada")])
            let before = try await h.entity(token)["result"]
            let answer = try await h.update(token, ["displayName": "Countess", "givenName": nil, "gender": "female"])
            #expect(answer == ["stat": "ok"])
            let record = try #require(try await h.entity(token)["result"])
            #expect(record["displayName"] == "Countess")
            #expect(record["givenName"] == .null)
            #expect(record["gender"] == "female")
            #expect(record["email"] == "ada@example.com")
            #expect(record["created"] == before?["created"])
            #expect(record["uuid"] == before?["uuid"])
        }
    }

    @Test func mergesNestedObjects() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, ["primaryAddress": ["city": "London", "zip": "NW1"]])
            _ = try await h.update(token, ["primaryAddress": ["zip": "SW1", "country": "UK"]])
            let address = try await h.entity(token, [("attribute_name", "primaryAddress")])["result"]
            #expect(address?["city"] == "London")
            #expect(address?["zip"] == "SW1")
            #expect(address?["country"] == "UK")

            // attribute_name targets the object; include_record returns the value there.
            let answer = try await h.update(token, ["city": "Paris"], attributeName: "primaryAddress", includeRecord: true)
            #expect(answer["stat"] == "ok")
            #expect(answer["result"]?["city"] == "Paris")
            #expect(answer["result"]?["zip"] == "SW1")
        }
    }

    @Test func appendsPluralElementsWithNewIdsAndUpdatesById() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let first = try await h.update(
                token, ["photos": [["type": "small", "value": "a.png"], ["type": "large", "value": "b.png"]]],
                includeRecord: true)
            let photos = first["result"]?["photos"]?.arrayValue ?? []
            let ids = photos.map { $0["id"] }
            #expect(ids == [1, 2])

            _ = try await h.update(token, ["photos": [["id": 1, "value": "a2.png"], ["type": "huge", "value": "c.png"]]])
            let after = try await h.entity(token, [("attribute_name", "photos")])["result"]?.arrayValue ?? []
            #expect(after.count == 3)
            #expect(after[0] == ["id": 1, "type": "small", "value": "a2.png"])
            #expect(after[2]["id"] == 3)

            // Ids keep growing across plurals of one user.
            let statuses = try await h.update(token, ["statuses": [["status": "hello"]]], includeRecord: true)
            #expect(statuses["result"]?["statuses"]?[0]?["id"] == 4)

            // Updating one element through its path.
            let element = try await h.update(token, ["type": "tiny"], attributeName: "photos#2", includeRecord: true)
            #expect(element["result"] == ["id": 2, "type": "tiny", "value": "b.png"])

            let missing = try await h.update(token, ["photos": [["id": 42, "value": "x"]]])
            #expect(missing["code"] == 200)
        }
    }

    @Test func nestedPluralsInsidePluralElements() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let created = try await h.update(
                token, ["profiles": [["identifier": "p1", "friends": [["identifier": "f1", "displayName": "One"]]]]],
                includeRecord: true)
            let profile = try #require(created["result"]?["profiles"]?[0])
            #expect(profile["friends"] == [["id": 2, "identifier": "f1", "displayName": "One"]])

            // Through the element's path: merge by id, append without.
            let merged = try await h.update(
                token, ["friends": [["id": 2, "displayName": "Uno"], ["displayName": "Two"]]], attributeName: "profiles#1",
                includeRecord: true)
            #expect(merged["result"]?["friends"] == [
                ["id": 2, "identifier": "f1", "displayName": "Uno"], ["id": 3, "identifier": nil, "displayName": "Two"],
            ])
            // Down to one member of a nested element.
            let member = try await h.update(token, "Dos", attributeName: "/profiles#1/friends#3/displayName", includeRecord: true)
            #expect(member["result"] == "Dos")
            #expect(try await h.entity(token, [("attribute_name", "/profiles#1/friends#3")])["result"]?["displayName"] == "Dos")
            let missing = try await h.update(token, ["displayName": "x"], attributeName: "/profiles#1/friends#9")
            #expect(missing["code"] == 200)
            #expect(try await h.update(token, ["friends": [["nickname": "x"]]], attributeName: "profiles#1")["attribute_name"]
                == "/profiles#1/friends#4/nickname")

            // The schema shows the nested plural.
            let schema = try await h.capture("/entityType", [("type_name", "user"), ("client_id", Harness.clientId),
                                                         ("client_secret", Harness.defaultSecret)])
            let profiles = schema["schema"]?["attr_defs"]?.arrayValue?.first { $0["name"] == "profiles" }
            let friends = profiles?["attr_defs"]?.arrayValue?.first { $0["name"] == "friends" }
            #expect(friends?["type"] == "plural")
            let names = friends?["attr_defs"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            #expect(names == ["id", "identifier", "displayName"])
        }
    }

    @Test func manyElementsUpdatedByIdInOneCall() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let photos = JSONValue.array((0..<2000).map { ["value": .string("p\($0).png")] })
            _ = try await h.update(token, ["photos": photos])
            let edits = JSONValue.array((1...2000).reversed().map { ["id": .int(Int64($0)), "type": .string("t\($0)")] })
            #expect(try await h.update(token, ["photos": edits])["stat"] == "ok")
            let read = try await h.entity(token, [("attribute_name", "photos#1500")])["result"]
            #expect(read == ["id": 1500, "type": "t1500", "value": "p1499.png"])
        }
    }

    @Test func acceptsValueAsTheOlderName() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let answer = try await h.capture(
                "/entity.update", [("access_token", token), ("value", #"{"city":"Oslo"}"#), ("attribute_name", "primaryAddress")])
            #expect(answer["stat"] == "ok")
            #expect(try await h.entity(token, [("attribute_name", "primaryAddress/city")])["result"] == "Oslo")
        }
    }

    @Test func schemaViolationsAreRefused() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let unknown = try await h.update(token, ["favoriteColor": "blue"])
            #expect(unknown["code"] == 223)
            #expect(unknown["error"] == "unknown_attribute")
            #expect(unknown["attribute_name"] == "/favoriteColor")

            let unknownNested = try await h.update(token, ["primaryAddress": ["planet": "Mars"]])
            #expect(unknownNested["code"] == 223)
            #expect(unknownNested["attribute_name"] == "/primaryAddress/planet")

            for reserved in ["id", "uuid", "created", "lastUpdated"] {
                let answer = try await h.update(token, .object([reserved: "x"]))
                #expect(answer["code"] == 234, "\(reserved)")
                #expect(answer["error"] == "reserved_attribute")
                #expect(answer["attribute_name"] == .string("/\(reserved)"))
            }

            let wrongType = try await h.update(token, ["displayName": 42])
            #expect(wrongType["code"] == 341)
            #expect(wrongType["error"] == "invalid_json_type")
            #expect(wrongType["attribute_name"] == "/displayName")
            #expect(try await h.update(token, ["primaryAddress": "London"])["code"] == 341)
            #expect(try await h.update(token, ["photos": ["a.png"]])["code"] == 341)
            #expect(try await h.update(token, ["photos": ["id": 1]])["code"] == 341)

            let badDate = try await h.update(token, ["birthday": "1990-02-31"])
            #expect(badDate["code"] == 342)
            #expect(badDate["error"] == "invalid_date_time")
            #expect(try await h.update(token, ["emailVerified": "not a time"])["code"] == 342)

            let tooLong = try await h.update(token, ["aboutMe": .string(String(repeating: "a", count: 1001))])
            #expect(tooLong["code"] == 363)
            #expect(tooLong["error"] == "length_violation")
            #expect(try await h.update(token, ["givenName": .string(String(repeating: "a", count: 65))])["code"] == 363)
            #expect(try await h.update(token, ["aboutMe": .string(String(repeating: "a", count: 1000))])["stat"] == "ok")

            let notJSON = try await h.capture("/entity.update", [("access_token", token), ("attributes", "{nope")])
            #expect(notJSON["code"] == 200)
            #expect(notJSON["argument_name"] == "attributes")
            let missing = try await h.capture("/entity.update", [("access_token", token)])
            #expect(missing["code"] == 100)
        }
    }

    @Test func writesAreAllOrNothing() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", [("displayName", "Ada")])
            let answer = try await h.update(token, ["displayName": "Changed", "gender": "f", "photos": [["type": 5]]])
            #expect(answer["code"] == 341)
            let record = try await h.entity(token)["result"]
            #expect(record?["displayName"] == "Ada")
            #expect(record?["gender"] == .null)
            #expect(record?["photos"] == [])
        }
    }

    @Test func uniqueViolations() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "first@example.com", [("username", "first")])
            let token = try await h.registeredToken(email: "second@example.com")
            let email = try await h.update(token, ["email": "FIRST@example.com"])
            #expect(email["code"] == 361)
            #expect(email["error"] == "unique_violation")
            #expect(email["attribute_name"] == "/email")
            #expect(try await h.update(token, ["username": "First"])["code"] == 361)

            // Keeping one's own email is no conflict; profiles identifiers are unique too.
            #expect(try await h.update(token, ["email": "Second@example.com"])["stat"] == "ok")
            #expect(try await h.update(token, ["profiles": [["identifier": "https://x/1", "domain": "x"]]])["stat"] == "ok")
            let duplicate = try await h.update(token, ["profiles": [["identifier": "https://x/1"]]])
            #expect(duplicate["code"] == 361)
            #expect(duplicate["attribute_name"] == "/profiles/identifier")
            let required = try await h.update(token, ["profiles": [["domain": "y"]]])
            #expect(required["code"] == 362)
        }
    }

    @Test func updatesLastUpdatedOnTheEmulatorClock() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let created = try await h.entity(token)["result"]?["created"]
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 120])
            _ = try await h.update(token, ["gender": "f"])
            let record = try await h.entity(token)["result"]
            #expect(record?["created"] == created)
            let lastUpdated = try #require(record?["lastUpdated"]?.stringValue)
            let createdText = try #require(created?.stringValue)
            #expect(lastUpdated > createdText)
        }
    }

    @Test func passwordCanBeChangedButNeverRead() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            #expect(try await h.update(token, ["password": "new secret 42"])["stat"] == "ok")
            #expect(try await h.entity(token)["result"]?["password"] == ["type": "password-bcrypt"])
            let old = try await h.signIn([("user", "ada@example.com"), ("password", "correct horse")])
            #expect(old["code"] == 210)
            let new = try await h.signIn([("user", "ada@example.com"), ("password", "new secret 42")])
            #expect(new["stat"] == "ok")
        }
    }
}
