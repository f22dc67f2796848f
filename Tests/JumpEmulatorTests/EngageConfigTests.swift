import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

@Suite("Engage: apps and mobile_config_and_baseurl")
struct EngageConfigTests {
    static let configPath = "/openid/mobile_config_and_baseurl?appId=jump-default-engage&device=android&app_name=t&version=1"

    @Test func defaultConfiguration() async throws {
        try await Harness.run { h in
            let response = try await h.get(Self.configPath)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let config = try #require(JSONValue.parse(String(buffer: response.body)))
            #expect(config["baseurl"] == .string(h.engageBase + "/"))
            #expect(config["enabled_providers"] == ["facebook", "google", "twitter", "linkedin", "openid", "yahoo"])
            #expect(config["social_providers"] == ["facebook", "twitter", "linkedin"])
            #expect(config["hide_tagline"] == "NO")
            let info = try #require(config["provider_info"]?.objectValue)
            #expect(Set(info.keys) == ["facebook", "google", "twitter", "linkedin", "openid", "yahoo"])
            #expect(info["facebook"]?["friendly_name"] == "Facebook")
            #expect(info["facebook"]?["url"] == "/facebook/start")
            #expect(info["facebook"]?["requires_input"] == "NO")
            #expect(info["facebook"]?["cookie_domains"]?.arrayValue?.isEmpty == false)
            #expect(info["openid"]?["url"] == "/openid/start")
            #expect(info["openid"]?["requires_input"] == "YES")
            #expect(info["openid"]?["input_prompt"] == "Enter your OpenID URL")
            #expect(info["openid"]?["openid_identifier"] == "%@")
            #expect(info["twitter"]?["social_sharing_properties"]?["uses_set_status_if_no_url"] == "YES")
            #expect(info["linkedin"]?["social_sharing_properties"]?["uses_set_status_if_no_url"] == "YES")
            #expect(info["facebook"]?["social_sharing_properties"]?["uses_set_status_if_no_url"] == "NO")
            #expect(info["facebook"]?["social_sharing_properties"]?["can_share_media"] == "YES")
            #expect(info["twitter"]?["social_sharing_properties"]?["max_characters"]?.intValue != nil)
        }
    }

    @Test func etagAndNotModified() async throws {
        try await Harness.run { h in
            let first = try await h.get(Self.configPath)
            let etag = try #require(first.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 2)
            #expect(try await h.get(Self.configPath).headers[.eTag] == etag)  // stable

            let cached = try await h.get(Self.configPath, headers: [.ifNoneMatch: etag])
            #expect(cached.status == .notModified)
            #expect(cached.body.readableBytes == 0)
            #expect(cached.headers[.eTag] == etag)
            // Android sends an empty If-None-Match before it has a tag.
            #expect(try await h.get(Self.configPath, headers: [.ifNoneMatch: ""]).status == .ok)
            #expect(try await h.get(Self.configPath, headers: [.ifNoneMatch: "\"other\""]).status == .ok)

            // Changing the app changes its document and so its tag.
            let (status, _) = try await h.admin(.post, "/engage_apps", [
                "engage_app_id": "jump-default-engage", "providers": ["google", "facebook"],
            ])
            #expect(status == .ok)
            let changed = try await h.get(Self.configPath, headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
            #expect(JSONValue.parse(String(buffer: changed.body))?["enabled_providers"] == ["google", "facebook"])
        }
    }

    @Test func unknownApplicationIs404() async throws {
        try await Harness.run { h in
            for uri in ["/openid/mobile_config_and_baseurl?appId=nope&device=android", "/openid/mobile_config_and_baseurl"] {
                let (status, answer) = try await h.getJSON(uri)
                #expect(status == .notFound)
                #expect(answer == ["stat": "fail", "err": ["code": 7, "msg": "Unknown application"]])
            }
        }
    }

    @Test func adminCreatesAndReplacesApps() async throws {
        try await Harness.run { h in
            let (status, created) = try await h.admin(.post, "/engage_apps", [
                "engage_app_id": "order-app", "api_key": "order-key", "providers": ["yahoo", "twitter", "corp"],
                "sharing_providers": ["twitter"],
                "custom_provider_info": ["corp": ["friendly_name": "Corp SSO"], "twitter": ["friendly_name": "X"]],
                "whitelisted_domains": ["https://app.example/"],
            ])
            #expect(status == .ok)
            #expect(created["api_key"] == "order-key")
            #expect(created["providers"] == ["yahoo", "twitter", "corp"])
            #expect(created["default"] == false)
            #expect(try await h.admin(.get, "/engage_apps/order-app").1 == created)

            let (_, config) = try await h.getJSON("/openid/mobile_config_and_baseurl?appId=order-app")
            #expect(config["enabled_providers"] == ["yahoo", "twitter", "corp"])
            #expect(config["social_providers"] == ["twitter"])
            #expect(config["provider_info"]?["corp"]?["friendly_name"] == "Corp SSO")
            #expect(config["provider_info"]?["corp"]?["url"] == "/corp/start")
            // Custom info overlays the built-in info member by member.
            #expect(config["provider_info"]?["twitter"]?["friendly_name"] == "X")
            #expect(config["provider_info"]?["twitter"]?["url"] == "/twitter/start")

            // Replacing without api_key keeps the key; omitted lists go back to the defaults.
            let (_, replaced) = try await h.admin(.post, "/engage_apps", ["engage_app_id": "order-app"])
            #expect(replaced["api_key"] == "order-key")
            #expect(replaced["providers"] == ["facebook", "google", "twitter", "linkedin", "openid", "yahoo"])
            #expect(replaced["whitelisted_domains"] == [])

            let listed = try await h.admin(.get, "/engage_apps").1["engage_apps"]?.arrayValue ?? []
            #expect(listed.map { $0["engage_app_id"] } == ["jump-default-engage", "order-app"])
            #expect(listed.first?["api_key"] == "jump-engage-api-key")
            #expect(listed.first?["default"] == true)
        }
    }

    @Test func adminRefusesBadApps() async throws {
        try await Harness.run { h in
            let bad: [JSONValue] = [
                [:], ["engage_app_id": "a/b"], ["engage_app_id": "x", "providers": "facebook"],
                ["engage_app_id": "x", "providers": ["face book"]], ["engage_app_id": "x", "providers": ["a", "a"]],
                ["engage_app_id": "x", "custom_provider_info": ["p": "not an object"]],
                ["engage_app_id": "x", "whitelisted_domains": [1]], ["engage_app_id": "x", "api_key": ""],
            ]
            for body in bad {
                #expect(try await h.admin(.post, "/engage_apps", body).0 == .badRequest, "\(body.serialized())")
            }
            let (status, answer) = try await h.admin(.post, "/engage_apps", [
                "engage_app_id": "thief", "api_key": "jump-engage-api-key",
            ])
            #expect(status == .conflict)
            #expect(answer["error"] == "api_key_taken")
            #expect(try await h.admin(.get, "/engage_apps/missing").0 == .notFound)
        }
    }

    @Test func engageTokenLifetimeSetting() async throws {
        try await Harness.run { h in
            #expect(try await h.admin(.get, "/settings").1["engage_token_lifetime"] == 600)
            let (status, updated) = try await h.admin(.post, "/settings", ["engage_token_lifetime": 30])
            #expect(status == .ok)
            #expect(updated["engage_token_lifetime"] == 30)
            for bad: JSONValue in [0, 86_401, "x"] {
                #expect(try await h.admin(.post, "/settings", ["engage_token_lifetime": bad]).0 == .badRequest)
            }
            #expect(try await h.admin(.get, "/settings").1["engage_token_lifetime"] == 30)
            let rpx = try await h.browserSignIn("facebook", name: "Short Lived", email: "short@example.com")
            let token = try #require(rpx["token"]?.stringValue)
            let row = try await h.emulator.store.read { db in try EngageTokenRow.find(token, in: db) }
            #expect(row.map { $0.expiresAt - $0.created } == 30)
        }
    }

    @Test func resetClearsEngage() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/engage_apps", ["engage_app_id": "jump-default-engage", "providers": ["google"]])
            _ = try await h.admin(.post, "/engage_apps", ["engage_app_id": "other"])
            _ = try await h.identity(["provider": "google", "email": "kept@example.com"])
            let rpx = try await h.browserSignIn("google", name: "Gone", email: "gone@example.com")
            _ = try await h.post("/social/record_activity", [("method", "email")])
            _ = try await h.getJSON("/openid/get_urls?urls=" + Form.value(#"{"activity":["http://a.example/"]}"#))
            _ = try await h.admin(.post, "/engage/share_errors", ["provider": "google", "code": 6, "msg": "x"])
            _ = try await h.admin(.post, "/settings", ["engage_token_lifetime": 5])

            #expect(try await h.admin(.post, "/reset").0 == .ok)

            let (_, config) = try await h.getJSON(EngageConfigTests.configPath)
            #expect(config["enabled_providers"]?.arrayValue?.count == 6)
            #expect(try await h.admin(.get, "/engage_apps/other").0 == .notFound)
            #expect(try await h.admin(.get, "/identities").1 == ["identities": []])
            #expect(try await h.admin(.get, "/engage/activities").1 == ["activities": []])
            #expect(try await h.admin(.get, "/engage/share_errors").1 == ["share_errors": []])
            #expect(try await h.admin(.get, "/settings").1["engage_token_lifetime"] == 600)
            #expect(try await h.get("/s/1").status == .notFound)
            let token = rpx["token"]?.stringValue ?? ""
            let after = try await h.deviceResult("/signin/device?token=\(token)")
            #expect(after["stat"] == "fail")
            // Numbering starts again.
            #expect(try await h.identity(["provider": "google"])["identifier"] == "https://google.example/1")
        }
    }

    @Test func baseFollowsTheHostHeader() async throws {
        let emulator = try await Emulator.open(EmulatorOptions(port: 0, passwordHashCost: 4))
        let app = Application(router: emulator.makeRouter())
        try await app.test(.live) { client in
            let response = try await client.execute(uri: Self.configPath, method: .get)
            let config = try #require(JSONValue.parse(String(buffer: response.body)))
            // The test client's Host is "localhost"; the bound address is 127.0.0.1:<port>.
            #expect(config["baseurl"] == "http://localhost/")
            #expect(emulator.publicBaseURL.hasPrefix("http://127.0.0.1:"))
        }
    }
}
