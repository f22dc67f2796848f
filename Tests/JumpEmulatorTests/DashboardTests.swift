import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

@Suite("Dashboard: HTML pages at /emulator and /emulator/ui/...")
struct DashboardTests {
    static let pages = [
        "/emulator", "/emulator/ui/apps", "/emulator/ui/users", "/emulator/ui/identities", "/emulator/ui/outbox",
        "/emulator/ui/tokens", "/emulator/ui/clock", "/emulator/ui/faults", "/emulator/ui/counters",
        "/emulator/ui/reset",
    ]

    /// Headers a browser sends with a form posted by one of the dashboard's own pages.
    static let sameOrigin: HTTPFields = {
        var headers = HTTPFields()
        if let site = HTTPFields.Element.Name("Sec-Fetch-Site") { headers[site] = "same-origin" }
        headers[.origin] = "http://localhost"
        return headers
    }()

    static func crossSite(_ site: String, origin: String) -> HTTPFields {
        var headers = HTTPFields()
        if let name = HTTPFields.Element.Name("Sec-Fetch-Site") { headers[name] = site }
        headers[.origin] = origin
        return headers
    }

    @Test func templatesParse() throws {
        _ = try DashboardTemplates.load()
        #expect(DashboardTemplates.library != nil)
    }

    @Test func everyPageIsHTMLWithTheHeaderAndNav() async throws {
        try await Harness.run { h in
            for page in Self.pages {
                let response = try await h.get(page)
                #expect(response.status == .ok, "\(page)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(page)")
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true, "\(page)")
                let html = String(buffer: response.body)
                #expect(html.hasPrefix("<!DOCTYPE html>"), "\(page)")
                #expect(html.contains("<a class=\"brand\" href=\"/emulator\">jump-emulator"), "\(page)")
                #expect(html.contains("aria-current=\"page\""), "\(page)")
                #expect(!html.contains("<script"), "\(page)")
                for link in DashboardNav.allCases {
                    #expect(html.contains("href=\"\(link.path)\""), "\(page) links \(link.path)")
                }
            }
        }
    }

    @Test func theJSONAdminAPIIsUnchangedBeside() async throws {
        try await Harness.run { h in
            let (status, clock) = try await h.admin(.get, "/clock")
            #expect(status == .ok && clock["offset_seconds"] != nil)
            let (appsStatus, apps) = try await h.admin(.get, "/apps")
            #expect(appsStatus == .ok && apps["apps"]?.arrayValue?.count == 1)
            #expect(try await h.get("/emulator/ui/nothing").status == .notFound)
            #expect(try await h.get("/emulator/ui").status == .notFound)
        }
    }

    @Test func overviewCountsWhatTheEmulatorHolds() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "count@example.com")
            let html = String(buffer: try await h.get("/emulator").body)
            #expect(html.contains("id=\"stat-users\"><div class=\"number\">1</div>"))
            #expect(html.contains("id=\"stat-tokens\"><div class=\"number\">1</div>"))
            #expect(html.contains("id=\"emulator-time\""))
        }
    }

    @Test func appsPageMasksSecretsAndKeys() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/apps", [
                "client_id": "second-client", "capture_app_id": "second-app", "client_secret": "s3cret-value",
                "password_recover_url": "https://example.com/reset",
            ])
            let html = String(buffer: try await h.get("/emulator/ui/apps").body)
            #expect(html.contains("id=\"app-jump-default-client\"") && html.contains("id=\"app-second-client\""))
            #expect(html.contains("id=\"engage-app-jump-default-engage\""))
            #expect(html.contains("https://example.com/reset"))
            #expect(!html.contains("s3cret-value") && !html.contains("jump-default-secret"))
            #expect(!html.contains("jump-engage-api-key"))
            #expect(html.contains(DashboardText.masked))
        }
    }

    @Test func usersPageShowsRecordsEscapedAndLinkedIdentities() async throws {
        try await Harness.run { h in
            let (status, created) = try await h.admin(.post, "/users", [
                "email": "hostile@example.com", "password": "pw",
                "record": [
                    "displayName": "<script>alert(1)</script>",
                    "profiles": [["identifier": "https://facebook.example/77", "domain": "facebook.com"]],
                ],
            ])
            #expect(status == .created, "\(created.serialized())")
            let uuid = try #require(created["user"]?["uuid"]?.stringValue)
            let html = String(buffer: try await h.get("/emulator/ui/users").body)
            #expect(html.contains("id=\"user-\(uuid)\""))
            #expect(html.contains("<h3>hostile@example.com</h3>"))
            #expect(html.contains("&quot;displayName&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;"))
            #expect(!html.contains("<script>"))
            #expect(html.contains("<span class=\"mono\">https://facebook.example/77</span>"))
        }
    }

    @Test func usersPageLeavesBigRecordsToTheAdminAPI() async throws {
        try await Harness.run { h in
            let big = String(repeating: "x", count: 900)
            let (status, created) = try await h.admin(.post, "/users", [
                "email": "big@example.com",
                "record": ["photos": .array((0..<100).map { _ in ["value": .string(big)] })],
            ])
            #expect(status == .created, "\(created.serialized())")
            let html = String(buffer: try await h.get("/emulator/ui/users").body)
            #expect(html.contains("The record is 9") && html.contains(" KiB; <span class=\"mono\">GET /emulator/users/"))
            #expect(!html.contains(big))
        }
    }

    @Test func identitiesOutboxAndTokensPages() async throws {
        try await Harness.run { h in
            _ = try await h.identity(["provider": "google", "display_name": "Gia <i>", "email": "gia@example.com"])
            let token = try await h.registeredToken(email: "tok@example.com")
            let forgot = try await h.capture(
                "/oauth/forgot_password_native",
                PasswordResetTests.forgotDefaults + [("signInEmailAddress", "tok@example.com")])
            #expect(forgot["stat"] == "ok")

            let identities = String(buffer: try await h.get("/emulator/ui/identities").body)
            #expect(identities.contains("Gia &lt;i&gt;") && identities.contains("https://google.example/"))
            #expect(identities.contains("every app"))

            let outbox = String(buffer: try await h.get("/emulator/ui/outbox").body)
            let emails = try await h.emails(to: "tok@example.com")
            let resets = emails.filter { $0["kind"] == "password_reset" }
            let email = try #require(resets.first)
            let link = try #require(email["link"]?.stringValue)
            #expect(outbox.contains("<a class=\"email-link\" href=\"\(link)\">Reset password</a>"))
            #expect(outbox.contains("password reset"))

            let tokens = String(buffer: try await h.get("/emulator/ui/tokens").body)
            #expect(tokens.contains(String(token.prefix(6)) + "…"))
            #expect(!tokens.contains(token))
            #expect(tokens.contains("<span class=\"badge good\">live</span>"))
            #expect(tokens.contains("1 live, 0 expired, 0 retired"))
        }
    }

    @Test func refreshedTokensShowAsRetiredWithTheirSuccessorShortened() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "refresh@example.com")
            let refreshed = try await h.refresh(token: token, secret: "secret-1")
            let next = try #require(refreshed["access_token"]?.stringValue)
            let html = String(buffer: try await h.get("/emulator/ui/tokens").body)
            #expect(html.contains("<span class=\"badge plain\">retired</span>"))
            #expect(html.contains("1 live, 0 expired, 1 retired"))
            #expect(html.contains(String(next.prefix(6)) + "…"))
            #expect(!html.contains(token) && !html.contains(next))
        }
    }

    @Test func outboxLinksAreClickableOnlyWhenTheyAreWebLinks() {
        #expect(DashboardText.isWebLink("http://127.0.0.1:9080/password_recover?code=x"))
        #expect(DashboardText.isWebLink("HTTPS://example.com/reset"))
        #expect(!DashboardText.isWebLink("javascript:alert(1)"))
        #expect(DashboardText.shortToken("abcdefghij") == "abcdef…")
        #expect(DashboardText.offset(90_061) == "+1 d 1 h 1 min 1 s")
        #expect(DashboardText.offset(-30) == "-30 s")
        #expect(DashboardText.offset(0) == "none")
    }

    // MARK: - Form posts

    @Test func advancingTheClockFromTheDashboard() async throws {
        try await Harness.run { h in
            let response = try await h.request(
                .post, "/emulator/ui/clock", body: "amount=2&unit=hours", contentType: "application/x-www-form-urlencoded",
                headers: Self.sameOrigin)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/emulator/ui/clock")
            #expect(h.emulator.clock.offsetSeconds == 7200)
            let page = String(buffer: try await h.get("/emulator/ui/clock").body)
            #expect(page.contains("<dd id=\"clock-offset\">+2 h</dd>"))

            let reset = try await h.request(
                .post, "/emulator/ui/clock", body: "reset=1", contentType: "application/x-www-form-urlencoded",
                headers: Self.sameOrigin)
            #expect(reset.status == .seeOther)
            #expect(h.emulator.clock.offsetSeconds == 0)
        }
    }

    @Test func aClockFormTheAdminAPIRefusesShowsTheError() async throws {
        try await Harness.run { h in
            let response = try await h.postForm("/emulator/ui/clock", [("amount", "99999999999"), ("unit", "days")])
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: response.body).contains("the clock offset must stay within"))
            let notANumber = try await h.postForm("/emulator/ui/clock", [("amount", "soon")])
            #expect(notANumber.status == .badRequest)
            #expect(h.emulator.clock.offsetSeconds == 0)
        }
    }

    @Test func armingAndDisarmingFaultsFromTheDashboard() async throws {
        try await Harness.run { h in
            let armed = try await h.request(
                .post, "/emulator/ui/faults", body: "kind=capture_error&count=2&path=%2Fentity&delay_ms=1000&code=330",
                contentType: "application/x-www-form-urlencoded", headers: Self.sameOrigin)
            #expect(armed.status == .seeOther)
            #expect(h.emulator.faults.pending == [
                Fault(kind: .captureError, remaining: 2, path: "/entity", delayMilliseconds: 1000, code: 330),
            ])
            let page = String(buffer: try await h.get("/emulator/ui/faults").body)
            #expect(page.contains("<span class=\"badge bad\">capture_error</span>"))
            #expect(page.contains("Capture error code 330"))

            let refused = try await h.postForm("/emulator/ui/faults", [("kind", "meteor")])
            #expect(refused.status == .badRequest)
            #expect(String(buffer: refused.body).contains("kind must be one of"))
            #expect(h.emulator.faults.pending.count == 1)

            let cleared = try await h.postForm("/emulator/ui/faults/clear", [])
            #expect(cleared.status == .seeOther)
            #expect(h.emulator.faults.pending.isEmpty)
        }
    }

    @Test func clearingCountersFromTheDashboard() async throws {
        try await Harness.run { h in
            _ = try await h.get("/")
            let before = String(buffer: try await h.get("/emulator/ui/counters").body)
            #expect(before.contains("<td class=\"mono\">GET</td><td class=\"mono\">/</td><td>1</td>"))
            let cleared = try await h.postForm("/emulator/ui/counters/clear", [])
            #expect(cleared.status == .seeOther)
            #expect(h.emulator.counters.snapshot.isEmpty)
        }
    }

    @Test func crossSiteFormPostsAreRefused() async throws {
        try await Harness.run { h in
            let (_, created) = try await h.admin(.post, "/users", ["email": "kept@example.com", "password": "pw"])
            let uuid = try #require(created["user"]?["uuid"]?.stringValue)
            let before = try await h.admin(.get, "/users").1
            // Every other action of the dashboard, and the admin calls new with them.
            let actions: [(HTTPRequest.Method, String, String)] = [
                (.post, "/emulator/ui/faults/clear", ""),
                (.post, "/emulator/ui/counters/clear", ""),
                (.post, "/emulator/ui/users", "client_id=jump-default-client&email=evil%40example.com&password=pw"),
                (.post, "/emulator/ui/users/\(uuid)", "record=%7B%22givenName%22%3A%22Evil%22%7D"),
                (.post, "/emulator/ui/users/\(uuid)/delete", "confirm=yes"),
                (.post, "/emulator/ui/reset", "confirm=yes"),
                (.post, "/emulator/ui/export", ""),
                (.post, "/emulator/export", ""),
                (.patch, "/emulator/users/\(uuid)", "{\"record\":{\"givenName\":\"Evil\"}}"),
            ]
            let attempts: [HTTPFields] = [
                Self.crossSite("cross-site", origin: "https://evil.example"),
                Self.crossSite("same-site", origin: "http://localhost:3000"),
                [.origin: "https://evil.example"],
                [.origin: "null"],
            ]
            for headers in attempts {
                let clock = try await h.request(
                    .post, "/emulator/ui/clock", body: "amount=1&unit=days", contentType: "application/x-www-form-urlencoded",
                    headers: headers)
                #expect(clock.status == .forbidden, "\(headers)")
                let fault = try await h.request(
                    .post, "/emulator/ui/faults", body: "kind=http_500", contentType: "application/x-www-form-urlencoded",
                    headers: headers)
                #expect(fault.status == .forbidden, "\(headers)")
                for (method, path, body) in actions {
                    let refused = try await h.request(
                        method, path, body: body, contentType: "application/x-www-form-urlencoded", headers: headers)
                    #expect(refused.status == .forbidden, "\(method) \(path) \(headers)")
                    #expect(refused.headers[.contentDisposition] == nil, "\(path)")
                }
            }
            #expect(h.emulator.clock.offsetSeconds == 0)
            #expect(h.emulator.faults.pending.isEmpty)
            #expect(try await h.admin(.get, "/users").1 == before)
            // Pages themselves can be opened from anywhere (a bookmark, a link in a test log).
            #expect(try await h.get("/emulator/ui/clock", headers: Self.crossSite("cross-site", origin: "https://x.example"))
                .status == .ok)
        }
    }

    /// The JSON admin API reads any body, so a plain cross-site form post would reach it: the same guard.
    @Test func crossSiteAdminCallsAreRefused() async throws {
        try await Harness.run { h in
            let refused = try await h.request(
                .post, "/emulator/clock", body: "{\"advance_seconds\":86400}", contentType: "text/plain",
                headers: Self.crossSite("cross-site", origin: "https://evil.example"))
            #expect(refused.status == .forbidden)
            #expect(h.emulator.clock.offsetSeconds == 0)
            // Clients that are not browsers (no Sec-Fetch-Site, no Origin) still act.
            let allowed = try await h.request(.post, "/emulator/clock", body: "{\"advance_seconds\":60}",
                                              contentType: "application/json", headers: [:])
            #expect(allowed.status == .ok)
            #expect(h.emulator.clock.offsetSeconds == 60)
        }
    }

    @Test func sameOriginRules() {
        #expect(CrossSiteGuard.isSameOrigin(fetchSite: nil, origin: nil, host: nil))
        #expect(CrossSiteGuard.isSameOrigin(fetchSite: "same-origin", origin: "http://127.0.0.1:9080", host: "127.0.0.1:9080"))
        #expect(CrossSiteGuard.isSameOrigin(fetchSite: "none", origin: nil, host: "127.0.0.1:9080"))
        #expect(!CrossSiteGuard.isSameOrigin(fetchSite: "cross-site", origin: nil, host: "127.0.0.1:9080"))
        #expect(!CrossSiteGuard.isSameOrigin(fetchSite: "same-site", origin: nil, host: "127.0.0.1:9080"))
        #expect(!CrossSiteGuard.isSameOrigin(fetchSite: nil, origin: "http://127.0.0.1:3000", host: "127.0.0.1:9080"))
        #expect(!CrossSiteGuard.isSameOrigin(fetchSite: nil, origin: "http://127.0.0.1:9080", host: nil))
    }

    // MARK: - The fake identity provider's page

    @Test func identityProviderPageHasTheBannerAndTellsNamesakesApart() async throws {
        try await Harness.run { h in
            let first = try await h.identity(["provider": "facebook", "display_name": "Twin", "email": "twin@example.com"])
            let second = try await h.identity(["provider": "facebook", "display_name": "Twin", "email": "twin@example.com"])
            let page = try await h.startPage("/facebook/start", EngageSignInTests.startQuery)
            let html = String(buffer: page.body)
            #expect(html.contains("<title>Sign in with Facebook (jump-emulator)</title>"))
            #expect(html.contains("id=\"emulator-banner\" role=\"note\">Emulator — not a real Facebook sign-in</div>"))
            for (number, identity) in [(1, first), (2, second)] {
                let id = identity["id"]?.intValue ?? -1
                let identifier = identity["identifier"]?.stringValue ?? "?"
                #expect(html.contains(
                    "id=\"identity-\(number)\" name=\"identity_id\" value=\"\(id)\">Continue as Twin (twin@example.com)</button>"))
                #expect(html.contains(
                    "<span class=\"meta\" id=\"identity-\(number)-meta\">#\(id) · <span class=\"mono\">\(identifier)</span> · created "))
            }
            #expect(first["identifier"] != second["identifier"])
        }
    }

    @Test func identityProviderMessagesShareTheFrameEscaped() async throws {
        try await Harness.run { h in
            let page = try await h.startPage("/facebook/start", [("applicationId", "no-<such>-app")])
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: page.body)
            #expect(html.contains("<title>Unknown application (jump-emulator)</title>"))
            #expect(html.contains("Emulator — not a real identity provider"))
            #expect(html.contains("<p class=\"alert error\" role=\"alert\">No Engage application no-&lt;such&gt;-app exists.</p>"))
        }
    }

    @Test func emailLinkPagesShareTheFrameEscaped() async throws {
        try await Harness.run { h in
            let reset = try await h.get("/password_recover?code=%3Cb%3Ex")
            #expect(reset.status == .ok)
            let html = String(buffer: reset.body)
            #expect(html.contains("<title>Reset your password (jump-emulator)</title>"))
            #expect(html.contains("<code id=\"reset-code\">&lt;b&gt;x</code>"))
            #expect(html.contains("<style>"))
            let verify = try await h.get("/verify_email?code=nope")
            #expect(verify.status == .badRequest)
            #expect(String(buffer: verify.body).contains("<h1>Link not valid</h1>"))
        }
    }
}
