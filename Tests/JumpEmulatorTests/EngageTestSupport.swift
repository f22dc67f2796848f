import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

/// Engage calls for the tests: the fake provider's pages and forms, and the form-encoded JSON endpoints.
extension Harness {
    static let engageAppId = "jump-default-engage"
    static let engageAPIKey = "jump-engage-api-key"

    /// The Engage base of in-process requests: the test client names `localhost` as the host.
    var engageBase: String { "http://localhost" }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await request(.get, uri, headers: headers)
    }

    /// A GET answered with JSON (status not checked).
    func getJSON(_ uri: String) async throws -> (HTTPResponse.Status, JSONValue) {
        let response = try await get(uri)
        #expect(response.headers[.contentType] == "application/json")
        return (response.status, JSONValue.parse(String(buffer: response.body)) ?? .null)
    }

    /// A form post whose answer is not JSON (the provider callbacks).
    func postForm(_ path: String, _ params: [(String, String)]) async throws -> TestResponse {
        try await request(.post, path, body: Form.encode(params), contentType: "application/x-www-form-urlencoded")
    }

    func startPage(_ path: String, _ params: [(String, String)]) async throws -> TestResponse {
        try await get(params.isEmpty ? path : "\(path)?\(Form.encode(params))")
    }

    /// Creates a test identity through the admin API and returns it.
    func identity(_ body: JSONValue) async throws -> JSONValue {
        let (status, answer) = try await admin(.post, "/identities", body)
        #expect(status == .created, "identity: \(answer.serialized())")
        return answer
    }

    /// Signs in on the fake provider as a new identity (device mode) and returns the completion URL.
    func providerSignIn(
        _ provider: String, name: String, email: String, extra: [(String, String)] = [("state", "s-1")]
    ) async throws -> String {
        let callback = EngageSignInFlow.callbackPath(provider)
        let response = try await postForm(
            callback, [("applicationId", Self.engageAppId), ("display_name", name), ("email", email)] + extra)
        #expect(response.status == .found)
        return try #require(response.headers[.location])
    }

    /// The /signin/device answer of a completion URL (given absolute, as the redirect has it).
    func deviceResult(_ location: String) async throws -> JSONValue {
        let relative = location.hasPrefix(engageBase) ? String(location.dropFirst(engageBase.count)) : location
        let (status, answer) = try await getJSON(relative)
        #expect(status == .ok)
        return answer["rpx_result"] ?? .null
    }

    /// A browser sign-in's rpx_result (token, device_token, profile).
    func browserSignIn(_ provider: String, name: String, email: String) async throws -> JSONValue {
        try await deviceResult(try await providerSignIn(provider, name: name, email: email))
    }
}

enum URLQuery {
    /// The decoded query parameters of a URL.
    static func items(_ url: String) -> [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(string: url)?.queryItems ?? [] {
            result[item.name] = item.value ?? ""
        }
        return result
    }
}
