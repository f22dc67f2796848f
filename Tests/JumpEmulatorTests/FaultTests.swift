import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

@Suite("Faults and counters")
struct FaultTests {
    @Test func http500() async throws {
        try await Harness.run { h in
            let (status, added) = try await h.admin(.post, "/faults", ["kind": "http_500", "path": "/entity"])
            #expect(status == .created)
            #expect(added["fault"]?["kind"] == "http_500")
            let response = try await h.request(.post, "/entity", body: "access_token=x")
            #expect(response.status == .internalServerError)
            #expect(response.headers[.contentType] == "application/json")
            #expect(JSONValue.parse(String(buffer: response.body))?["error"] == "unexpected_error")
            // Consumed: the next call is answered normally.
            let next = try await h.request(.post, "/entity", body: "access_token=x")
            #expect(next.status == .ok)
        }
    }

    @Test func htmlGarbageAndEmpty() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/faults", ["kind": "html"])
            _ = try await h.admin(.post, "/faults", ["kind": "garbage"])
            _ = try await h.admin(.post, "/faults", ["kind": "empty"])

            let html = try await h.request(.get, "/")
            #expect(html.status == .badGateway)
            #expect(html.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(String(buffer: html.body).contains("<html>"))

            let garbage = try await h.request(.get, "/")
            #expect(garbage.status == .ok)
            #expect(garbage.headers[.contentType] == "application/json")
            #expect(String(buffer: garbage.body) == #"{"stat":"ok","#)
            #expect(JSONValue.parse(String(buffer: garbage.body)) == nil)

            let empty = try await h.request(.get, "/")
            #expect(empty.status == .ok)
            #expect(empty.headers[.contentType] == "application/json")
            #expect(empty.body.readableBytes == 0)

            #expect(try await h.request(.get, "/").status == .ok)
        }
    }

    @Test func rateLimitAndUnavailableWithRetryAfter() async throws {
        try await Harness.run { h in
            let (status, added) = try await h.admin(.post, "/faults", ["kind": "http_503", "path": "/entity", "retry_after": 2])
            #expect(status == .created)
            #expect(added["fault"]?["retry_after"] == "2")
            _ = try await h.admin(.post, "/faults", ["kind": "http_429", "retry_after": "Sun, 06 Nov 2039 08:49:37 GMT"])
            let unavailable = try await h.request(.post, "/entity", body: "access_token=x")
            #expect(unavailable.status == .serviceUnavailable)
            #expect(unavailable.headers[.retryAfter] == "2")
            let limited = try await h.request(.get, "/")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "Sun, 06 Nov 2039 08:49:37 GMT")
            #expect(JSONValue.parse(String(buffer: limited.body))?["error"] == "rate_limited")
            #expect(try await h.request(.get, "/").status == .ok)
            // retry_after goes with these two kinds only, as seconds or printable text.
            #expect(try await h.admin(.post, "/faults", ["kind": "html", "retry_after": 1]).0 == .badRequest)
            #expect(try await h.admin(.post, "/faults", ["kind": "http_503", "retry_after": -1]).0 == .badRequest)
            #expect(try await h.admin(.post, "/faults", ["kind": "http_503", "retry_after": "a\nb"]).0 == .badRequest)
        }
    }

    @Test func delayThenAnswersNormally() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/faults", ["kind": "delay", "delay_ms": 300, "path": "/"])
            let start = Date()
            let response = try await h.request(.get, "/")
            #expect(Date().timeIntervalSince(start) >= 0.29)
            #expect(response.status == .ok)
            #expect(JSONValue.parse(String(buffer: response.body))?["jumpEmulator"]?["ready"] == true)
        }
    }

    @Test func countPathAndListing() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/faults", ["kind": "http_500", "count": 2, "path": "/entity.update"])
            let listed = try await h.admin(.get, "/faults").1
            #expect(listed["faults"] == [["kind": "http_500", "count": 2, "path": "/entity.update"]])
            // Other paths and admin calls are untouched.
            #expect(try await h.request(.post, "/entity", body: "").status == .ok)
            #expect(try await h.request(.post, "/entity.update", body: "").status == .internalServerError)
            #expect(try await h.admin(.get, "/faults").1["faults"]?[0]?["count"] == 1)
            #expect(try await h.request(.post, "/entity.update", body: "").status == .internalServerError)
            #expect(try await h.request(.post, "/entity.update", body: "").status == .ok)

            _ = try await h.admin(.post, "/faults", ["kind": "empty", "count": 5])
            let (status, cleared) = try await h.admin(.delete, "/faults")
            #expect(status == .ok)
            #expect(cleared["faults"] == [])
            #expect(try await h.request(.get, "/").body.readableBytes > 0)
        }
    }

    @Test func badFaultsAreRefused() async throws {
        try await Harness.run { h in
            #expect(try await h.admin(.post, "/faults", ["kind": "explode"]).0 == .badRequest)
            #expect(try await h.admin(.post, "/faults", ["kind": "html", "count": 0]).0 == .badRequest)
            #expect(try await h.admin(.post, "/faults", ["kind": "html", "path": "/emulator/reset"]).0 == .badRequest)
            let (status, body) = try await h.admin(.post, "/faults", [:])
            #expect(status == .badRequest)
            #expect(body["error"] == "bad_request")
            #expect(body["message"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func captureErrorAnswersAnyCaptureCode() async throws {
        try await Harness.run { h in
            let (status, added) = try await h.admin(.post, "/faults", ["kind": "capture_error", "code": 330, "path": "/entity.update"])
            #expect(status == .created)
            #expect(added["fault"] == ["kind": "capture_error", "code": 330, "count": 1, "path": "/entity.update"])
            let token = try await h.registeredToken(email: "ada@example.com")
            let answer = try await h.update(token, ["gender": "f"])
            #expect(answer == [
                "stat": "error", "code": 330, "error": "timestamp_mismatch", "error_description": "injected fault",
                "attribute_name": "/lastUpdated",
            ])
            #expect(try await h.entity(token)["result"]?["gender"] == .null)  // nothing was written

            _ = try await h.admin(.post, "/faults", ["kind": "capture_error", "code": 510, "count": 2])
            #expect(try await h.entity(token) == [
                "stat": "error", "code": 510, "error": "api_limit_error", "error_description": "injected fault",
            ])
            #expect(try await h.entity(token)["code"] == 510)
            #expect(try await h.entity(token)["stat"] == "ok")

            #expect(try await h.admin(.post, "/faults", ["kind": "capture_error"]).0 == .badRequest)
            #expect(try await h.admin(.post, "/faults", ["kind": "capture_error", "code": 0]).0 == .badRequest)
        }
    }

    @Test func countersAddUpRequestBytes() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.admin(.delete, "/counters")
            let first = "access_token=\(token)&attributes=%7B%22gender%22%3A%22f%22%7D"
            let second = "access_token=\(token)&attributes=%7B%7D"
            _ = try await h.request(.post, "/entity.update", body: first, contentType: "application/x-www-form-urlencoded")
            _ = try await h.request(.post, "/entity.update", body: second, contentType: "application/x-www-form-urlencoded")
            _ = try await h.request(.get, "/")
            let (_, body) = try await h.admin(.get, "/counters")
            #expect(body["counters"] == ["POST /entity.update": 2, "GET /": 1])
            #expect(body["request_bytes"] == ["POST /entity.update": .int(Int64(first.utf8.count + second.utf8.count)), "GET /": 0])
            #expect(try await h.admin(.delete, "/counters").1 == ["counters": [:], "request_bytes": [:]])
        }
    }

    @Test func countersCountEveryNonAdminRequestIncludingFaultedOnes() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            _ = try await h.admin(.post, "/faults", ["kind": "http_500", "path": "/oauth/refresh_access_token"])
            _ = try await h.request(.post, "/oauth/refresh_access_token", body: "")
            _ = try await h.refresh(token: token, secret: "s")
            _ = try await h.request(.get, "/widget_data/flows/default-app/standard/HEAD/en-US.json")

            let counters = try await h.admin(.get, "/counters").1["counters"]
            #expect(counters?["POST /oauth/refresh_access_token"] == 2)
            #expect(counters?["POST /oauth/register_native_traditional"] == 1)
            #expect(counters?["GET /widget_data/flows/default-app/standard/HEAD/en-US.json"] == 1)
            let countsAdmin = counters?.objectValue?.keys.contains { $0.contains("/emulator") }
            #expect(countsAdmin == false)

            let (status, cleared) = try await h.admin(.delete, "/counters")
            #expect(status == .ok)
            #expect(cleared["counters"] == [:])
        }
    }
}
