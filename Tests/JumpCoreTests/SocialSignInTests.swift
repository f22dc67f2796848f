import Foundation
import Testing
@testable import JumpCore

// Social sign-in (Engage): the pieces that need no server (query strings, provider start URLs, the Engage
// configuration), then the whole flow against a real emulator, its fake identity provider played by a
// small libcurl "browser" that never follows redirects.

// MARK: - Parsing and URL building (no server)

@Suite struct SocialSignInParsingTests {
    // MARK: QueryString

    @Test func queryStringDecodesPlusPercentAndDropsTheFragment() {
        let p = QueryString.parameters(of: "https://app.example/cb?token=abc&state=s%2B1&name=Ann+Lee&e=%C3%A9#frag?x=1&token=no")
        #expect(p["token"] == "abc")
        #expect(p["state"] == "s+1")
        #expect(p["name"] == "Ann Lee")
        #expect(p["e"] == "é")
        #expect(p["x"] == nil)
        #expect(p.count == 4)
    }

    @Test func queryStringKeepsMalformedEscapesAsTheyAre() {
        let p = QueryString.parameters(of: "https://x.example/?a=%zz&b=%4&c=%&d=100%&f=%G1%41")
        #expect(p["a"] == "%zz")
        #expect(p["b"] == "%4")
        #expect(p["c"] == "%")
        #expect(p["d"] == "100%")
        #expect(p["f"] == "%G1A")
        // Bytes that are not UTF-8 decode to the replacement character, never a trap.
        #expect(QueryString.parameters(of: "https://x.example/?bad=%FF%FE")["bad"] == "\u{FFFD}\u{FFFD}")
    }

    @Test func queryStringEdgeCases() {
        #expect(QueryString.parameters(of: "https://x.example/path").isEmpty)
        #expect(QueryString.parameters(of: "https://x.example/path?").isEmpty)
        #expect(QueryString.parameters(of: "https://x.example/#a?b=1").isEmpty)
        #expect(QueryString.parameters(of: "?&&=x&a") == ["a": ""])
        #expect(QueryString.parameters(of: "?a=1&a=2") == ["a": "2"])
        #expect(QueryString.parameters(of: "?a==b") == ["a": "=b"])
        #expect(QueryString.parameters(of: "?a%3Db=c") == ["a=b": "c"])
        #expect(QueryString.parse("x=1&y") == ["x": "1", "y": ""])
        #expect(QueryString.location(of: "https://x.example/p?q=1#f") == "https://x.example/p")
        #expect(QueryString.location(of: "https://x.example/p#f?q=1") == "https://x.example/p")
        #expect(QueryString.location(of: "https://x.example/p") == "https://x.example/p")
    }

    // MARK: EngageConfig

    static func document(baseurl: JSON? = "https://rp.example/", extra: [String: JSON] = [:]) -> JSON {
        var members: [String: JSON] = [
            "enabled_providers": ["facebook", "google", "openid", "ghost"],
            "social_providers": ["facebook"],
            "hide_tagline": "YES",
            "provider_info": [
                "facebook": ["friendly_name": "Facebook", "url": "/facebook/start", "requires_input": "NO",
                             "social_sharing_properties": ["uses_set_status_if_no_url": "NO"]],
                "google": ["friendly_name": "Google", "url": "google/start", "requires_input": false],
                "openid": ["friendly_name": "OpenID", "url": "/openid/start", "requires_input": "YES",
                           "input_prompt": "Enter your OpenID URL", "openid_identifier": "%@"],
            ],
        ]
        if let baseurl { members["baseurl"] = baseurl }
        for (k, v) in extra { members[k] = v }
        return .object(members)
    }

    @Test func engageConfigParsesProvidersAndFlags() throws {
        let config = try EngageConfig(document: Self.document(), etag: "\"e1\"")
        #expect(config.baseURL == "https://rp.example")
        // A listed provider without provider_info is left out; the order is the server's.
        #expect(config.signInProviders == ["facebook", "google", "openid"])
        #expect(config.sharingProviders == ["facebook"])
        #expect(config.hideTagline)
        #expect(config.etag == "\"e1\"")
        #expect(config.providers["openid"]?.requiresInput == true)
        #expect(config.providers["facebook"]?.requiresInput == false)
        #expect(config.providers["google"]?.requiresInput == false)
        #expect(config.providers["google"]?.startPath == "/google/start")
        #expect(config.providers["openid"]?.inputLabel == "OpenID URL")
        #expect(config.providers["openid"]?.openidIdentifier == "%@")
        // The cache entry gives the same configuration back.
        #expect(try EngageConfig(cache: config.cacheJSON) == config)
    }

    @Test func engageFlagsAcceptYesNoAndBooleans() {
        let cases: [(JSON?, Bool)] = [
            ("YES", true), ("yes", true), ("true", true), (true, true),
            ("NO", false), ("no", false), (false, false), ("", false), (1, false), (nil, false), (.null, false),
        ]
        for (value, expected) in cases {
            #expect(EngageProvider.flag(value) == expected, "flag(\(String(describing: value)))")
        }
        let provider = EngageProvider(name: "x", info: ["requires_input": "YES"])
        #expect(provider.requiresInput && provider.startPath == "/x/start" && provider.friendlyName == "x")
    }

    @Test func engageConfigWithoutBaseurlOrProviderInfoIsRefused() {
        for document in [
            Self.document(baseurl: nil), Self.document(baseurl: ""), Self.document(baseurl: 7),
            Self.document(baseurl: "ftp://rp.example/"), Self.document(baseurl: "rp.example"),
            Self.document(extra: ["provider_info": ["facebook"]]),
            ["baseurl": "https://rp.example/"] as JSON,
        ] {
            let error = #expect(throws: JumpError.self) { try EngageConfig(document: document, etag: nil) }
            #expect(error?.status == .server)
        }
        #expect(throws: JumpError.self) { try EngageConfig(cache: ["etag": "x"]) }
    }

    @Test func engageConfigStripsEveryTrailingSlash() throws {
        let config = try EngageConfig(document: Self.document(baseurl: "http://127.0.0.1:9//"), etag: nil)
        #expect(config.baseURL == "http://127.0.0.1:9")
        #expect(config.hideTagline)
        let plain = try EngageConfig(document: Self.document(extra: ["hide_tagline": "NO"]), etag: nil)
        #expect(!plain.hideTagline)
    }

    // MARK: SignInStart

    static func config() throws -> EngageConfig { try EngageConfig(document: document(), etag: nil) }

    static func start(_ provider: EngageProvider, input: String? = nil, forceReauth: Bool = false,
                      redirectURI: String? = nil, state: String = "st8") throws -> SignInStart {
        try SignInStart(config: config(), provider: provider, appID: "app-1", input: input, forceReauth: forceReauth,
                        redirectURI: redirectURI, state: state, installationID: "inst-1")
    }

    @Test func deviceCompletionStartURL() throws {
        let google = try #require(try Self.config().providers["google"])
        let start = try Self.start(google)
        #expect(start.url.hasPrefix("https://rp.example/google/start?"))
        #expect(start.completionLocation == "https://rp.example/signin/device")
        let p = QueryString.parameters(of: start.url)
        #expect(p["extended"] == "true")
        #expect(p["device"] == "android")
        #expect(p["state"] == "st8")
        #expect(p["applicationId"] == "app-1")
        #expect(p["installation_id"] == "inst-1")
        #expect(p["token_url"] == nil)
        #expect(p["force_reauth"] == nil)
        #expect(p["openid_identifier"] == nil && p["saml_provider"] == nil)
        #expect(try QueryString.parameters(of: Self.start(google, forceReauth: true).url)["force_reauth"] == "true")
    }

    @Test func redirectCompletionCarriesTheStateInsideTokenURL() throws {
        let google = try #require(try Self.config().providers["google"])
        let start = try Self.start(google, redirectURI: "https://app.example/done?x=1", state: "a b&c=d")
        #expect(start.completionLocation == "https://app.example/done")
        let p = QueryString.parameters(of: start.url)
        #expect(p["device"] == nil)
        #expect(p["state"] == "a b&c=d")
        let tokenURL = try #require(p["token_url"])
        #expect(tokenURL.hasPrefix("https://app.example/done?x=1&state="))
        // Engage appends &token=..; the completion then finds both parameters intact.
        let landed = QueryString.parameters(of: tokenURL + "&token=T0K")
        #expect(landed["state"] == "a b&c=d" && landed["x"] == "1" && landed["token"] == "T0K")
        #expect(QueryString.location(of: tokenURL) == start.completionLocation)
        // Without a query of its own the state starts one.
        let bare = try Self.start(google, redirectURI: "https://app.example/done")
        #expect(QueryString.parameters(of: bare.url)["token_url"] == "https://app.example/done?state=st8")
    }

    @Test func openidInputIsSubstitutedAndRequired() throws {
        let openid = try #require(try Self.config().providers["openid"])
        let start = try Self.start(openid, input: "https://me.example/")
        #expect(start.url.hasPrefix("https://rp.example/openid/start?"))
        #expect(QueryString.parameters(of: start.url)["openid_identifier"] == "https://me.example/")
        for input in [nil, ""] as [String?] {
            let error = #expect(throws: JumpError.self) { try Self.start(openid, input: input) }
            #expect(error?.status == .validation)
            #expect(error?.detail["invalid_fields"]?["input"]?.arrayValue?.first == "Enter your OpenID URL")
        }
    }

    @Test func customProvidersStartAtOpenIDOrSAML() throws {
        let acme = try EngageProvider(customName: "acme", info: [
            "friendly_name": "Acme", "openid_identifier": "https://openid.acme.example/%@", "opx_blob": "blob-1",
        ])
        #expect(acme.custom == .openid && acme.requiresInput && acme.startPath == "/openid/start")
        #expect(acme.inputPrompt == "Enter your Acme user name")
        #expect(acme.custom?.rawValue == "openid")
        let start = try Self.start(acme, input: "ann")
        #expect(start.url.hasPrefix("https://rp.example/openid/start?"))
        let p = QueryString.parameters(of: start.url)
        #expect(p["openid_identifier"] == "https://openid.acme.example/ann")
        #expect(p["opx_blob"] == "blob-1")
        #expect(p["saml_provider"] == nil)
        #expect(throws: JumpError.self) { try Self.start(acme) }

        // A fixed OpenID identifier needs no input, and ignores one.
        let fixed = try EngageProvider(customName: "fixed", info: ["openid_identifier": "https://id.example/"])
        #expect(!fixed.requiresInput && fixed.inputPrompt == nil && fixed.friendlyName == "fixed")
        #expect(QueryString.parameters(of: try Self.start(fixed, input: "x").url)["openid_identifier"] == "https://id.example/")

        let corp = try EngageProvider(customName: "corp", info: ["friendly_name": "Corp", "saml_provider": "corp-idp"])
        #expect(corp.custom == .saml && !corp.requiresInput && corp.startPath == "/saml2/sso/start")
        let saml = QueryString.parameters(of: try Self.start(corp).url)
        #expect(saml["saml_provider"] == "corp-idp")
        #expect(saml["openid_identifier"] == nil)

        for info: JSON in [[:], ["friendly_name": "X"], ["openid_identifier": ""], ["saml_provider": ""], "text"] {
            let error = #expect(throws: JumpError.self) { try EngageProvider(customName: "bad", info: info) }
            #expect(error?.status == .invalidArgument)
            #expect(error?.detail["argument"] == "engageCustomProviders")
        }
    }

    @Test func socialOptionsAreChecked() throws {
        #expect(try SocialOptions(.null).purpose == .signIn(mergeToken: nil))
        #expect(try SocialOptions(["link": true]).purpose == .link)
        #expect(try SocialOptions(["merge_token": "m"]).purpose == .signIn(mergeToken: "m"))
        #expect(try SocialOptions(["merge_token": ""]).purpose == .signIn(mergeToken: nil))
        let options = try SocialOptions(["input": "in", "force_reauth": true, "redirect_uri": "https://a.example/"])
        #expect(options.input == "in" && options.forceReauth && options.redirectURI == "https://a.example/")
        let refused: [(JSON, String)] = [
            (["a"], "options"), (["bogus": 1], "bogus"), (["link": "yes"], "link"), (["merge_token": 3], "merge_token"),
            (["link": true, "merge_token": "m"], "merge_token"), (["force_reauth": "true"], "force_reauth"),
            (["input": 1], "input"),
        ]
        for (value, argument) in refused {
            let error = #expect(throws: JumpError.self) { try SocialOptions(value) }
            #expect(error?.status == .invalidArgument && error?.detail["argument"] == .string(argument),
                    "\(value) -> \(String(describing: error))")
        }
    }
}

// MARK: - Against the emulator

/// A browser on the emulator's fake identity provider: GETs a start URL without following redirects,
/// presses a button of the page (submitting its form with the hidden inputs), and reports the Location.
struct FakeBrowser {
    let transport = CurlTransport(connectTimeoutMs: 5_000, requestTimeoutMs: 20_000)
    let base: String

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Presses the button whose `attribute` is `value`; `fields` fill the form's inputs. Returns the URL the
    /// provider sends the browser to (also when the start itself redirects).
    func press(_ startURL: String, _ attribute: String, _ value: String, fields: [String: String] = [:]) throws -> String {
        var get = HTTPRequest(method: "GET", url: startURL)
        get.followRedirects = false
        let page = try transport.send(get, cancellation: nil)
        if (300..<400).contains(page.status), let location = Self.header("Location", page) { return location }
        let html = String(decoding: page.body, as: UTF8.self)
        guard page.status == 200 else { throw Failure(description: "GET \(startURL) -> HTTP \(page.status): \(html.prefix(300))") }
        guard let (action, body) = Self.submission(html: html, attribute: attribute, value: value, fields: fields) else {
            throw Failure(description: "no button \(attribute)=\"\(value)\" on the page:\n\(html.prefix(2000))")
        }
        var post = HTTPRequest(method: "POST", url: action.hasPrefix("http") ? action : base + action,
                               headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
        post.followRedirects = false
        let answer = try transport.send(post, cancellation: nil)
        guard (300..<400).contains(answer.status), let location = Self.header("Location", answer) else {
            throw Failure(description: "POST \(action) -> HTTP \(answer.status): \(String(decoding: answer.body, as: UTF8.self).prefix(300))")
        }
        return location
    }

    func create(_ startURL: String, name: String, email: String) throws -> String {
        try press(startURL, "id", "create-identity", fields: ["display_name": name, "email": email])
    }

    static func header(_ name: String, _ response: HTTPResponse) -> String? {
        response.headers.last { $0.0.lowercased() == name.lowercased() }?.1
    }

    static func submission(html: String, attribute: String, value: String, fields: [String: String]) -> (String, String)? {
        guard let button = tags("button", in: html[...]).first(where: { attributeValue(attribute, in: $0) == value }),
              let formStart = html.range(of: "<form", options: .backwards, range: html.startIndex..<button.startIndex),
              let formTag = tags("form", in: html[formStart.lowerBound...]).first,
              let action = attributeValue("action", in: formTag) else { return nil }
        let formEnd = html.range(of: "</form>", range: button.endIndex..<html.endIndex)?.lowerBound ?? html.endIndex
        var body = FormParameters()
        for input in tags("input", in: html[formStart.lowerBound..<formEnd]) {
            let type = attributeValue("type", in: input)?.lowercased()
            guard let name = attributeValue("name", in: input), !name.isEmpty, type != "submit", type != "button" else { continue }
            body.add(name, fields[name] ?? attributeValue("value", in: input) ?? "")
        }
        if let name = attributeValue("name", in: button), !name.isEmpty {
            body.add(name, attributeValue("value", in: button) ?? "")
        }
        return (action, body.encoded)
    }

    /// Every `<name ...>` tag of html.
    static func tags(_ name: String, in html: Substring) -> [Substring] {
        var found: [Substring] = []
        var rest = html
        while let open = rest.range(of: "<\(name)") {
            guard let close = rest[open.upperBound...].firstIndex(of: ">") else { break }
            let next = rest[open.upperBound]
            if next == " " || next == ">" || next == "\n" || next == "\t" { found.append(rest[open.lowerBound...close]) }
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    static func attributeValue(_ name: String, in tag: Substring) -> String? {
        for quote in ["\"", "'"] {
            guard let r = tag.range(of: "\\s\(name)=\(quote)[^\(quote)]*\(quote)", options: .regularExpression) else { continue }
            let match = tag[r]
            let start = match.index(after: match.firstIndex(of: Character(quote))!)
            return unescape(String(match[start..<match.index(before: match.endIndex)]))
        }
        return nil
    }

    static func unescape(_ text: String) -> String {
        var out = text
        for (entity, plain) in [("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&apos;", "'"), ("&lt;", "<"),
                                ("&gt;", ">"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: plain)
        }
        return out
    }
}

@Suite(.serialized) struct SocialSignInIntegrationTests {
    let emulator: EmulatorProcess
    let transport = RecordingTransport()
    let browser: FakeBrowser

    init() throws {
        emulator = try EmulatorProcess()
        browser = FakeBrowser(base: emulator.url)
    }

    func client(thin: Bool = false, _ extra: [String: JSON] = [:]) throws -> JumpClient {
        var members: [String: JSON] = [
            "engageAppId": "jump-default-engage", "engageDomain": .string(emulator.url),
            "captureEnableThinRegistration": .bool(thin),
        ]
        for (k, v) in extra { members[k] = v }
        return try JumpClient(config: emulator.config(members), transport: transport)
    }

    /// A test identity of the fake provider: (id for its page button, identifier).
    func identity(_ provider: String, name: String, email: String) throws -> (id: String, identifier: String) {
        let made = try emulator.admin("POST", "/emulator/identities",
                                      ["provider": .string(provider), "display_name": .string(name), "email": .string(email)])
        let id = try #require(made["id"]?.stringValue ?? made["id"]?.intValue.map { String($0) })
        return (id, try #require(made["identifier"]?.stringValue))
    }

    func providerToken(_ name: String, _ email: String) -> String {
        Jansson.serialize(["display_name": .string(name), "email": .string(email)])
    }

    func identifiers(_ client: JumpClient) throws -> [String] {
        try client.capture.linkedProfiles().map(\.identifier)
    }

    func serverIdentifiers(_ uuid: String) throws -> [String] {
        let user = try emulator.admin("GET", "/emulator/users/\(uuid)")["user"]
        return user?["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } ?? []
    }

    @Test func beginAndCompleteRoundTrip() throws {
        let client = try client(thin: true)
        let email = EmulatorProcess.uniqueEmail("round")
        let begun = try client.beginSocialSignIn(provider: "google")
        #expect(begun.completion == "device")
        #expect(begun.completionPrefix == emulator.url + "/signin/device")
        #expect(begun.url.hasPrefix(emulator.url + "/google/start?"))
        #expect(QueryString.parameters(of: begun.url)["state"] == begun.state)

        let landed = try browser.create(begun.url, name: "Rou Nd", email: email)
        #expect(landed.hasPrefix(begun.completionPrefix + "?"))
        #expect(QueryString.parameters(of: landed)["state"] == nil)  // as Engage: bound to the one pending sign-in
        let result = try client.completeSocialSignIn(url: landed)
        #expect(result.kind.rawValue == "registered" && result.isNew == true && result.provider == "google")
        let identifier = try #require(result.identifier)
        #expect(identifier.hasPrefix("https://google.example/"))
        let uuid = try #require(result.uuid)
        #expect(client.isSignedIn)
        #expect(try identifiers(client) == [identifier])
        #expect(try serverIdentifiers(uuid) == [identifier])
        // auth_native got the Engage token, thin registration and a refresh secret.
        let form = try #require(transport.forms(to: "/oauth/auth_native").last)
        #expect(form["thin_registration"] == "true" && form["token"]?.count == 40)
        #expect(form["client_id"] == "jump-default-client" && form["refresh_secret"]?.isEmpty == false)

        // The completion is used up; a forged state or another place never completes anything.
        let reused = #expect(throws: JumpError.self) { try client.completeSocialSignIn(url: landed) }
        #expect(reused?.status == .invalidArgument && reused?.detail["reason"] == "unknown_state")
        let next = try client.beginSocialSignIn(provider: "google")
        let elsewhere = emulator.url + "/elsewhere?state=" + next.state + "&token=x"
        let wrong = #expect(throws: JumpError.self) { try client.completeSocialSignIn(url: elsewhere) }
        #expect(wrong?.detail["reason"] == "wrong_location")
        #expect(try client.capture.linkedProfiles().count == 1)

        // The same identity from another installation: the same account.
        let other = try self.client(thin: true)
        let again = try other.beginSocialSignIn(provider: "google")
        // (A fresh emulator per test: the identity made above is the page's only one.)
        let second = try other.completeSocialSignIn(url: try browser.press(again.url, "name", "identity_id"))
        #expect(second.kind.rawValue == "signed_in" && second.uuid == uuid && second.isNew == false)
    }

    @Test func registrationRequiredThenRegisterSocial() throws {
        let client = try client()
        let email = EmulatorProcess.uniqueEmail("twostep")
        let ident = try identity("facebook", name: "Two Step", email: email)
        let begun = try client.beginSocialSignIn(provider: "facebook")
        let landed = try browser.press(begun.url, "value", ident.id)
        let error = #expect(throws: JumpError.self) { try client.completeSocialSignIn(url: landed) }
        #expect(error?.status == .registrationRequired)
        let token = try #require(error?.detail["social_registration_token"]?.stringValue)
        let prereg = try #require(error?.detail["prereg_record"])
        #expect(prereg["email"] == .string(email))
        #expect(prereg["displayName"] == "Two Step")
        #expect(error?.detail["provider"] == "facebook")
        #expect(transport.forms(to: "/oauth/auth_native").last?["thin_registration"] == "false")
        #expect(!client.isSignedIn)

        var missing = prereg.objectValue ?? [:]
        missing["email"] = nil
        let invalid = #expect(throws: JumpError.self) { try client.capture.registerSocial(token: token, attributes: .object(missing)) }
        #expect(invalid?.status == .validation)
        #expect(invalid?.detail["invalid_fields"]?["emailAddress"]?.arrayValue?.isEmpty == false)
        #expect(!client.isSignedIn)

        let registered = try client.capture.registerSocial(token: token, attributes: prereg)
        #expect(registered.isNew)
        let uuid = try #require(registered.uuid)
        let form = try #require(transport.forms(to: "/oauth/register_native").last)
        #expect(form["form"] == "socialRegistrationForm" && form["token"] == token && form["emailAddress"] == email)
        #expect(try identifiers(client) == [ident.identifier])
        #expect(try serverIdentifiers(uuid) == [ident.identifier])
        #expect(try client.capture.recordView().value(at: "/email") == .string(email))
    }

    @Test func mergeRequiredThenMergeThroughTheExistingProvider() throws {
        let email = EmulatorProcess.uniqueEmail("merge")
        let conflict = try emulator.admin("POST", "/emulator/merge_conflict",
                                          ["email": .string(email), "existing_provider": "google", "provider": "facebook"])
        let uuid = try #require(conflict["user"]?["uuid"]?.stringValue)
        let existing = try #require(conflict["existing_identity"]?["token"]?.stringValue)
        let conflicting = try #require(conflict["conflicting_identity"]?["token"]?.stringValue)
        let client = try client(thin: true)

        let error = #expect(throws: JumpError.self) {
            try client.signInWithProviderToken(provider: "facebook", token: conflicting, tokenSecret: nil)
        }
        #expect(error?.status == .mergeRequired)
        #expect(error?.detail["existing_provider"] == "google" && error?.detail["conflicting_provider"] == "facebook")
        let mergeToken = try #require(error?.detail["merge_token"]?.stringValue)
        #expect(!client.isSignedIn)

        let merged = try client.signInWithProviderToken(provider: "google", token: existing, tokenSecret: nil,
                                                        options: ["merge_token": .string(mergeToken)])
        #expect(merged.kind.rawValue == "signed_in" && merged.merged == true && merged.uuid == uuid)
        #expect(transport.forms(to: "/oauth/auth_native").last?["merge_token"] == mergeToken)
        let linked = try identifiers(client)
        #expect(linked.count == 2)
        #expect(Set(try serverIdentifiers(uuid)) == Set(linked))
    }

    @Test func mergeRequiredThenMergeThroughATraditionalSignIn() throws {
        let email = EmulatorProcess.uniqueEmail("mergepw")
        let conflict = try emulator.admin("POST", "/emulator/merge_conflict",
                                          ["email": .string(email), "existing_provider": "capture", "provider": "linkedin"])
        let uuid = try #require(conflict["user"]?["uuid"]?.stringValue)
        let password = try #require(conflict["password"]?.stringValue)
        let conflicting = try #require(conflict["conflicting_identity"]?["token"]?.stringValue)
        let identifier = try #require(conflict["conflicting_identity"]?["identifier"]?.stringValue)
        let client = try client(thin: true)
        let error = #expect(throws: JumpError.self) {
            try client.signInWithProviderToken(provider: "linkedin", token: conflicting, tokenSecret: nil)
        }
        #expect(error?.status == .mergeRequired && error?.detail["existing_provider"] == "capture")
        let mergeToken = try #require(error?.detail["merge_token"]?.stringValue)
        let result = try client.capture.signIn(user: email, password: password, mergeToken: mergeToken)
        #expect(result.uuid == uuid)
        #expect(transport.forms(to: "/oauth/auth_native_traditional").last?["merge_token"] == mergeToken)
        #expect(try identifiers(client) == [identifier])
        #expect(try serverIdentifiers(uuid) == [identifier])
    }

    @Test func linkUnlinkAndTheLastIdentityRefusal() throws {
        let client = try client(thin: true)
        let first = try client.signInWithProviderToken(provider: "facebook",
                                                       token: providerToken("Li Nk", EmulatorProcess.uniqueEmail("link")),
                                                       tokenSecret: nil)
        let uuid = try #require(first.uuid)
        let facebook = try #require(try identifiers(client).first)
        #expect(try client.capture.recordView().value(at: "/password") == .null)

        // The only identity of a password-less account: refused here, nothing sent.
        let refused = #expect(throws: JumpError.self) { try client.capture.unlinkAccount(identifier: facebook) }
        #expect(refused?.status == .invalidArgument && refused?.detail["reason"] == "last_identity")
        #expect(transport.count(to: "/oauth/unlink_account_native") == 0)

        let link = try client.signInWithProviderToken(provider: "google",
                                                      token: providerToken("Li Nk", EmulatorProcess.uniqueEmail("link.g")),
                                                      tokenSecret: nil, options: ["link": true])
        #expect(link.kind.rawValue == "linked" && link.uuid == uuid)
        let google = try #require(link.identifier)
        #expect(Set(try identifiers(client)) == [facebook, google])
        #expect(transport.forms(to: "/oauth/link_account_native").last?["access_token"]?.isEmpty == false)

        try client.capture.unlinkAccount(identifier: facebook)
        #expect(transport.forms(to: "/oauth/unlink_account_native").last?["identifier_to_remove"] == facebook)
        #expect(try identifiers(client) == [google])
        #expect(try serverIdentifiers(uuid) == [google])
        let last = #expect(throws: JumpError.self) { try client.capture.unlinkAccount(identifier: google) }
        #expect(last?.detail["reason"] == "last_identity")
        let unknown = #expect(throws: JumpError.self) { try client.capture.unlinkAccount(identifier: "https://nobody.example/1") }
        #expect(unknown?.status == .notFound)
        #expect(transport.count(to: "/oauth/unlink_account_native") == 1)
    }

    @Test func passwordAccountMayUnlinkItsOnlyIdentity() throws {
        let email = EmulatorProcess.uniqueEmail("pwonly")
        let created = try emulator.admin("POST", "/emulator/users", ["email": .string(email), "password": "correct horse 1"])
        let uuid = try #require(created["user"]?["uuid"]?.stringValue)
        let client = try client()
        _ = try client.capture.signIn(user: email, password: "correct horse 1")
        let ident = try identity("twitter", name: "Pw Only", email: EmulatorProcess.uniqueEmail("pwonly.t"))
        let begun = try client.beginSocialSignIn(provider: "twitter", options: ["link": true])
        let linked = try client.completeSocialSignIn(url: try browser.press(begun.url, "value", ident.id))
        #expect(linked.kind.rawValue == "linked" && linked.identifier == ident.identifier)
        #expect(try serverIdentifiers(uuid) == [ident.identifier])
        try client.capture.unlinkAccount(identifier: ident.identifier)
        #expect(try identifiers(client).isEmpty)
        #expect(try serverIdentifiers(uuid).isEmpty)
    }

    @Test func cancelAndProviderErrorsMapToStatuses() throws {
        let client = try client(thin: true)
        let begun = try client.beginSocialSignIn(provider: "yahoo")
        let cancelled = try browser.press(begun.url, "id", "cancel")
        let error = #expect(throws: JumpError.self) { try client.completeSocialSignIn(url: cancelled) }
        #expect(error?.status == .cancelled && error?.detail["reason"] == "user_canceled")

        let openid = try client.beginSocialSignIn(provider: "openid", options: ["input": "not-a-url"])
        let refused = try browser.create(openid.url, name: "Op En", email: "op@example.com")
        let invalid = #expect(throws: JumpError.self) { try client.completeSocialSignIn(url: refused) }
        #expect(invalid?.status == .validation)
        #expect(invalid?.detail["invalid_fields"]?["input"]?.arrayValue?.first == "Your OpenID must be a URL")
        #expect(!client.isSignedIn)
    }
}
