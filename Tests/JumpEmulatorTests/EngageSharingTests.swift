import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Engage: sharing")
struct EngageSharingTests {
    static let activity = #"{"action":"read a book","url":"http://books.example/1","title":"A book"}"#

    func deviceToken(_ h: Harness, _ provider: String = "facebook") async throws -> String {
        let rpx = try await h.browserSignIn(provider, name: "Sha Rer", email: "share-\(provider)@example.com")
        return try #require(rpx["device_token"]?.stringValue)
    }

    @Test func activityAndStatusAreStored() async throws {
        try await Harness.run { h in
            let facebook = try await deviceToken(h)
            let (status, ok) = try await h.post("/api/v2/activity", [
                ("activity", Self.activity), ("device_token", facebook), ("url_shortening", "true"), ("provider", "facebook"),
                ("device", "android"), ("app_name", "tests"),
            ])
            #expect(status == .ok)
            #expect(ok == ["stat": "ok"])
            let twitter = try await deviceToken(h, "twitter")
            // set_status: the provider is optional (Android leaves it out).
            #expect(try await h.post("/api/v2/set_status", [("status", "hello & bye"), ("device_token", twitter)]).1 == ["stat": "ok"])

            let activities = try await h.admin(.get, "/engage/activities").1["activities"]?.arrayValue ?? []
            #expect(activities.count == 2)
            let first = try #require(activities.first)
            #expect(first["kind"] == "activity")
            #expect(first["provider"] == "facebook")
            #expect(first["identifier"]?.stringValue?.hasPrefix("https://facebook.example/") == true)
            #expect(first["activity"] == JSONValue.parse(Self.activity))
            #expect(first["status"] == .null)
            #expect(first["device"] == "android")
            #expect(first["created"]?.stringValue != nil)
            #expect(activities.last?["kind"] == "status")
            #expect(activities.last?["status"] == "hello & bye")
            #expect(activities.last?["activity"] == .null)
            #expect(activities.last?["provider"] == "twitter")

            #expect(try await h.admin(.delete, "/engage/activities").1 == ["activities": []])
            #expect(try await h.admin(.get, "/engage/activities").1 == ["activities": []])
        }
    }

    @Test func refusals() async throws {
        try await Harness.run { h in
            let facebook = try await deviceToken(h)
            let google = try await deviceToken(h, "google")
            let reauthenticate: JSONValue = ["stat": "fail", "err": ["code": 0, "msg": "Missing parameter: apiKey"]]
            #expect(try await h.post("/api/v2/activity", [("activity", Self.activity), ("device_token", "nope")]).1 == reauthenticate)
            #expect(try await h.post("/api/v2/activity", [("activity", Self.activity)]).1 == reauthenticate)
            #expect(try await h.post("/api/v2/set_status", [("status", "x"), ("device_token", "nope")]).1 == reauthenticate)

            let badProvider: JSONValue = ["stat": "fail", "err": ["code": 1, "msg": "Invalid parameter: provider"]]
            // Not the device token's provider; not a sharing provider.
            #expect(try await h.post("/api/v2/activity", [
                ("activity", Self.activity), ("device_token", facebook), ("provider", "twitter"),
            ]).1 == badProvider)
            #expect(try await h.post("/api/v2/activity", [("activity", Self.activity), ("device_token", google)]).1 == badProvider)

            let badActivity: JSONValue = ["stat": "fail", "err": ["code": 1, "msg": "Invalid parameter: activity"]]
            for bad in ["", "nope", "[]", #"{"url":"http://x.example/"}"#, #"{"action":null}"#] {
                #expect(try await h.post("/api/v2/activity", [
                    ("activity", bad), ("device_token", facebook), ("provider", "facebook"),
                ]).1 == badActivity, "\(bad)")
            }
            #expect(try await h.post("/api/v2/set_status", [("device_token", facebook)]).1["stat"] == "fail")
            #expect(try await h.admin(.get, "/engage/activities").1 == ["activities": []])
        }
    }

    @Test func deviceTokensOutliveTheEngageToken() async throws {
        try await Harness.run { h in
            let facebook = try await deviceToken(h)
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 86_400])
            #expect(try await h.post("/api/v2/activity", [("activity", Self.activity), ("device_token", facebook)]).1
                == ["stat": "ok"])
        }
    }

    @Test func queuedShareErrors() async throws {
        try await Harness.run { h in
            let twitter = try await deviceToken(h, "twitter")
            let (status, queue) = try await h.admin(.post, "/engage/share_errors", [
                "provider": "twitter", "code": 6, "msg": "Twitter error: Status is a duplicate", "count": 2,
            ])
            #expect(status == .created)
            #expect(queue["share_errors"] == [["provider": "twitter", "code": 6, "msg": "Twitter error: Status is a duplicate", "remaining": 2]])
            let failure: JSONValue = ["stat": "fail", "err": ["code": 6, "msg": "Twitter error: Status is a duplicate"]]
            #expect(try await h.post("/api/v2/set_status", [("status", "one"), ("device_token", twitter)]).1 == failure)
            #expect(try await h.post("/api/v2/activity", [("activity", Self.activity), ("device_token", twitter)]).1 == failure)
            #expect(try await h.post("/api/v2/set_status", [("status", "three"), ("device_token", twitter)]).1 == ["stat": "ok"])
            #expect(try await h.admin(.get, "/engage/share_errors").1 == ["share_errors": []])
            #expect(try await h.admin(.get, "/engage/activities").1["activities"]?.arrayValue?.count == 1)

            // Only that provider's answers are affected; DELETE empties the queue.
            _ = try await h.admin(.post, "/engage/share_errors", ["provider": "linkedin", "code": 100, "msg": "too long"])
            #expect(try await h.post("/api/v2/set_status", [("status", "four"), ("device_token", twitter)]).1 == ["stat": "ok"])
            #expect(try await h.admin(.delete, "/engage/share_errors").1 == ["share_errors": []])
            for bad: JSONValue in [["code": 1, "msg": "x"], ["provider": "x", "msg": "x"], ["provider": "x", "code": 1],
                                    ["provider": "x", "code": 1, "msg": "x", "count": 0]] {
                #expect(try await h.admin(.post, "/engage/share_errors", bad).0 == .badRequest)
            }
        }
    }

    @Test func shortURLs() async throws {
        try await Harness.run { h in
            let urls = #"{"activity":["http://a.example/1"],"email":["http://a.example/1","http://b.example/2"],"sms":["tel:123"]}"#
            let (status, answer) = try await h.getJSON("/openid/get_urls?urls=\(Form.value(urls))&app_name=t&device=android")
            #expect(status == .ok)
            let base = h.engageBase
            #expect(answer == ["urls": [
                "activity": ["http://a.example/1": .string(base + "/s/1")],
                "email": ["http://a.example/1": .string(base + "/s/1"), "http://b.example/2": .string(base + "/s/2")],
                "sms": ["tel:123": "tel:123"],
            ]])
            let redirect = try await h.get("/s/2")
            #expect(redirect.status == .found)
            #expect(redirect.headers[.location] == "http://b.example/2")
            #expect(try await h.get("/s/99").status == .notFound)
            #expect(try await h.get("/s/x").status == .notFound)
            let (_, bad) = try await h.getJSON("/openid/get_urls?urls=nope")
            #expect(bad == ["stat": "fail", "err": ["code": 1, "msg": "Invalid parameter: urls"]])
            let (_, partial) = try await h.getJSON("/openid/get_urls?urls=\(Form.value(#"{"sms":[]}"#))")
            #expect(partial == ["urls": ["activity": [:], "email": [:], "sms": [:]]])
        }
    }

    @Test func recordActivity() async throws {
        try await Harness.run { h in
            #expect(try await h.post("/social/record_activity", [("method", "email"), ("device", "android"), ("appId", "jump-default-engage")]).1
                == ["stat": "ok"])
            // iOS posts to the path with an empty query.
            #expect(try await h.post("/social/record_activity?", [("device", "iphone"), ("method", "sms")]).1 == ["stat": "ok"])
            let activities = try await h.admin(.get, "/engage/activities").1["activities"]?.arrayValue ?? []
            #expect(activities.map { $0["kind"] } == ["email", "sms"])
            #expect(activities.first?["engage_app_id"] == "jump-default-engage")
            #expect(activities.last?["device"] == "iphone")
            #expect(activities.first?["provider"] == .null)
        }
    }
}
