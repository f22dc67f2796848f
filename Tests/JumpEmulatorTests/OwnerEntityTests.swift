import Testing

@testable import JumpEmulator

/// The server-side (owner) entity calls through the real router, with `client_id` + `client_secret`
/// posted (the signed form is in RequestSignatureTests; janrain-python-api drives all three forms in
/// Tests/serverapi).
@Suite("Owner entity calls")
struct OwnerEntityTests {
    static let owner = [("client_id", Harness.clientId), ("client_secret", DefaultApp.clientSecret)]

    private func owner(_ h: Harness, _ path: String, _ params: [(String, String)]) async throws -> JSONValue {
        try await h.capture(path, Self.owner + params)
    }

    @Test func createsCountsFindsAndDeletesRecords() async throws {
        try await Harness.run { h in
            let made = try await owner(h, "/entity.create", [
                ("type_name", "user"), ("include_record", "true"),
                ("attributes", #"{"email":"ada@example.com","displayName":"Ada","primaryAddress":{"city":"Paris"}}"#),
            ])
            #expect(made["stat"] == "ok")
            let uuid = try #require(made["uuid"]?.stringValue)
            #expect(made["result"]?["primaryAddress"]?["city"] == "Paris")
            _ = try await owner(h, "/entity.create", [("type_name", "user"), ("attributes", #"{"email":"bob@example.com"}"#)])
            let taken = try await owner(h, "/entity.create", [("type_name", "user"), ("attributes", #"{"email":"ADA@example.com"}"#)])
            #expect(taken["code"] == 361)

            #expect(try await owner(h, "/entity.count", [("type_name", "user")])["total_count"] == 2)
            let found = try await owner(h, "/entity.find", [
                ("type_name", "user"), ("filter", "primaryAddress.city = 'Paris' or email = 'nobody'"),
                ("attributes", #"["uuid"]"#), ("show_total_count", "true"),
            ])
            #expect(found["results"] == [["uuid": .string(uuid)]])
            #expect(found["total_count"] == 1)
            let badFilter = try await owner(h, "/entity.find", [("type_name", "user"), ("filter", "((email = 'x'")])
            #expect(badFilter["code"] == 200)
            #expect(badFilter["argument_name"] == "filter")

            #expect(try await owner(h, "/entity", [("uuid", uuid)])["result"]?["displayName"] == "Ada")
            #expect(try await owner(h, "/entity.delete", [("uuid", uuid)])["stat"] == "ok")
            let gone = try await owner(h, "/entity", [("uuid", uuid)])
            #expect(gone["code"] == 310)
            #expect(gone["error"] == "record_not_found")
            #expect(try await owner(h, "/entity.count", [("type_name", "user")])["total_count"] == 1)
        }
    }

    @Test func writeWithTokenLimitsTokensNotTheOwner() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let uuid = try #require(try await h.entity(token)["result"]?["uuid"]?.stringValue)
            _ = try await owner(h, "/entityType.setAccessSchema", [
                ("type_name", "user"), ("access_type", "write_with_token"), ("attributes", #"["givenName"]"#),
            ])
            #expect(try await h.update(token, ["displayName": "Token"])["code"] == 223)
            let byOwner = try await owner(h, "/entity.update", [("uuid", uuid), ("attributes", #"{"displayName":"Owner"}"#)])
            #expect(byOwner["stat"] == "ok")
            #expect(try await h.entity(token)["result"]?["displayName"] == "Owner")
        }
    }

    @Test func anAccessTokenCannotSearchCountOrCreate() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            for path in ["/entity.find", "/entity.count", "/entity.create"] {
                let refused = try await h.capture(path, [("access_token", token), ("type_name", "user"),
                                                         ("attributes", #"{"email":"x@example.com"}"#)])
                #expect(refused["code"] == 403, "\(path)")
                #expect(refused["error"] == "client_permission_error")
            }
            // A token call without client credentials keeps its old answers.
            #expect(try await h.capture("/entity", [])["argument_name"] == "access_token")
        }
    }

    @Test func aSecretInTheQueryStringIsNotRead() async throws {
        try await Harness.run { h in
            let refused = try await h.capture(
                "/entity.count", [("client_id", Harness.clientId), ("type_name", "user")],
                query: "client_secret=\(DefaultApp.clientSecret)")
            #expect(refused["code"] == 100)
            #expect(refused["argument_name"] == "client_secret")
            #expect(refused["error_description"]?.stringValue?.contains("query string") == true)
        }
    }
}
