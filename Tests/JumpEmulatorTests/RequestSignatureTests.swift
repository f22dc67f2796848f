import Foundation
import Hummingbird
import Testing

@testable import JumpEmulator

/// The janrain signature (`Authorization: Signature <client_id>:<b64>` + `Date`). The vectors were
/// computed by janrain-python-api 0.4.0's own `generate_signature` with `time.gmtime` fixed at
/// 2026-11-25 16:30:00 UTC.
@Suite("Janrain request signatures")
struct RequestSignatureTests {
    static let date = "2026-11-25 16:30:00"
    static let dateValue = Date(timeIntervalSince1970: 1_795_624_200)  // 2026-11-25 16:30:00 UTC

    @Test func matchesJanrainPythonAPIVectors() {
        // Values as posted: the library JSON-encodes lists and writes booleans as true/false.
        let find = RequestSignature.sign(
            secret: "s3cret", path: "/entity.find", date: Self.date,
            params: ["type_name": "user", "filter": "email = 'a@b.com'", "attributes": #"["email", "primaryAddress.city"]"#,
                     "show_total_count": "true", "a_b": "1", "a": "2"])
        #expect(find == "XlfJcEdnOBnJGDUkpTSW4mx+gkk=")
        // No parameters at all: just the path and the date.
        #expect(RequestSignature.sign(secret: "k", path: "/entity.count", date: Self.date, params: [:])
            == "cEfrm+8gUMFj1bjRZKWSDvuON7c=")
        // Non-ASCII values are signed as UTF-8; "a-b=1" sorts before "a=2" as whole lines ('-' < '='),
        // though the key "a" sorts before "a-b".
        #expect(RequestSignature.sign(secret: "s3cret", path: "/entity.count", date: Self.date,
                                      params: ["a": "2", "a-b": "1", "name": "Zoë"])
            == "tnKgppXKZrmuLnz0U+2RxiMdJmI=")
        #expect(RequestSignature.message(path: "/p", date: Self.date, params: ["a": "2", "a-b": "1"])
            == "/p\n\(Self.date)\na-b=1\na=2\n")
    }

    private func call(authorization: String?, date: String?, body: String, path: String = "/entity.count") -> CaptureCall {
        CaptureCall(params: FormParams(query: nil, body: body), authorizationHeader: authorization, path: path,
                    dateHeader: date, body: FormParams(query: nil, body: body))
    }

    @Test func verifiesTheDateThenTheSignature() throws {
        let body = "a=2&a-b=1&name=Zo%C3%AB"
        let good = call(authorization: "Signature my-client:tnKgppXKZrmuLnz0U+2RxiMdJmI=", date: Self.date, body: body)
        let parsed = try #require(try RequestSignature.parse(good))
        #expect(parsed.clientId == "my-client")
        #expect(throws: Never.self) { try parsed.verify(good, secret: "s3cret", now: Self.dateValue) }
        // Within the window either way; outside it, 200 invalid_argument Date.
        #expect(throws: Never.self) { try parsed.verify(good, secret: "s3cret", now: Self.dateValue + 299) }
        #expect(throws: Never.self) { try parsed.verify(good, secret: "s3cret", now: Self.dateValue - 299) }
        let stale = #expect(throws: CaptureError.self) { try parsed.verify(good, secret: "s3cret", now: Self.dateValue + 301) }
        #expect(stale?.code == 200)
        #expect(stale?.extras["argument_name"] == "Date")

        let wrongSecret = #expect(throws: CaptureError.self) { try parsed.verify(good, secret: "other", now: Self.dateValue) }
        #expect(wrongSecret?.code == 402)
        // A parameter changed after signing, or a path other than the one signed.
        let tampered = call(authorization: "Signature my-client:tnKgppXKZrmuLnz0U+2RxiMdJmI=", date: Self.date,
                            body: "a=3&a-b=1&name=Zo%C3%AB")
        #expect(throws: CaptureError.self) { try parsed.verify(tampered, secret: "s3cret", now: Self.dateValue) }
        let otherPath = call(authorization: "Signature my-client:tnKgppXKZrmuLnz0U+2RxiMdJmI=", date: Self.date,
                             body: body, path: "/entity.find")
        #expect(throws: CaptureError.self) { try parsed.verify(otherPath, secret: "s3cret", now: Self.dateValue) }

        let noDate = call(authorization: "Signature my-client:x", date: nil, body: body)
        let missing = #expect(throws: CaptureError.self) {
            try RequestSignature.parse(noDate)?.verify(noDate, secret: "s3cret", now: Self.dateValue)
        }
        #expect(missing?.code == 100)
        #expect(missing?.extras["argument_name"] == "Date")
        // An HTTP-style date is not the janrain format.
        let httpDate = call(authorization: "Signature my-client:x", date: "Wed, 25 Nov 2026 16:30:00 GMT", body: body)
        let malformed = #expect(throws: CaptureError.self) {
            try RequestSignature.parse(httpDate)?.verify(httpDate, secret: "s3cret", now: Self.dateValue)
        }
        #expect(malformed?.code == 200)
    }

    @Test func parsesOnlyTheSignatureScheme() throws {
        #expect(try RequestSignature.parse(call(authorization: "Basic abc", date: nil, body: "")) == nil)
        #expect(try RequestSignature.parse(call(authorization: nil, date: nil, body: "")) == nil)
        let noColon = #expect(throws: CaptureError.self) {
            try RequestSignature.parse(call(authorization: "Signature abc", date: nil, body: ""))
        }
        #expect(noColon?.code == 200)
        #expect(throws: CaptureError.self) { try RequestSignature.parse(call(authorization: "Signature abc:", date: nil, body: "")) }
    }

    /// Through the router: a signed entity.count by the default app (its secret is known).
    @Test func aSignedCallThroughTheRouter() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let date = CaptureTime.signatureDate(Date())
            let params = [("type_name", "user"), ("filter", "email = 'ada@example.com'")]
            let signature = RequestSignature.sign(
                secret: DefaultApp.clientSecret, path: "/entity.count", date: date,
                params: Dictionary(uniqueKeysWithValues: params))
            var headers = HTTPFields()
            headers[.authorization] = "Signature \(Harness.clientId):\(signature)"
            headers[.date] = date
            let (_, answer) = try await h.post("/entity.count", params, headers: headers)
            #expect(answer["stat"] == "ok")
            #expect(answer["total_count"] == 1)

            headers[.authorization] = "Signature \(Harness.clientId):\(signature.dropLast(2))AA"
            let (_, refused) = try await h.post("/entity.count", params, headers: headers)
            #expect(refused["code"] == 402)
            // Query-string parameters are not signed, so they are not read either.
            headers[.authorization] = "Signature \(Harness.clientId):\(signature)"
            let (_, moved) = try await h.post("/entity.count?type_name=user", [("filter", "email = 'ada@example.com'")],
                                              headers: headers)
            #expect(moved["code"] == 402)
        }
    }
}
