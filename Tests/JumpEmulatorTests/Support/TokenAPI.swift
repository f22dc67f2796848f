import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

/// Helpers that speak the sign-in-token API (`/v1/token`, `/v2/user...`) as a team backend and an
/// SDK would.
extension Harness {
    static let teamKey = "jump-team-key"
    static let defaultTeamId = "00000000-0000-4000-8000-000000000001"
    static let tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let signInTokenType = "urn:junction:sign-in-token"

    static func header(_ name: String, _ value: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[HTTPFields.Element.Name(name)!] = value
        return fields
    }

    static func apiKey(_ key: String = teamKey) -> HTTPFields {
        header("x-jump-api-key", key)
    }

    static func bearer(_ token: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[.authorization] = "Bearer \(token)"
        return fields
    }

    /// A `/v2` call with an optional JSON body; returns status, JSON answer and the raw response.
    func api(_ method: HTTPRequest.Method, _ path: String, json: JSONValue? = nil, headers: HTTPFields = [:])
        async throws -> (HTTPResponse.Status, JSONValue, TestResponse)
    {
        let response = try await request(
            method, path, body: json?.serialized(), contentType: json == nil ? nil : "application/json", headers: headers)
        #expect(response.headers[.contentType] == "application/json")
        return (response.status, JSONValue.parse(String(buffer: response.body)) ?? .null, response)
    }

    /// `POST /v2/user` with the team key; returns the new user id.
    func createTokenUser(_ clientUserId: String, key: String = teamKey) async throws -> String {
        let (status, body, _) = try await api(.post, "/v2/user", json: ["client_user_id": .string(clientUserId)],
                                              headers: Self.apiKey(key))
        #expect(status == .ok, "create user: \(body.serialized())")
        return try #require(body["user_id"]?.stringValue)
    }

    /// `POST /v2/user/{id}/sign_in_token`; returns the opaque sign-in token (the base64 envelope).
    func mintSignInToken(_ userId: String, key: String = teamKey) async throws -> String {
        let (status, body, _) = try await api(.post, "/v2/user/\(userId)/sign_in_token", headers: Self.apiKey(key))
        #expect(status == .ok, "mint: \(body.serialized())")
        #expect(body["user_id"] == .string(userId))
        return try #require(body["sign_in_token"]?.stringValue)
    }

    /// The envelope's members: standard padded base64 of `{"public_key","user_token"}`.
    static func envelope(_ signInToken: String) throws -> [String: JSONValue] {
        let data = try #require(Data(base64Encoded: signInToken), "not standard base64: \(signInToken)")
        return try #require(JSONValue.parse(data: data)?.objectValue)
    }

    /// A JWT segment (base64url) decoded as JSON.
    static func segmentJSON(_ segment: some StringProtocol) throws -> JSONValue {
        let data = try #require(Base64URL.decode(segment), "not base64url: \(segment)")
        return try #require(JSONValue.parse(data: data))
    }

    static func userToken(_ signInToken: String) throws -> String {
        try #require(try envelope(signInToken)["user_token"]?.stringValue)
    }

    /// `POST /v1/token` with the token-exchange grant.
    func exchange(_ userToken: String) async throws -> (HTTPResponse.Status, JSONValue) {
        try await post("/v1/token", [
            ("grant_type", Self.tokenExchangeGrant), ("subject_token_type", Self.signInTokenType),
            ("subject_token", userToken),
        ])
    }

    /// `POST /v1/token` with the refresh grant.
    func refreshGrant(_ refreshToken: String) async throws -> (HTTPResponse.Status, JSONValue) {
        try await post("/v1/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    struct SignedIn: Sendable {
        var userId: String
        var accessToken: String
        var refreshToken: String
    }

    /// Creates a user, mints its sign-in token and exchanges it.
    func signedInTokenUser(_ clientUserId: String) async throws -> SignedIn {
        let userId = try await createTokenUser(clientUserId)
        let (status, body) = try await exchange(try Self.userToken(try await mintSignInToken(userId)))
        #expect(status == .ok, "exchange: \(body.serialized())")
        return SignedIn(userId: userId, accessToken: try #require(body["access_token"]?.stringValue),
                        refreshToken: try #require(body["refresh_token"]?.stringValue))
    }

    /// `GET /v2/user/{id}/profile` with the given credentials.
    func profile(_ userId: String, headers: HTTPFields) async throws -> (HTTPResponse.Status, JSONValue, TestResponse) {
        try await api(.get, "/v2/user/\(userId)/profile", headers: headers)
    }
}

extension JSONValue {
    /// `detail.error_type` of a sign-in-token API error.
    var errorType: JSONValue? {
        self["detail"]?["error_type"]
    }
}
