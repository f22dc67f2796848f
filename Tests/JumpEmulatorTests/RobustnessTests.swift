import Hummingbird
import Testing

@testable import JumpEmulator

/// Malformed input gets an error answer, never a crash or an empty reply.
@Suite("Malformed input")
struct RobustnessTests {
    @Test func captureEndpointsAnswerJSONToJunk() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let bodies = [
                "", "&&&", "%%%%", "=", "access_token", "\u{0}\u{1}\u{2}", String(repeating: "a=b&", count: 2000),
                "access_token=\(token)&attribute_name=" + String(repeating: "/x", count: 500),
                "access_token=\(token)&attribute_name=photos%23999999999999999999999",
                "access_token=\(token)&attributes=" + String(repeating: "%5B", count: 600),
                "access_token=\(token)&attributes=%7B%22profiles%22%3A%5B%7B%22id%22%3A1.5%7D%5D%7D",
            ]
            for path in ["/entity", "/entity.update", "/oauth/auth_native_traditional", "/oauth/register_native_traditional",
                         "/oauth/refresh_access_token", "/entityType"]
            {
                for body in bodies {
                    let response = try await h.request(.post, path, body: body, contentType: "application/x-www-form-urlencoded")
                    #expect(response.status == .ok, "\(path) \(body.prefix(40))")
                    let answer = JSONValue.parse(String(buffer: response.body))
                    #expect(answer?["stat"] != nil, "\(path) \(body.prefix(40))")
                }
            }
            #expect(try await h.entity(token)["stat"] == "ok")
        }
    }

    @Test func oversizedBodiesAreRefused() async throws {
        try await Harness.run { h in
            let oversized = String(repeating: "a", count: EmulatorRequestContext.maximumBodySize + 1)
            let response = try await h.request(.post, "/entity", body: oversized)
            #expect(response.status == .contentTooLarge)
            #expect(response.headers[.contentType] == "application/json")
        }
    }

    @Test func jsonAttributesKeepWhateverTheyAreGiven() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            let profile: JSONValue = ["emails": [["value": "a@b.c"]], "n": 1.5, "deep": [[[["x": nil]]]]]
            let answer = try await h.update(
                token, ["profiles": [["identifier": "id-1", "profile": profile]]], includeRecord: true)
            #expect(answer["result"]?["profiles"]?[0]?["profile"] == profile)
            let nested = try await h.entity(token, [("attribute_name", "/profiles#1/profile/emails")])
            #expect(nested["result"] == [["value": "a@b.c"]])
        }
    }
}
