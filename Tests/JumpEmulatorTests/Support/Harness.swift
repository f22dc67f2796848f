import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

/// A fresh in-memory emulator behind the real router, and helpers that speak its wire formats.
///
/// Note for these tests: closures are kept out of `#expect(...)` and assigned to a `let` first. With
/// Swift 6.3.1 a closure inside `#expect` was seen to take the place of the next closure in the same
/// scope (`answers.first { $0["stat"] == "error" }` ran the `== "ok"` body of the closure in the
/// `#expect` before it), which makes assertions pass or fail for the wrong reason.
struct Harness: Sendable {
    let emulator: Emulator
    let client: any TestClientProtocol

    static let clientId = "jump-default-client"

    /// Runs `body` against a new emulator (bcrypt cost 4 keeps the suite fast).
    static func run<T: Sendable>(
        tokenLifetime: Int? = nil, _ body: @Sendable (Harness) async throws -> T
    ) async throws -> T {
        let emulator = try await Emulator.open(EmulatorOptions(passwordHashCost: 4, tokenLifetime: tokenLifetime))
        let app = Application(router: emulator.makeRouter())
        return try await app.test(.router) { client in
            try await body(Harness(emulator: emulator, client: client))
        }
    }

    // MARK: - Raw HTTP

    func request(
        _ method: HTTPRequest.Method, _ uri: String, body: String? = nil, contentType: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if let contentType { headers[.contentType] = contentType }
        return try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// A Capture call: form-encoded POST, answered with JSON.
    func capture(
        _ path: String, _ params: [(String, String)], query: String? = nil, headers: HTTPFields = [:]
    ) async throws -> JSONValue {
        let uri = query.map { "\(path)?\($0)" } ?? path
        let response = try await request(
            .post, uri, body: Form.encode(params), contentType: "application/x-www-form-urlencoded", headers: headers)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/json")
        return try #require(JSONValue.parse(String(buffer: response.body)))
    }

    /// An admin call with a JSON body; returns the status and the JSON answer.
    func admin(_ method: HTTPRequest.Method, _ path: String, _ body: JSONValue? = nil) async throws -> (HTTPResponse.Status, JSONValue) {
        let response = try await request(
            method, "/emulator" + path, body: body?.serialized(), contentType: body == nil ? nil : "application/json")
        #expect(response.headers[.contentType] == "application/json")
        return (response.status, JSONValue.parse(String(buffer: response.body)) ?? .null)
    }

    // MARK: - Flows

    static let registrationDefaults: [(String, String)] = [
        ("client_id", clientId), ("locale", "en-US"), ("response_type", "token"),
        ("redirect_uri", "http://localhost/done"), ("flow", "standard"), ("flow_version", "20261121000000000001"),
        ("form", "registrationForm"),
    ]

    /// Registers through the default registration form; extra fields override the defaults.
    func register(
        email: String, password: String = "correct horse", refreshSecret: String? = "secret-1",
        _ extra: [(String, String)] = []
    ) async throws -> JSONValue {
        var params = Self.registrationDefaults + [
            ("emailAddress", email), ("newPassword", password), ("newPasswordConfirm", password),
        ]
        if let refreshSecret { params.append(("refresh_secret", refreshSecret)) }
        return try await capture("/oauth/register_native_traditional", Form.merge(params, extra))
    }

    /// Registers and returns the access token, failing the test if registration fails.
    func registeredToken(email: String, refreshSecret: String? = "secret-1", _ extra: [(String, String)] = []) async throws -> String {
        let response = try await register(email: email, refreshSecret: refreshSecret, extra)
        #expect(response["stat"] == "ok", "registration failed: \(response.serialized())")
        return try #require(response["access_token"]?.stringValue)
    }

    func signIn(_ params: [(String, String)]) async throws -> JSONValue {
        try await capture(
            "/oauth/auth_native_traditional",
            Form.merge([("client_id", Self.clientId), ("locale", "en-US"), ("redirect_uri", "http://localhost/done")], params))
    }

    func entity(_ token: String, _ extra: [(String, String)] = []) async throws -> JSONValue {
        try await capture("/entity", [("access_token", token)] + extra)
    }

    func update(_ token: String, _ attributes: JSONValue, attributeName: String? = nil, includeRecord: Bool = false)
        async throws -> JSONValue
    {
        var params: [(String, String)] = [("access_token", token), ("attributes", attributes.serialized())]
        if let attributeName { params.append(("attribute_name", attributeName)) }
        if includeRecord { params.append(("include_record", "true")) }
        return try await capture("/entity.update", params)
    }

    func replace(_ token: String, _ attributes: JSONValue, attributeName: String? = nil, includeRecord: Bool = false)
        async throws -> JSONValue
    {
        var params: [(String, String)] = [("access_token", token), ("attributes", attributes.serialized())]
        if let attributeName { params.append(("attribute_name", attributeName)) }
        if includeRecord { params.append(("include_record", "true")) }
        return try await capture("/entity.replace", params)
    }

    func delete(_ token: String, _ attributeName: String) async throws -> JSONValue {
        try await capture("/entity.delete", [("access_token", token), ("attribute_name", attributeName)])
    }

    /// A form-encoded POST whose status is not necessarily 200 (`/oauth/token` answers errors with 400).
    func post(_ path: String, _ params: [(String, String)], headers: HTTPFields = [:]) async throws -> (HTTPResponse.Status, JSONValue) {
        let response = try await request(
            .post, path, body: Form.encode(params), contentType: "application/x-www-form-urlencoded", headers: headers)
        #expect(response.headers[.contentType] == "application/json")
        return (response.status, JSONValue.parse(String(buffer: response.body)) ?? .null)
    }

    /// The captured outgoing emails, oldest first.
    func emails(to address: String? = nil) async throws -> [JSONValue] {
        let query = address.map { "?to=\(Form.value($0))" } ?? ""
        return try await admin(.get, "/emails" + query).1["emails"]?.arrayValue ?? []
    }

    /// Signs in by email through the default sign-in form.
    func signIn(email: String, password: String) async throws -> JSONValue {
        try await signIn([("form", "signInForm"), ("signInEmailAddress", email), ("currentPassword", password)])
    }

    static let defaultSecret = "jump-default-secret"

    // MARK: - Refresh

    static func refreshSignature(secret: String, date: String, token: String) -> String {
        let message = "refresh_access_token\n\(date)\n\(token)\n"
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return Data(mac).base64EncodedString()
    }

    static func utcNow(offset: TimeInterval = 0) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date().addingTimeInterval(offset))
    }

    func refresh(token: String, secret: String, date: String = Harness.utcNow(), signature: String? = nil) async throws -> JSONValue {
        try await capture("/oauth/refresh_access_token", [
            ("access_token", token), ("date", date),
            ("signature", signature ?? Self.refreshSignature(secret: secret, date: date, token: token)),
            ("client_id", Self.clientId), ("locale", "en-US"),
        ])
    }
}

/// Form encoding as the SDKs do it: values percent-encoded (space as `+`), keys raw.
enum Form {
    static func encode(_ params: [(String, String)]) -> String {
        params.map { "\($0.0)=\(value($0.1))" }.joined(separator: "&")
    }

    static func value(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~ ")
        let escaped = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        return escaped.replacingOccurrences(of: " ", with: "+")
    }

    /// `extra` replaces same-named defaults and adds the rest.
    static func merge(_ base: [(String, String)], _ extra: [(String, String)]) -> [(String, String)] {
        let overridden = Set(extra.map(\.0))
        return base.filter { !overridden.contains($0.0) } + extra
    }
}

extension JSONValue {
    /// `invalid_fields[field]` of an error answer.
    func invalidField(_ name: String) -> [String]? {
        self["invalid_fields"]?[name]?.arrayValue?.compactMap(\.stringValue)
    }
}
