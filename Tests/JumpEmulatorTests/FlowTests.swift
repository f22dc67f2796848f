import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

@Suite("Flow files")
struct FlowTests {
    static let base = "/widget_data/flows/default-app/standard"

    @Test func servesTheDefaultFlowInEnglish() async throws {
        try await Harness.run { h in
            let response = try await h.request(.get, "\(Self.base)/20261121000000000001/en-US.json")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let flow = try #require(JSONValue.parse(String(buffer: response.body)))
            #expect(flow["version"] == "20261121000000000001")
            #expect(flow["locale"] == "en-US")
            #expect(flow["schema_info"]?["paths"]?["email"] == "email")
            #expect(flow["schema_info"]?["paths"]?["password"] == "password")
            let fields = try #require(flow["fields"])
            #expect(fields["signInForm"]?["fields"] == ["signInEmailAddress", "currentPassword"])
            #expect(fields["signInUsernameForm"]?["fields"] == ["signInUsername", "currentPassword"])
            #expect(fields["registrationForm"]?["fields"]?.arrayValue?.count == 9)
            #expect(fields["forgotPasswordForm"]?["fields"] == ["signInEmailAddress"])
            #expect(fields["changePasswordForm"]?["fields"] == ["currentPassword", "newPassword", "newPasswordConfirm"])
            #expect(fields["currentPassword"]?["type"] == "password")
            #expect(fields["birthdate"]?["type"] == "dateselect")
            #expect(fields["birthdate"]?["schemaId"] == "birthday")
            #expect(fields["newPasswordConfirm"]?["schemaId"] == "password")
            #expect(fields["firstName"]?["schemaId"] == "givenName")
            #expect(fields["emailAddress"]?["label"] == "Email address")
            let rules = fields["newPassword"]?["validation"]?.arrayValue ?? []
            let minLength = rules.first { $0["rule"] == "minLength" }
            #expect(minLength?["value"] == 8)
        }
    }

    @Test func servesFrenchTextsForFrFRAndHEAD() async throws {
        try await Harness.run { h in
            let response = try await h.request(.get, "\(Self.base)/HEAD/fr-FR.json")
            #expect(response.status == .ok)
            let flow = try #require(JSONValue.parse(String(buffer: response.body)))
            #expect(flow["locale"] == "fr-FR")
            #expect(flow["version"] == "20261121000000000001")
            #expect(flow["fields"]?["emailAddress"]?["label"] == "Adresse e-mail")
            #expect(flow["fields"]?["firstName"]?["label"] == "Prénom")
        }
    }

    @Test(arguments: [
        "/widget_data/flows/no-such-app/standard/HEAD/en-US.json",
        "/widget_data/flows/default-app/other/HEAD/en-US.json",
        "/widget_data/flows/default-app/standard/19990101/en-US.json",
        "/widget_data/flows/default-app/standard/HEAD/de-DE.json",
        "/widget_data/flows/default-app/standard/HEAD/en-US.xml",
    ])
    func answersUnknownFlowsWithJSON404(path: String) async throws {
        try await Harness.run { h in
            let response = try await h.request(.get, path)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/json")
            let body = try #require(JSONValue.parse(String(buffer: response.body)))
            #expect(body["stat"] == "error")
            #expect(body["code"] == 404)
            #expect(body["error"] == "not_found")
            #expect(body["error_description"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func unknownPathsGetAJSONError() async throws {
        try await Harness.run { h in
            let response = try await h.request(.post, "/oauth/no_such_endpoint", body: "a=1")
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/json")
            #expect(JSONValue.parse(String(buffer: response.body))?["error"] == "not_found")
        }
    }

    @Test func readyProbe() async throws {
        try await Harness.run { h in
            let response = try await h.request(.get, "/")
            #expect(response.status == .ok)
            #expect(JSONValue.parse(String(buffer: response.body)) == ["jumpEmulator": ["ready": true, "version": "0.1.0"]])
        }
    }

    @Test func servesTheSchemaAsEntityType() async throws {
        try await Harness.run { h in
            let answer = try await h.capture("/entityType", [("type_name", "user"), ("client_id", Harness.clientId),
                                                         ("client_secret", Harness.defaultSecret)])
            #expect(answer["stat"] == "ok")
            let schema = try #require(answer["schema"])
            #expect(schema["name"] == "user")
            let defs = schema["attr_defs"]?.arrayValue ?? []
            let email = defs.first { $0["name"] == "email" }
            #expect(email?["type"] == "string")
            #expect(email?["constraints"] == ["unique"])
            let address = defs.first { $0["name"] == "primaryAddress" }
            #expect(address?["type"] == "object")
            let profiles = defs.first { $0["name"] == "profiles" }
            #expect(profiles?["type"] == "plural")
            let identifier = profiles?["attr_defs"]?.arrayValue?.first { $0["name"] == "identifier" }
            #expect(identifier?["constraints"] == ["unique", "required"])

            // As Capture: no credentials, or a client id without its secret, is refused.
            let bare = try await h.capture("/entityType", [("type_name", "user")])
            #expect(bare["stat"] == "error" && bare["code"] == 100)
            let idOnly = try await h.capture("/entityType", [("type_name", "user"), ("client_id", Harness.clientId)])
            #expect(idOnly["stat"] == "error" && idOnly["code"] == 100)
            let wrongSecret = try await h.capture("/entityType", [("type_name", "user"), ("client_id", Harness.clientId),
                                                                  ("client_secret", "not it")])
            #expect(wrongSecret["stat"] == "error" && wrongSecret["code"] == 402)

            let unknown = try await h.capture("/entityType", [("type_name", "pet"), ("client_id", Harness.clientId),
                                                          ("client_secret", Harness.defaultSecret)])
            #expect(unknown["code"] == 222)
            #expect(unknown["type_name"] == "pet")
        }
    }
}
