import Testing
@testable import JumpCore

@Suite struct ConfigTests {
    @Test func defaultsAreVisible() {
        let json = JumpConfig().json
        #expect(json["captureLocale"] == "en-US")
        #expect(json["captureTraditionalSignInFormName"] == "signInForm")
        #expect(json["requestTimeoutMs"] == .int(30_000))
        #expect(json["captureDomain"] == .null)
    }

    @Test func unknownKeyIsNamed() {
        let error = #expect(throws: JumpError.self) { try JumpConfig(json: ["captureDomian": "x"]) }
        #expect(error?.status == .invalidArgument)
        #expect(error?.message.contains("captureDomian") == true)
        #expect(error?.detail["argument"] == "captureDomian")
    }

    @Test func wrongTypeIsNamed() {
        let error = #expect(throws: JumpError.self) { try JumpConfig(json: ["captureEnableThinRegistration": "yes"]) }
        #expect(error?.message.contains("captureEnableThinRegistration") == true)
        #expect(throws: JumpError.self) { try JumpConfig(json: ["requestTimeoutMs": "10"]) }
        #expect(throws: JumpError.self) { try JumpConfig(json: ["captureResponseType": "code"]) }
        #expect(throws: JumpError.self) { try JumpConfig(json: ["requestTimeoutMs": 0]) }
    }

    @Test func nullRestoresDefault() throws {
        var config = try JumpConfig(json: ["captureLocale": "fr-FR"])
        #expect(config.json["captureLocale"] == "fr-FR")
        try config.set("captureLocale", .null)
        #expect(config.json["captureLocale"] == "en-US")
    }

    @Test(arguments: [
        ("example.com", "https://example.com"), ("example.com/", "https://example.com"),
        ("https://example.com:8443/", "https://example.com:8443"),
        ("http://127.0.0.1:9080", "http://127.0.0.1:9080"), ("http://localhost:1", "http://localhost:1"),
        ("http://[::1]:80", "http://[::1]:80"), ("https://capture.example/base", "https://capture.example/base"),
    ])
    func serverURLs(_ input: String, _ expected: String) throws {
        #expect(try ServerURL(input, key: "captureDomain").base == expected)
    }

    @Test(arguments: ["http://example.com", "ftp://example.com", "", "https://", "https://a b", "https://u@host", "https://h/?q"])
    func refusedServerURLs(_ input: String) {
        #expect(throws: JumpError.self) { try ServerURL(input, key: "captureDomain") }
    }

    /// A bare host:port (or loopback host) would silently become https and fail later with a TLS error.
    @Test(arguments: [("127.0.0.1:9080", "'http://127.0.0.1:9080'"), ("localhost", "'http://localhost'"),
                      ("[::1]:8080", "'http://[::1]:8080'"), ("example.com:8443", "'https://example.com:8443'")])
    func bareHostAndPortIsRefusedWithTheFix(_ input: String, _ fix: String) {
        let error = #expect(throws: JumpError.self) { try ServerURL(input, key: "captureDomain") }
        #expect(error?.status == .invalidArgument && error?.detail["argument"] == "captureDomain")
        #expect(error?.message.contains("write \(fix)") == true, "\(error?.message ?? "")")
    }

    @Test func unknownKeySuggestsTheNearest() {
        let typo = #expect(throws: JumpError.self) { try JumpConfig(json: ["captureDomian": "https://x.example"]) }
        #expect(typo?.message.hasSuffix("did you mean 'captureDomain'?") == true, "\(typo?.message ?? "")")
        let cased = #expect(throws: JumpError.self) { try JumpConfig(json: ["captureclientid": "x"]) }
        #expect(cased?.message.contains("'captureClientId'") == true)
        let unrelated = #expect(throws: JumpError.self) { try JumpConfig(json: ["colour": "red"]) }
        #expect(unrelated?.message == "unknown configuration key 'colour'")
    }
}
