@testable import JumpCore
@testable import JumpRuntime
import Testing

@Suite struct WireTests {
    @Test func formEncodingEscapesValuesAndKeepsBrackets() {
        var p = FormParameters()
        p.add("birthdate[dateselect_year]", "1990")
        p.add("q", "a b&c=d/é+")
        #expect(p.encoded == "birthdate[dateselect_year]=1990&q=a%20b%26c%3Dd%2F%C3%A9%2B")
    }

    /// Expected value computed independently (Python hmac + base64).
    @Test func refreshSignatureMatchesProtocol() {
        let signature = Secrets.refreshSignature(secret: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
                                                 date: "2026-11-21 10:00:00", accessToken: "abc123token")
        #expect(signature == "2OUMtuzsIEd5kpbIH5zgqVmKXRE=")
    }

    @Test func refreshSecretsAreFreshHex() {
        let a = Secrets.refreshSecret(), b = Secrets.refreshSecret()
        #expect(a.count == 40 && b.count == 40 && a != b)
        let lowercaseHex = a.allSatisfy { $0.isHexDigit && !$0.isUppercase }
        #expect(lowercaseHex)
    }

    @Test func signatureDateIsUTC() {
        #expect(Clock.signatureDate(0) == "1970-01-01 00:00:00")
        #expect(Clock.signatureDate(1_795_000_000) == "2026-11-18 11:06:40")
    }

    @Test func decoderNamesWhatTheServerSent() {
        let request = HTTPRequest(method: "POST", url: "http://127.0.0.1:1/entity?secret=x")
        func failure(_ body: String, _ status: Int = 200, _ type: String? = "application/json") -> JumpError? {
            #expect(throws: JumpError.self) {
                try ResponseDecoder.object(from: HTTPResponse(status: status, contentType: type, body: Array(body.utf8)), of: request)
            }
        }
        #expect(failure("")?.message.contains("empty body") == true)
        #expect(failure("<html>bad gateway</html>", 502, "text/html")?.message.contains("HTML") == true)
        #expect(failure("{\"stat\":\"ok\",")?.message.contains("malformed JSON") == true)
        #expect(failure("[1]")?.message.contains("array") == true)
        #expect(failure("")?.message.contains("secret") == false)
    }

    @Test func captureCodesMapToStatuses() {
        let cases: [(Int64, JumpStatus)] = [(210, .badCredentials), (390, .validation), (310, .registrationRequired),
                                             (380, .mergeRequired), (414, .expired), (223, .invalidArgument), (500, .server)]
        for (code, status) in cases {
            let error = CaptureErrors.error(from: ["stat": "error", "code": .int(code), "error": "x", "error_description": "d",
                                                   "invalid_fields": ["f": ["m"]]],
                                            httpStatus: 200, endpoint: "POST /x")
            #expect(error.status == status)
            #expect(error.detail["server"]?["code"] == .int(code))
            #expect(error.detail["invalid_fields"]?["f"] == ["m"])
        }
        let expired = CaptureErrors.error(from: ["stat": "error", "code": 200, "argument_name": "access_token"], httpStatus: 200, endpoint: "e")
        #expect(CaptureErrors.isExpiredToken(expired))
    }
}
