@testable import JumpCore

/// One fuzz target: a parser of outside input, driven the way libjump drives it.
struct FuzzTarget {
    let name: String
    /// What the target reads, for `make fuzz`'s report.
    let reads: String
    /// Inputs that reach deep on their own (recorded answers, saved files): libFuzzer starts from these.
    let seeds: (Fixtures) -> [[UInt8]]
    let run: (Fixtures, [UInt8]) -> Void
}

extension FuzzTarget {
    /// A server answer: `endpoints` answer the input (status 200, JSON), the rest what the emulator answered.
    static func answer(_ name: String, reads: String, endpoints: [String], signedIn: Bool,
                       _ drive: @escaping (JumpClient, [String]) -> Void) -> FuzzTarget {
        FuzzTarget(name: name, reads: reads, seeds: { $0.recordedBodies(endpoints) }) { fixtures, bytes in
            guard let client = signedIn ? fixtures.signedInClient() : fixtures.client() else { return }
            let answer = CannedTransport.Answer(status: 200, contentType: "application/json;charset=UTF-8", body: bytes)
            fixtures.transport.fuzzed = Dictionary(uniqueKeysWithValues: endpoints.map { ($0, answer) })
            drive(client, Contract.secrets(inAnswer: bytes))
            fixtures.transport.fuzzed = [:]
        }
    }

    static let all: [FuzzTarget] = [
        FuzzTarget(name: "config", reads: "a client's JSON configuration (jump_config_from_json)",
                   seeds: { _ in [Array(#"{"captureDomain":"https://x.janraincapture.com","captureClientId":"c","captureAppId":"a","captureFlowName":"standard","captureLocale":"en-US","storageDirectory":":memory:","requestTimeoutMs":5000}"#.utf8)] }) { fixtures, bytes in
            Contract.expectReported("config") { () throws(JumpError) in
                var config = try JumpConfig(json: try Jansson.parse(bytes, what: "config"))
                try config.set("storageDirectory", ":memory:")  // never files where the input says
                _ = try JumpClient(config: config, transport: fixtures.transport)
            }
        },
        FuzzTarget(name: "json", reads: "any JSON text libjump parses (jansson, depth limit, conversion)",
                   seeds: { $0.recordedBodies(["entity", "oauth_auth_native_traditional"]) }) { _, bytes in
            Contract.expectReported("json") { () throws(JumpError) in
                let json = try Jansson.parse(bytes, what: "answer")
                let again = try Jansson.parse(Jansson.serializedBytes(json), what: "answer")
                if again != json { Contract.deviation("json", "a parsed value does not survive printing and parsing") }
            }
        },
        FuzzTarget(name: "record-path", reads: "record paths and the edits made through them",
                   seeds: { _ in ["/aboutMe", "/photos#2/value", "/primaryAddress/city", "/statuses#-1"].map { Array($0.utf8) } }) { fixtures, bytes in
            guard let client = fixtures.signedInClient(), let view = try? client.capture.recordView() else { return }
            let text = String(decoding: bytes, as: UTF8.self)
            Contract.expectReported("record-path") { () throws(JumpError) in _ = try view.value(at: text) }
            Contract.expectReported("record-path") { () throws(JumpError) in try view.set(text, to: "fuzz") }
            Contract.expectReported("record-path") { () throws(JumpError) in _ = try view.append(["value": "x"], to: text) }
            Contract.expectReported("record-path") { () throws(JumpError) in try view.remove(text) }
            Contract.expectReported("record-path") { () throws(JumpError) in _ = try view.elementPaths(text) }
            Contract.expectReported("record-path") { () throws(JumpError) in _ = try view.changes() }
        },
        answer("sign-in-answer", reads: "the answer to a traditional sign-in (oauth/auth_native_traditional)",
               endpoints: ["oauth_auth_native_traditional"], signedIn: false) { client, secrets in
            Contract.expectReported("sign-in-answer", secrets: secrets) { () throws(JumpError) in
                _ = try client.capture.signIn(user: Fixtures.user, password: Fixtures.password)
            }
        },
        answer("entity-answer", reads: "the answers to a record fetch and a sync (entity, entity.update)",
               endpoints: ["entity", "entity_update"], signedIn: true) { client, secrets in
            Contract.expectReported("entity-answer", secrets: secrets) { () throws(JumpError) in try client.capture.fetchRecord() }
            Contract.expectReported("entity-answer", secrets: secrets) { () throws(JumpError) in
                let view = try client.capture.recordView()
                try view.set("/aboutMe", to: "fuzz")
                _ = try view.append(["type": "other", "value": "f.png"], to: "/photos")
                _ = try client.capture.sync()
            }
        },
        answer("refresh-answer", reads: "the answer to an access-token refresh (oauth/refresh_access_token)",
               endpoints: ["oauth_refresh_access_token"], signedIn: true) { client, secrets in
            Contract.expectReported("refresh-answer", secrets: secrets) { () throws(JumpError) in try client.refreshCurrentAccessToken() }
        },
        answer("flow-answer", reads: "the flow document (widget_data/flows)",
               endpoints: ["widget_data_flows_default_app_standard_HEAD_en_US_json"], signedIn: false) { client, secrets in
            Contract.expectReported("flow-answer", secrets: secrets) { () throws(JumpError) in _ = try client.capture.loadFlow(force: true) }
        },
        answer("engage-config-answer", reads: "Engage's app configuration (openid/mobile_config_and_baseurl)",
               endpoints: ["openid_mobile_config_and_baseurl"], signedIn: false) { client, secrets in
            Contract.expectReported("engage-config-answer", secrets: secrets) { () throws(JumpError) in
                _ = try client.engage.loadEngageConfig()
                _ = try client.engage.providers()
            }
        },
        answer("token-answer", reads: "the answer to a sign-in-token exchange (v1/token)",
               endpoints: ["v1_token"], signedIn: false) { client, secrets in
            Contract.expectReported("token-answer", secrets: secrets) { () throws(JumpError) in
                _ = try client.tokens.signIn(signInToken: SeedToken.value)
            }
        },
        FuzzTarget(name: "sign-in-token", reads: "a sign-in token as a backend hands it to the app",
                   seeds: { $0.recordedText(prefix: "sign_in_token") }) { fixtures, bytes in
            guard let client = fixtures.client() else { return }
            let text = String(decoding: bytes, as: UTF8.self)
            Contract.expectReported("sign-in-token", secrets: text.utf8.count >= 12 ? [text] : []) { () throws(JumpError) in
                _ = try client.tokens.signIn(signInToken: text)
            }
        },
        FuzzTarget(name: "social-complete-url", reads: "the URL a browser sign-in ends on (jump_client_social_complete)",
                   seeds: { $0.recordedText(prefix: "social_complete_url") }) { fixtures, bytes in
            guard let client = fixtures.client(),
                  let begun = try? client.beginSocialSignIn(provider: "google") else { return }
            let url = String(decoding: bytes, as: UTF8.self).replacing("STATE", with: begun.state)
            Contract.expectReported("social-complete-url") { () throws(JumpError) in _ = try client.completeSocialSignIn(url: url) }
        },
        FuzzTarget(name: "web-login", reads: "a web login's page URL, cookies and title (NUL-separated)",
                   seeds: { _ in [Array("https://app.example.com/done\0a=1; oauth_token=T0KEN-abcdefghijkl; Path=/\0Signed in oauth_token=T0KEN".utf8)] }) { fixtures, bytes in
            guard let client = fixtures.client() else { return }
            let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            let page = parts.first ?? ""
            let cookies = parts.count > 1 ? parts[1] : nil
            let title = parts.count > 2 ? parts[2] : nil
            Contract.expectReported("web-login") { () throws(JumpError) in _ = try client.useWebLogin(pageURL: page, cookies: cookies, title: title) }
        },
        SavedFiles.target,
    ]
}

/// The recorded sign-in token (the token-answer target exchanges it; its answer is the input).
enum SeedToken {
    nonisolated(unsafe) static var value = "seed-token"
}
