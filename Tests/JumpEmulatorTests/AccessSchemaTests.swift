import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Access schemas")
struct AccessSchemaTests {
    static let credentials: [(String, String)] = [
        ("client_id", Harness.clientId), ("client_secret", Harness.defaultSecret), ("type_name", "user"),
    ]

    func setWriteWithToken(_ h: Harness, _ paths: JSONValue) async throws -> JSONValue {
        try await h.capture("/entityType.setAccessSchema", Self.credentials + [
            ("access_type", "write_with_token"), ("attributes", paths.serialized()),
        ])
    }

    @Test func setGetAndRemove() async throws {
        try await Harness.run { h in
            let set = try await setWriteWithToken(h, ["primaryAddress.city", "/photos", "displayName", "photos"])
            #expect(set == ["stat": "ok"])

            let got = try await h.capture("/entityType.getAccessSchema", Self.credentials + [("access_type", "write_with_token")])
            #expect(got["stat"] == "ok")
            #expect(got["attributes"] == ["/displayName", "/photos", "/primaryAddress/city"])
            let defs = got["schema"]?["attr_defs"]?.arrayValue ?? []
            #expect(defs.compactMap { $0["name"]?.stringValue } == ["id", "uuid", "created", "lastUpdated", "displayName", "primaryAddress", "photos"])
            let address = defs.first { $0["name"] == "primaryAddress" }
            #expect(address?["attr_defs"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["city"])

            // /entityType shows it too (an emulator extra).
            let entityType = try await h.capture("/entityType", [("type_name", "user"), ("client_id", Harness.clientId),
                                                         ("client_secret", Harness.defaultSecret)])
            #expect(entityType["access_schema"] == ["write_with_token": ["/displayName", "/photos", "/primaryAddress/city"]])

            // Other access types are stored, not enforced.
            let read = try await h.capture("/entityType.setAccessSchema", Self.credentials + [
                ("access_type", "read"), ("attributes", #"["email"]"#),
            ])
            #expect(read["stat"] == "ok")
            let readBack = try await h.capture("/entityType.getAccessSchema", Self.credentials + [("access_type", "read")])
            #expect(readBack["attributes"] == ["/email"])

            // An empty list removes the restriction.
            #expect(try await setWriteWithToken(h, [])["stat"] == "ok")
            let none = try await h.capture("/entityType.getAccessSchema", Self.credentials + [("access_type", "write_with_token")])
            #expect(none["attributes"] == [])
            #expect(none["schema"]?["attr_defs"]?.arrayValue?.count == DefaultSchema.user.attributes.count)
            let plain = try await h.capture("/entityType", [("type_name", "user"), ("client_id", Harness.clientId),
                                                         ("client_secret", Harness.defaultSecret)])
            #expect(plain["access_schema"] == nil)
        }
    }

    @Test func clientAuthentication() async throws {
        try await Harness.run { h in
            let wrong = try await h.capture("/entityType.setAccessSchema", [
                ("client_id", Harness.clientId), ("client_secret", "nope"), ("access_type", "write_with_token"),
                ("attributes", #"["displayName"]"#),
            ])
            #expect(wrong["stat"] == "error")
            #expect(wrong["code"] == 402)
            #expect(wrong["error"] == "invalid_client_credentials")
            let unknownClient = try await h.capture("/entityType.getAccessSchema", [
                ("client_id", "nobody"), ("client_secret", "x"), ("access_type", "write_with_token"),
            ])
            #expect(unknownClient["code"] == 402)
            let noSecret = try await h.capture("/entityType.getAccessSchema", [
                ("client_id", Harness.clientId), ("access_type", "write_with_token"),
            ])
            #expect(noSecret["code"] == 100)
            #expect(noSecret["argument_name"] == "client_secret")

            // HTTP Basic works as well as parameters.
            var headers = HTTPFields()
            headers[.authorization] = "Basic " + Data("\(Harness.clientId):\(Harness.defaultSecret)".utf8).base64EncodedString()
            let basic = try await h.capture(
                "/entityType.getAccessSchema", [("type_name", "user"), ("access_type", "write_with_token")], headers: headers)
            #expect(basic["stat"] == "ok")
        }
    }

    @Test func badArguments() async throws {
        try await Harness.run { h in
            let unknown = try await setWriteWithToken(h, ["favoriteColor"])
            #expect(unknown["code"] == 223)
            #expect(unknown["attribute_name"] == "/favoriteColor")
            #expect(try await setWriteWithToken(h, ["/primaryAddress/planet"])["attribute_name"] == "/primaryAddress/planet")
            #expect(try await setWriteWithToken(h, [1])["code"] == 200)
            let notArray = try await h.capture("/entityType.setAccessSchema", Self.credentials + [
                ("access_type", "write_with_token"), ("attributes", "displayName"),
            ])
            #expect(notArray["code"] == 200)
            #expect(notArray["argument_name"] == "attributes")
            let badType = try await h.capture("/entityType.setAccessSchema", Self.credentials + [
                ("access_type", "everything"), ("attributes", "[]"),
            ])
            #expect(badType["argument_name"] == "access_type")
            let otherEntity = try await h.capture("/entityType.getAccessSchema", [
                ("client_id", Harness.clientId), ("client_secret", Harness.defaultSecret), ("type_name", "order"),
                ("access_type", "write"),
            ])
            #expect(otherEntity["code"] == 222)
            let forNobody = try await h.capture("/entityType.getAccessSchema", Self.credentials + [
                ("access_type", "write"), ("for_client_id", "nobody"),
            ])
            #expect(forNobody["argument_name"] == "for_client_id")
        }
    }

    @Test func enforcedOnUpdateReplaceAndDelete() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.update(token, ["photos": [["value": "a.png"]], "primaryAddress": ["zip": "NW1"]])
            _ = try await setWriteWithToken(h, ["displayName", "primaryAddress.city", "photos"])

            // Inside the schema: listed paths, their descendants and plural elements.
            #expect(try await h.update(token, ["displayName": "Ada", "primaryAddress": ["city": "London"]])["stat"] == "ok")
            #expect(try await h.update(token, ["value": "b.png"], attributeName: "/photos#1")["stat"] == "ok")
            #expect(try await h.update(token, ["photos": [["type": "t"]]])["stat"] == "ok")
            #expect(try await h.replace(token, [["value": "c.png"]], attributeName: "photos")["stat"] == "ok")
            #expect(try await h.delete(token, "/photos#3")["stat"] == "ok")
            #expect(try await h.delete(token, "primaryAddress.city")["stat"] == "ok")

            // Outside it: 223 naming the first offending path, sorted, in canonical form.
            let update = try await h.update(token, ["givenName": "A", "aboutMe": "x", "displayName": "B"])
            #expect(update["code"] == 223)
            #expect(update["error"] == "unknown_attribute")
            #expect(update["attribute_name"] == "/aboutMe")
            let nested = try await h.update(token, ["zip": "SW1"], attributeName: "primaryAddress")
            #expect(nested["attribute_name"] == "/primaryAddress/zip")
            // Replacing the address would clear its other members: not allowed with only city listed.
            let replace = try await h.replace(token, ["city": "Paris"], attributeName: "primaryAddress")
            #expect(replace["code"] == 223)
            #expect(replace["attribute_name"] == "/primaryAddress/address1")
            let delete = try await h.delete(token, "primaryAddress")
            #expect(delete["attribute_name"] == "/primaryAddress")
            let profiles = try await h.update(token, ["profiles": [["identifier": "p"]]])
            #expect(profiles["attribute_name"] == "/profiles/identifier")

            let record = try #require(try await h.entity(token)["result"])
            #expect(record["givenName"] == .null)
            #expect(record["primaryAddress"]?["zip"] == "NW1")
            #expect(record["displayName"] == "Ada")

            // Other apps' tokens are not affected; removing the schema lifts the restriction.
            _ = try await setWriteWithToken(h, [])
            #expect(try await h.update(token, ["givenName": "A"])["stat"] == "ok")
        }
    }

    @Test func adminShortcut() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let (status, body) = try await h.admin(.post, "/apps/\(Harness.clientId)/access_schema", [
                "write_with_token": ["/profiles", "displayName"],
            ])
            #expect(status == .ok)
            #expect(body == ["client_id": .string(Harness.clientId), "write_with_token": ["/displayName", "/profiles"]])
            #expect(try await h.update(token, ["profiles": [["identifier": "p", "friends": [["displayName": "F"]]]]])["stat"] == "ok")
            let refused = try await h.update(token, ["gender": "f"])
            #expect(refused["code"] == 223)
            #expect(refused["attribute_name"] == "/gender")
            #expect(try await h.admin(.get, "/apps/\(Harness.clientId)/access_schema").1["write_with_token"] == ["/displayName", "/profiles"])

            let (badStatus, bad) = try await h.admin(.post, "/apps/\(Harness.clientId)/access_schema", ["write_with_token": ["nope"]])
            #expect(badStatus == .badRequest)
            #expect(bad["capture_error"]?["code"] == 223)
            #expect(try await h.admin(.post, "/apps/nobody/access_schema", ["write_with_token": []]).0 == .notFound)
            #expect(try await h.admin(.post, "/apps/\(Harness.clientId)/access_schema", [:]).0 == .badRequest)

            _ = try await h.admin(.post, "/apps/\(Harness.clientId)/access_schema", ["write_with_token": []])
            #expect(try await h.update(token, ["gender": "f"])["stat"] == "ok")
            // A reset forgets access schemas.
            _ = try await h.admin(.post, "/apps/\(Harness.clientId)/access_schema", ["write_with_token": ["email"]])
            _ = try await h.admin(.post, "/reset")
            #expect(try await h.admin(.get, "/apps/\(Harness.clientId)/access_schema").1 == ["client_id": .string(Harness.clientId)])
        }
    }
}
