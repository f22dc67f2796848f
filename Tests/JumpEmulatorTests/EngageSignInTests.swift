import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

@Suite("Engage: the fake identity provider and /signin/device")
struct EngageSignInTests {
    static let startQuery: [(String, String)] = [
        ("extended", "true"), ("device", "android"), ("installation_id", "inst-1"),
        ("applicationId", "jump-default-engage"), ("state", "st-1"),
    ]

    @Test func pageWithoutIdentitiesHasTheCreateForm() async throws {
        try await Harness.run { h in
            let page = try await h.startPage("/google/start", Self.startQuery)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: page.body)
            #expect(html.contains("<title>Sign in with Google (jump-emulator)</title>"))
            #expect(!html.contains("id=\"identity-"))
            #expect(html.contains("name=\"display_name\"") && html.contains("id=\"new-name\""))
            #expect(html.contains("name=\"email\"") && html.contains("id=\"new-email\""))
            #expect(html.contains("id=\"create-identity\""))
            #expect(html.contains("id=\"cancel\" name=\"cancel\" value=\"1\""))
            #expect(html.contains("action=\"/google/callback\""))
            #expect(html.contains("<input type=\"hidden\" name=\"state\" value=\"st-1\">"))
            #expect(html.contains("<input type=\"hidden\" name=\"applicationId\" value=\"jump-default-engage\">"))
            #expect(!html.contains("Re-authentication requested"))
        }
    }

    @Test func pageListsTheProvidersIdentitiesEscaped() async throws {
        try await Harness.run { h in
            let ada = try await h.identity(["provider": "facebook", "display_name": "Ada <b>&\"'", "email": "ada@example.com"])
            _ = try await h.identity(["provider": "google", "display_name": "Not Facebook", "email": "g@example.com"])
            _ = try await h.identity(["provider": "facebook", "display_name": "Other App", "engage_app_id": "jump-default-engage"])
            _ = try await h.admin(.post, "/engage_apps", ["engage_app_id": "app-2"])
            _ = try await h.identity(["provider": "facebook", "display_name": "App Two Only", "engage_app_id": "app-2"])

            let page = try await h.startPage("/facebook/start", Self.startQuery + [("force_reauth", "true"), ("opx_blob", "<x>")])
            let html = String(buffer: page.body)
            #expect(html.contains("Re-authentication requested"))
            #expect(html.contains(
                "id=\"identity-1\" name=\"identity_id\" value=\"\(ada["id"]?.intValue ?? -1)\">Continue as Ada &lt;b&gt;&amp;&quot;&#39; (ada@example.com)</button>"))
            #expect(html.contains("id=\"identity-2\""))
            #expect(html.contains("Other App"))
            #expect(!html.contains("Not Facebook"))
            #expect(!html.contains("App Two Only"))
            #expect(!html.contains("<b>"))
            #expect(html.contains("name=\"opx_blob\" value=\"&lt;x&gt;\""))
            // Every form repeats the start parameters.
            #expect(html.components(separatedBy: "name=\"installation_id\" value=\"inst-1\"").count - 1 == 4)
        }
    }

    @Test func unknownProviderOrAppIs404Html() async throws {
        try await Harness.run { h in
            let unknown = try await h.startPage("/myspace/start", Self.startQuery)
            #expect(unknown.status == .notFound)
            #expect(unknown.headers[.contentType] == "text/html; charset=utf-8")
            let app = try await h.startPage("/facebook/start", [("applicationId", "no-such-app")])
            #expect(app.status == .notFound)
            _ = try await h.admin(.post, "/engage_apps", ["engage_app_id": "small", "providers": ["google"],
                                                          "sharing_providers": []])
            #expect(try await h.startPage("/facebook/start", [("applicationId", "small")]).status == .notFound)
            #expect(try await h.startPage("/google/start", [("applicationId", "small")]).status == .ok)
            // Custom OpenID and SAML providers are not in the server's list but always work.
            #expect(try await h.startPage("/saml2/sso/start", [("applicationId", "small"), ("saml_provider", "corp")]).status == .ok)
            let callback = try await h.postForm("/myspace/callback", [("display_name", "X")])
            #expect(callback.status == .notFound)
        }
    }

    @Test func newIdentityEndsOnSignInDeviceWithState() async throws {
        try await Harness.run { h in
            let location = try await h.providerSignIn("facebook", name: "Ada Lovelace", email: "ada@example.com",
                                                      extra: Self.startQuery)
            #expect(location.hasPrefix(h.engageBase + "/signin/device?token="))
            let query = URLQuery.items(location)
            let token = try #require(query["token"])
            #expect(token.count == 40)
            #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            #expect(query["state"] == nil)  // Engage does not echo the start's state on this ending

            let result = try await h.deviceResult(location + "&auth_info=true")
            #expect(result["stat"] == "ok")
            #expect(result["token"] == .string(token))
            #expect(result["provider"] == "facebook")
            #expect(result["preferred_username"] == "ada")
            #expect(result["device_token"]?.stringValue?.isEmpty == false)
            #expect(result["photo"] == nil)
            let profile = try #require(result["auth_info"]?["profile"])
            #expect(result["auth_info"]?["stat"] == "ok")
            #expect(profile["providerName"] == "Facebook")
            #expect(profile["displayName"] == "Ada Lovelace")
            #expect(profile["email"] == "ada@example.com")
            #expect(profile["verifiedEmail"] == "ada@example.com")
            #expect(profile["name"] == ["givenName": "Ada", "familyName": "Lovelace", "formatted": "Ada Lovelace"])
            let identifier = try #require(profile["identifier"]?.stringValue)
            #expect(identifier.hasPrefix("https://facebook.example/"))

            // The identity is stored: listed by the admin API and offered on the next page.
            let identities = try await h.admin(.get, "/identities?provider=facebook").1["identities"]?.arrayValue ?? []
            #expect(identities.count == 1)
            #expect(identities.first?["identifier"] == .string(identifier))
            #expect(identities.first?["profile"]?["email"] == "ada@example.com")
            let html = String(buffer: try await h.startPage("/facebook/start", Self.startQuery).body)
            #expect(html.contains("Continue as Ada Lovelace (ada@example.com)"))

            // The stored token row is what Capture's auth_native reads.
            let row = try #require(try await h.emulator.store.read { db in try EngageTokenRow.find(token, in: db) })
            #expect(row.engageAppId == "jump-default-engage")
            #expect(row.identifier == identifier)
            #expect(row.provider == "facebook")
            #expect(row.captureState == nil)
            #expect(row.profile["email"] == "ada@example.com")
        }
    }

    @Test func existingIdentitySignsInAsIt() async throws {
        try await Harness.run { h in
            let grace = try await h.identity([
                "provider": "google", "display_name": "Grace Hopper", "email": "grace@example.com", "verified_email": false,
                "identifier": "https://google.example/grace", "given_name": "Grace", "family_name": "Hopper",
            ])
            #expect(grace["profile"]?["verifiedEmail"] == nil)
            let id = try #require(grace["id"]?.intValue)
            let response = try await h.postForm("/google/callback", [("identity_id", String(id))])
            #expect(response.status == .found)
            let location = try #require(response.headers[.location])
            #expect(URLQuery.items(location)["state"] == nil)
            let result = try await h.deviceResult(location)
            #expect(result["auth_info"]?["profile"]?["identifier"] == "https://google.example/grace")
            #expect(result["auth_info"]?["profile"]?["verifiedEmail"] == nil)

            // Another provider's identity, or none at all, shows the page again with an error.
            let wrong = try await h.postForm("/facebook/callback", [("identity_id", String(id))])
            #expect(wrong.status == .badRequest)
            #expect(String(buffer: wrong.body).contains("role=\"alert\""))
            #expect(try await h.postForm("/google/callback", [("identity_id", "999")]).status == .badRequest)
            #expect(try await h.postForm("/google/callback", [("display_name", ""), ("email", "")]).status == .badRequest)
        }
    }

    @Test func cancelEndsWithCanceled() async throws {
        try await Harness.run { h in
            let response = try await h.postForm("/twitter/callback", Self.startQuery + [("cancel", "1")])
            #expect(response.status == .found)
            let location = try #require(response.headers[.location])
            #expect(location == h.engageBase + "/signin/device?error=canceled")
            let result = try await h.deviceResult(location)
            #expect(result == ["stat": "fail", "error": "canceled"])
        }
    }

    @Test func tokenURLCompletion() async throws {
        try await Harness.run { h in
            let tokenURL = "http://127.0.0.1:9/app/done?state=abc"
            let response = try await h.postForm("/facebook/callback", [
                ("token_url", tokenURL), ("display_name", "Tok En"), ("email", "tok@example.com"), ("state", "ignored"),
            ])
            #expect(response.status == .found)
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix(tokenURL + "&token="))
            #expect(URLQuery.items(location)["token"]?.count == 40)

            let plain = try await h.postForm("/facebook/callback", [("token_url", "https://app.example/cb"), ("cancel", "1")])
            #expect(plain.headers[.location] == "https://app.example/cb?error=canceled")
            // The start page checks the token_url too.
            #expect(try await h.startPage("/facebook/start", [("token_url", tokenURL)]).status == .ok)
        }
    }

    @Test func tokenURLMustBeWhitelistedAndWellFormed() async throws {
        try await Harness.run { h in
            _ = try await h.admin(.post, "/engage_apps", [
                "engage_app_id": "listed", "whitelisted_domains": ["https://app.example/"],
            ])
            let good = try await h.startPage("/facebook/start", [("applicationId", "listed"), ("token_url", "https://app.example/x")])
            #expect(good.status == .ok)
            for bad in ["https://evil.example/x", "", "not a url", "javascript:alert(1)"] {
                let page = try await h.startPage("/facebook/start", [("applicationId", "listed"), ("token_url", bad)])
                #expect(page.status == .badRequest, "\(bad)")
                #expect(String(buffer: page.body).contains("Missing and malformed token_url in query"))
                let callback = try await h.postForm("/facebook/callback", [
                    ("applicationId", "listed"), ("token_url", bad), ("display_name", "X"),
                ])
                #expect(callback.status == .badRequest)
            }
            // Without a whitelist any http(s) URL is fine, but malformed ones are not.
            #expect(try await h.startPage("/facebook/start", [("token_url", "https://any.example/")]).status == .ok)
            #expect(try await h.startPage("/facebook/start", [("token_url", "ftp://x.example/")]).status == .badRequest)
        }
    }

    @Test func openIDInputIsChecked() async throws {
        try await Harness.run { h in
            let empty = try await h.startPage("/openid/start", [("state", "s")])
            #expect(empty.status == .found)
            #expect(empty.headers[.location] == h.engageBase + "/signin/device?error=Please%20enter%20your%20OpenID")
            let notURL = try await h.startPage("/openid/start", [("openid_identifier", "ada")])
            #expect(URLQuery.items(notURL.headers[.location] ?? "")["error"] == "Your OpenID must be a URL")
            let viaTokenURL = try await h.startPage("/openid/start", [("openid_identifier", "x"), ("token_url", "http://127.0.0.1:9/cb")])
            #expect(viaTokenURL.headers[.location] == "http://127.0.0.1:9/cb?error=Your%20OpenID%20must%20be%20a%20URL")
            let result = try await h.deviceResult(empty.headers[.location] ?? "")
            #expect(result == ["stat": "fail", "error": "Please enter your OpenID"])

            let page = try await h.startPage("/openid/start", [("openid_identifier", "https://ada.openid.example/")])
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains("Sign in with OpenID (jump-emulator)"))
            #expect(html.contains("action=\"/openid/callback\""))

            // The identity's identifier is the OpenID the user gave; typing it again reuses it.
            for name in ["Ada One", "Ada Two"] {
                let response = try await h.postForm("/openid/callback", [
                    ("openid_identifier", "https://ada.openid.example/"), ("display_name", name), ("email", "ada@example.com"),
                ])
                let profile = try await h.deviceResult(response.headers[.location] ?? "")["auth_info"]?["profile"]
                #expect(profile?["identifier"] == "https://ada.openid.example/")
                #expect(profile?["displayName"] == .string(name))
                #expect(profile?["providerName"] == "OpenID")
            }
            #expect(try await h.admin(.get, "/identities?provider=openid").1["identities"]?.arrayValue?.count == 1)
        }
    }

    @Test func samlIdentities() async throws {
        try await Harness.run { h in
            let page = try await h.startPage("/saml2/sso/start", [("saml_provider", "corp-saml")])
            #expect(String(buffer: page.body).contains("action=\"/saml2/sso/callback\""))
            let response = try await h.postForm("/saml2/sso/callback", [
                ("saml_provider", "corp-saml"), ("display_name", "Sam L"), ("email", "sam@example.com"),
            ])
            let result = try await h.deviceResult(response.headers[.location] ?? "")
            #expect(result["provider"] == "saml")
            let identifier = try #require(result["auth_info"]?["profile"]?["identifier"]?.stringValue)
            #expect(identifier.hasPrefix("saml:corp-saml:"))
        }
    }

    @Test func deviceResultFailures() async throws {
        try await Harness.run { h in
            let failed: JSONValue = ["stat": "fail", "error": "Authentication failed"]
            #expect(try await h.deviceResult("/signin/device?token=unknown") == failed)
            #expect(try await h.deviceResult("/signin/device") == failed)
            #expect(try await h.deviceResult("/signin/device?error=Discovery+failed") == ["stat": "fail", "error": "Discovery failed"])

            let location = try await h.providerSignIn("yahoo", name: "Soon Gone", email: "gone@example.com")
            #expect(try await h.deviceResult(location)["stat"] == "ok")
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 601])
            #expect(try await h.deviceResult(location) == failed)
        }
    }

    @Test func authInfo() async throws {
        try await Harness.run { h in
            let rpx = try await h.browserSignIn("linkedin", name: "Lin Ked", email: "lin@example.com")
            let token = try #require(rpx["token"]?.stringValue)
            let (status, ok) = try await h.post("/api/v2/auth_info", [("apiKey", Harness.engageAPIKey), ("token", token), ("format", "json")])
            #expect(status == .ok)
            #expect(ok["stat"] == "ok")
            #expect(ok["provider"] == "linkedin")
            #expect(ok["profile"] == rpx["auth_info"]?["profile"])
            // Parameters in the query work as well.
            let (_, viaQuery) = try await h.getJSON("/api/v2/auth_info?apiKey=\(Harness.engageAPIKey)&token=\(token)&format=json")
            #expect(viaQuery["stat"] == "ok")

            let badKey = try await h.post("/api/v2/auth_info", [("apiKey", "wrong"), ("token", token)])
            #expect(badKey.0 == .ok)
            #expect(badKey.1 == ["stat": "fail", "err": ["code": 1, "msg": "Invalid parameter: apiKey"]])
            let notFound: JSONValue = ["stat": "fail", "err": ["code": 2, "msg": "Data not found"]]
            #expect(try await h.post("/api/v2/auth_info", [("apiKey", Harness.engageAPIKey), ("token", "nope")]).1 == notFound)
            // Another app's key does not read this app's token.
            _ = try await h.admin(.post, "/engage_apps", ["engage_app_id": "other", "api_key": "other-key"])
            #expect(try await h.post("/api/v2/auth_info", [("apiKey", "other-key"), ("token", token)]).1 == notFound)
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 601])
            #expect(try await h.post("/api/v2/auth_info", [("apiKey", Harness.engageAPIKey), ("token", token)]).1 == notFound)
        }
    }

    @Test func adminIdentities() async throws {
        try await Harness.run { h in
            let first = try await h.identity(["provider": "facebook", "display_name": "First"])
            #expect(first["identifier"] == .string("https://facebook.example/\(first["id"]?.intValue ?? 0)"))
            #expect(first["profile"]?["providerName"] == "Facebook")
            #expect(first["profile"]?["email"] == nil)
            let (status, taken) = try await h.admin(.post, "/identities", [
                "provider": "facebook", "identifier": first["identifier"] ?? .null,
            ])
            #expect(status == .conflict)
            #expect(taken["error"] == "identity_exists")
            #expect(try await h.admin(.post, "/identities", [:]).0 == .badRequest)
            #expect(try await h.admin(.post, "/identities", ["provider": "face book"]).0 == .badRequest)
            #expect(try await h.admin(.post, "/identities", ["provider": "google", "engage_app_id": "nope"]).0 == .notFound)
            _ = try await h.identity(["provider": "google", "email": "g@example.com"])
            #expect(try await h.admin(.get, "/identities").1["identities"]?.arrayValue?.count == 2)
            #expect(try await h.admin(.get, "/identities?provider=google").1["identities"]?.arrayValue?.count == 1)
        }
    }
}
