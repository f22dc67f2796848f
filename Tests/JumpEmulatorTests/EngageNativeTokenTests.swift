import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Engage: /signin/oauth_token")
struct EngageNativeTokenTests {
    func exchange(_ h: Harness, _ provider: String, _ token: String, secret: String? = nil) async throws -> JSONValue {
        var params: [(String, String)] = [("token", token), ("provider", provider)]
        if let secret { params.append(("token_secret", secret)) }
        let (status, answer) = try await h.post("/signin/oauth_token?providername=\(provider)", params)
        #expect(status == .ok)
        return answer
    }

    @Test func providerTokenBecomesAnEngageToken() async throws {
        try await Harness.run { h in
            let answer = try await exchange(h, "facebook", #"{"email":"nat@example.com","display_name":"Nat Ive"}"#)
            #expect(answer["stat"] == "ok")
            #expect(answer.objectValue?.keys.sorted() == ["stat", "token"])
            let token = try #require(answer["token"]?.stringValue)
            #expect(token.count == 40)
            let row = try #require(try await h.emulator.store.read { db in try EngageTokenRow.find(token, in: db) })
            #expect(row.deviceToken == nil)
            #expect(row.identifier == "https://facebook.example/nat@example.com")
            #expect(row.profile["displayName"] == "Nat Ive")
            #expect(row.profile["verifiedEmail"] == "nat@example.com")
            #expect(row.profile["providerName"] == "Facebook")

            // auth_info reads it like any other token.
            let info = try await h.post("/api/v2/auth_info", [("apiKey", Harness.engageAPIKey), ("token", token)]).1
            #expect(info["profile"]?["identifier"] == .string(row.identifier))

            // The identifier alone signs in as the same identity, with its profile.
            let again = try await exchange(h, "facebook", #"{"identifier":"https://facebook.example/nat@example.com"}"#)
            let second = try await h.post("/api/v2/auth_info", [("apiKey", Harness.engageAPIKey), ("token", again["token"]?.stringValue ?? "")]).1
            #expect(second["profile"]?["email"] == "nat@example.com")
            #expect(second["profile"]?["displayName"] == "Nat Ive")
            #expect(try await h.admin(.get, "/identities?provider=facebook").1["identities"]?.arrayValue?.count == 1)
        }
    }

    @Test func reusesIdentitiesMadeElsewhere() async throws {
        try await Harness.run { h in
            let made = try await h.identity([
                "provider": "google", "identifier": "https://google.example/made", "display_name": "Made Here",
                "email": "made@example.com",
            ])
            let answer = try await exchange(h, "google", #"{"identifier":"https://google.example/made","verified_email":false,"email":"new@example.com"}"#)
            let info = try await h.post("/api/v2/auth_info", [("apiKey", Harness.engageAPIKey), ("token", answer["token"]?.stringValue ?? "")]).1
            #expect(info["profile"]?["identifier"] == made["identifier"])
            #expect(info["profile"]?["displayName"] == "Made Here")
            #expect(info["profile"]?["email"] == "new@example.com")
            #expect(info["profile"]?["verifiedEmail"] == nil)
            let unnamed = try await exchange(h, "google", "{}")
            let row = try await h.emulator.store.read { db in try EngageTokenRow.find(unnamed["token"]?.stringValue ?? "", in: db) }
            #expect(row?.identifier.hasPrefix("https://google.example/") == true)
        }
    }

    @Test func refusals() async throws {
        try await Harness.run { h in
            #expect(try await exchange(h, "myspace", "{}") == ["stat": "fail", "err": ["code": 1, "msg": "Invalid parameter: providername"]])
            #expect(try await exchange(h, "twitter", #"{"email":"t@example.com"}"#)
                == ["stat": "fail", "err": ["code": 1, "msg": "Missing parameter: token_secret"]])
            #expect(try await exchange(h, "twitter", #"{"email":"t@example.com"}"#, secret: "s")["stat"] == "ok")
            let invalidToken: JSONValue = ["stat": "fail", "err": ["code": 1, "msg": "Invalid parameter: token"]]
            for bad in ["not json", "[1]", #"{"email":5}"#, #"{"verified_email":"yes"}"#, ""] {
                #expect(try await exchange(h, "google", bad) == invalidToken, "\(bad)")
            }
            // The provider may come in the body only, as providername or provider.
            let bodyOnly = try await h.post("/signin/oauth_token", [("token", "{}"), ("providername", "yahoo")]).1
            #expect(bodyOnly["stat"] == "ok")
            let providerOnly = try await h.post("/signin/oauth_token", [("token", "{}"), ("provider", "linkedin")]).1
            #expect(providerOnly["stat"] == "ok")
            // The app follows applicationId when given.
            _ = try await h.admin(.post, "/engage_apps", ["engage_app_id": "g-only", "providers": ["google"]])
            let other = try await h.post("/signin/oauth_token?providername=facebook&applicationId=g-only", [("token", "{}")]).1
            #expect(other["err"]?["msg"] == "Invalid parameter: providername")
            let google = try await h.post("/signin/oauth_token?providername=google&applicationId=g-only", [("token", "{}")]).1
            let row = try await h.emulator.store.read { db in try EngageTokenRow.find(google["token"]?.stringValue ?? "", in: db) }
            #expect(row?.engageAppId == "g-only")
        }
    }
}
