import Foundation
@testable import JumpCore
@testable import JumpRuntime
import Synchronization
import Testing

/// Passes every request to libcurl and keeps a copy, so tests can read the parameters a form sent.
final class RecordingTransport: Transport {
    private let inner = CurlTransport(connectTimeoutMs: 5_000, requestTimeoutMs: 30_000)
    private let sent = Mutex<[HTTPRequest]>([])

    func send(_ request: HTTPRequest, cancellation: Cancellation?) throws(JumpError) -> HTTPResponse {
        sent.withLock { $0.append(request) }
        return try inner.send(request, cancellation: cancellation)
    }

    /// The form parameters of every request to `path`, oldest first.
    func forms(to path: String) -> [[String: String]] {
        sent.withLock { $0 }.filter { $0.url.hasSuffix(path) }.map { RecordingTransport.decode($0.body) }
    }

    func count(to path: String) -> Int { forms(to: path).count }

    static func decode(_ body: [UInt8]) -> [String: String] {
        var out: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : ""
            out[name] = value
        }
        return out
    }
}

/// The profile and password forms against a real emulator: what goes on the wire, and how the server's
/// answers map to statuses.
@Suite(.serialized) struct FormFlowTests {
    static let password = "correct horse 1"
    let emulator: EmulatorProcess
    let transport = RecordingTransport()

    init() throws { emulator = try EmulatorProcess() }

    func client(_ extra: [String: JSON] = [:]) throws -> JumpClient {
        try JumpClient(config: emulator.config(extra), transport: transport)
    }

    /// A client signed in as a new user (registered through the emulator's admin API).
    func signedIn(_ tag: String, _ extra: [String: JSON] = [:]) throws -> (JumpClient, email: String, uuid: String) {
        let email = EmulatorProcess.uniqueEmail(tag)
        let created = try emulator.admin("POST", "/emulator/users", [
            "email": .string(email), "password": .string(FormFlowTests.password),
            "record": ["givenName": "Ann", "familyName": "Lee", "displayName": "Ann"],
        ])
        let uuid = try #require(created["user"]?["uuid"]?.stringValue)
        let client = try client(extra)
        _ = try client.capture.signIn(user: email, password: FormFlowTests.password)
        return (client, email, uuid)
    }

    func storedUser(_ uuid: String) throws -> JSON {
        try #require(try emulator.admin("GET", "/emulator/users/\(uuid)")["user"])
    }

    // MARK: - update profile

    @Test func updateProfileSendsTheEditFormFilledFromTheRecord() throws {
        let (client, _, uuid) = try signedIn("profile")
        let view = try client.capture.recordView()
        try view.set("/aboutMe", to: "unsynced before")
        try client.capture.updateProfile(attributes: ["displayName": "Ann B", "birthday": "1990-05-07"])

        let form = try #require(transport.forms(to: "/oauth/update_profile_native").last)
        #expect(form["form"] == "editProfileForm")
        #expect(form["client_id"] == "jump-default-client" && form["locale"] == "en-US")
        #expect(form["flow"] == "standard" && form["flow_version"]?.isEmpty == false)
        #expect(form["access_token"]?.isEmpty == false)
        #expect(form["response_type"] == nil && form["redirect_uri"] == nil)
        #expect(form["displayName"] == "Ann B" && form["firstName"] == "Ann" && form["lastName"] == "Lee")
        #expect(form["aboutMe"] == "unsynced before")
        #expect(form["birthdate[dateselect_year]"] == "1990" && form["birthdate[dateselect_month]"] == "05"
                && form["birthdate[dateselect_day]"] == "07")
        // Only form fields go out: no record attribute under its own name.
        #expect(form["email"] == nil && form["givenName"] == nil && form["uuid"] == nil)

        let stored = try storedUser(uuid)
        #expect(stored["displayName"] == "Ann B" && stored["birthday"] == "1990-05-07")
        #expect(stored["aboutMe"] == "unsynced before")
        // The record was fetched again: the form carried the edits, so none is left to sync.
        #expect(transport.count(to: "/entity") >= 1)
        #expect(try view.changes().changed == [])
        #expect(try view.value(at: "/displayName") == "Ann B")
    }

    @Test func updateProfileWithoutAttributesSendsTheRecordAsItIs() throws {
        let (client, _, _) = try signedIn("plain")
        try client.capture.updateProfile()
        let form = try #require(transport.forms(to: "/oauth/update_profile_native").last)
        #expect(form["displayName"] == "Ann" && form["firstName"] == "Ann")
        #expect(form["aboutMe"] == nil)  // null in the record: not sent
    }

    @Test func updateProfileSucceedsWhenTheRefetchFails() throws {
        let (client, _, uuid) = try signedIn("refetch")
        // Three: the read is retried twice (maxRetries) before the failure shows.
        try emulator.admin("POST", "/emulator/faults", ["kind": "http_500", "path": "/entity", "count": 3])
        try client.capture.updateProfile(attributes: ["displayName": "Ann D"])
        #expect(try storedUser(uuid)["displayName"] == "Ann D")
        // The local record shows the edit; pending, it is sent again (harmlessly) by the next sync.
        let view = try client.capture.recordView()
        #expect(try view.value(at: "/displayName") == "Ann D")
        #expect(try view.changes().changed == ["/displayName"])
        try client.capture.fetchRecord()
        #expect(try view.changes().changed == [])
    }

    @Test func updateProfileClearsFieldsSetToNull() throws {
        let (client, _, uuid) = try signedIn("clear")
        try client.capture.updateProfile(attributes: ["aboutMe": "to be cleared", "birthday": "1990-05-07"])
        try client.capture.updateProfile(attributes: ["aboutMe": nil, "birthday": nil])
        let form = try #require(transport.forms(to: "/oauth/update_profile_native").last)
        #expect(form["aboutMe"] == "" && form["birthdate[dateselect_year]"] == "" && form["birthdate[dateselect_day]"] == "")
        #expect(form["displayName"] == "Ann")
        let stored = try storedUser(uuid)
        #expect(stored["aboutMe"] == .null && stored["birthday"] == .null && stored["displayName"] == "Ann")
        #expect(try client.capture.recordView().changes().changed == [])
    }

    @Test func updateProfileValidationKeepsTheLocalRecord() throws {
        let (client, _, uuid) = try signedIn("invalid")
        let long = String(repeating: "x", count: 80)
        let error = #expect(throws: JumpError.self) {
            try client.capture.updateProfile(attributes: ["displayName": .string(long), "birthday": "2999-01-01"])
        }
        #expect(error?.status == .validation)
        #expect(error?.detail["server"]?["code"] == 390)
        #expect(error?.detail["invalid_fields"]?["displayName"]?.arrayValue?.isEmpty == false)
        #expect(error?.detail["invalid_fields"]?["birthdate"]?.arrayValue?.isEmpty == false)
        // Refused values do not linger as edits a later sync would send past the form's rules.
        #expect(try client.capture.recordView().changes().changed == [])
        #expect(try client.capture.recordView().value(at: "/displayName") == "Ann")
        #expect(try storedUser(uuid)["displayName"] == "Ann")
    }

    @Test func updateProfileMessagesFollowTheLocale() throws {
        let long = JSON.string(String(repeating: "x", count: 80))
        func messages(_ locale: String) throws -> JSON? {
            let (client, _, _) = try signedIn("locale", ["captureLocale": .string(locale)])
            let error = #expect(throws: JumpError.self) { try client.capture.updateProfile(attributes: ["displayName": long]) }
            #expect(error?.status == .validation)
            return error?.detail["invalid_fields"]?["displayName"]
        }
        let english = try messages("en-US"), french = try messages("fr-FR")
        #expect(english != nil && french != nil && english != french)
        #expect(transport.forms(to: "/oauth/update_profile_native").last?["locale"] == "fr-FR")
    }

    @Test func updateProfileRefusesBadInputBeforeSending() throws {
        let (client, _, _) = try signedIn("refused")
        let notObject = #expect(throws: JumpError.self) { try client.capture.updateProfile(attributes: ["a", "b"]) }
        #expect(notObject?.status == .invalidArgument)
        let unknown = #expect(throws: JumpError.self) { try client.capture.updateProfile(attributes: ["noSuchAttribute": "x"]) }
        #expect(unknown?.status == .invalidArgument)
        #expect(unknown?.message.contains("noSuchAttribute") == true)
        let reserved = #expect(throws: JumpError.self) { try client.capture.updateProfile(attributes: ["uuid": "x"]) }
        #expect(reserved?.status == .invalidArgument)
        let path = #expect(throws: JumpError.self) { try client.capture.updateProfile(attributes: ["primaryAddress/city": "x"]) }
        #expect(path?.status == .invalidArgument)
        #expect(transport.count(to: "/oauth/update_profile_native") == 0)

        try client.signOut()
        let signedOut = #expect(throws: JumpError.self) { try client.capture.updateProfile(attributes: ["displayName": "x"]) }
        #expect(signedOut?.status == .notSignedIn)
        #expect(transport.count(to: "/oauth/update_profile_native") == 0)
    }

    @Test func attributesOutsideTheFormStayLocalEdits() throws {
        let (client, _, uuid) = try signedIn("outside")
        try client.capture.updateProfile(attributes: ["displayName": "Ann C", "primaryAddress": ["city": "Oslo"]])
        let form = try #require(transport.forms(to: "/oauth/update_profile_native").last)
        #expect(form.keys.contains { $0.lowercased().contains("city") } == false)
        #expect(try storedUser(uuid)["displayName"] == "Ann C")
        #expect(try client.capture.recordView().changes().changed == ["/primaryAddress/city"])
        _ = try client.capture.sync()
        #expect(try storedUser(uuid)["primaryAddress"]?["city"] == "Oslo")
    }

    // MARK: - change password

    @Test func changePasswordFillsThePasswordFieldsByRole() throws {
        let (client, email, _) = try signedIn("password")
        let wrong = #expect(throws: JumpError.self) {
            try client.capture.changePassword(current: "not the password", new: "brand new secret 2")
        }
        #expect(wrong?.status == .validation)
        #expect(wrong?.detail["invalid_fields"]?["currentPassword"]?.arrayValue?.isEmpty == false)
        #expect(wrong?.message.contains("not the password") == false)

        try client.capture.changePassword(current: FormFlowTests.password, new: "brand new secret 2")
        let form = try #require(transport.forms(to: "/oauth/update_profile_native").last)
        #expect(form["form"] == "changePasswordForm")
        #expect(form["currentPassword"] == FormFlowTests.password)
        #expect(form["newPassword"] == "brand new secret 2" && form["newPasswordConfirm"] == "brand new secret 2")
        #expect(form["access_token"]?.isEmpty == false && form["flow"] == "standard")
        #expect(form["response_type"] == nil && form["redirect_uri"] == nil)

        let other = try self.client()
        _ = try other.capture.signIn(user: email, password: "brand new secret 2")
        let old = #expect(throws: JumpError.self) { try other.capture.signIn(user: email, password: FormFlowTests.password) }
        #expect(old?.status == .badCredentials)
    }

    @Test func changePasswordRefusesEmptyPasswordsLocally() throws {
        let (client, _, _) = try signedIn("empty")
        let current = #expect(throws: JumpError.self) { try client.capture.changePassword(current: "", new: "x y z 1234") }
        #expect(current?.status == .invalidArgument && current?.detail["argument"] == "current_password")
        let new = #expect(throws: JumpError.self) { try client.capture.changePassword(current: "x y z 1234", new: "") }
        #expect(new?.status == .invalidArgument && new?.detail["argument"] == "new_password")
        #expect(transport.count(to: "/oauth/update_profile_native") == 0)
    }

    @Test func changePasswordFormNameIsConfigurable() throws {
        let (client, _, _) = try signedIn("formname", ["captureChangePasswordFormName": "noSuchForm"])
        let error = #expect(throws: JumpError.self) { try client.capture.changePassword(current: "a b c d 1", new: "e f g h 2") }
        #expect(error?.status == .notFound && error?.message.contains("noSuchForm") == true)
        #expect(transport.count(to: "/oauth/update_profile_native") == 0)
    }

    // MARK: - forgot password, resend verification

    @Test func forgotPasswordSendsTheEmailInTheUserIDField() throws {
        let (_, email, _) = try signedIn("forgot")
        let client = try self.client()  // signed out: no session needed
        try client.capture.forgotPassword(email: email)
        let form = try #require(transport.forms(to: "/oauth/forgot_password_native").last)
        #expect(form["form"] == "forgotPasswordForm" && form["signInEmailAddress"] == email)
        #expect(form["client_id"] == "jump-default-client" && form["locale"] == "en-US")
        #expect(form["flow"] == "standard" && form["flow_version"]?.isEmpty == false)
        #expect(form["response_type"] == "token" && form["redirect_uri"] == emulator.url)
        #expect(form["access_token"] == nil)
    }

    @Test func forgotPasswordForAnUnknownEmailIsAFormLevelValidationError() throws {
        let client = try self.client()
        let error = #expect(throws: JumpError.self) { try client.capture.forgotPassword(email: EmulatorProcess.uniqueEmail("nobody")) }
        #expect(error?.status == .validation)
        #expect(error?.detail["server"]?["code"] == 212)
        #expect(error?.detail["invalid_fields"]?["forgotPasswordForm"]?.arrayValue?.isEmpty == false)
        let empty = #expect(throws: JumpError.self) { try client.capture.forgotPassword(email: "") }
        #expect(empty?.status == .invalidArgument && empty?.detail["argument"] == "email")
    }

    @Test func resendVerificationSendsTheResendForm() throws {
        let (_, email, _) = try signedIn("verify")
        let client = try self.client()
        try client.capture.resendVerificationEmail(email: email)
        let form = try #require(transport.forms(to: "/oauth/verify_email_native").last)
        #expect(form["form"] == "resendVerificationForm" && form["signInEmailAddress"] == email)
        #expect(form["response_type"] == "token" && form["redirect_uri"] == emulator.url)
        #expect(form["flow"] == "standard" && form["access_token"] == nil)
    }
}

/// How forms are read from a flow, without a server.
@Suite struct FormFlowMappingTests {
    static func flow(_ forms: [String: [String]], _ fields: [String: JSON]) throws -> Flow {
        var entries: [String: JSON] = fields
        for (name, list) in forms { entries[name] = ["fields": .array(list.map(JSON.string))] }
        return try Flow(document: ["version": "1", "fields": .object(entries)])
    }

    static let password: JSON = ["type": "password", "schemaId": "password"]

    @Test func passwordFieldsAreSplitByRole() throws {
        let flow = try Self.flow([
            "sample": ["currentPassword", "newPassword", "newPasswordConfirm"],
            "renamed": ["password", "oldPassword", "passwordConfirm"],
            "anonymous": ["pw1", "pw2", "pw3"],
            "noAuth": ["newPassword", "newPasswordConfirm"],
            "plain": ["password", "newPassword", "newPasswordConfirm"],
            "none": ["email"],
        ], [
            "currentPassword": Self.password, "newPassword": Self.password, "newPasswordConfirm": ["type": "password"],
            "password": Self.password, "oldPassword": Self.password, "passwordConfirm": ["type": "password"],
            "pw1": Self.password, "pw2": Self.password, "pw3": Self.password,
            "email": ["type": "email", "schemaId": "email"],
        ])
        let sample = try FormMapping.passwordFields(form: "sample", flow: flow)
        #expect(sample.current == ["currentPassword"] && sample.new == ["newPassword", "newPasswordConfirm"])
        let renamed = try FormMapping.passwordFields(form: "renamed", flow: flow)
        #expect(renamed.current == ["oldPassword"] && renamed.new == ["password", "passwordConfirm"])
        let anonymous = try FormMapping.passwordFields(form: "anonymous", flow: flow)
        #expect(anonymous.current == ["pw1"] && anonymous.new == ["pw2", "pw3"])
        let noAuth = try FormMapping.passwordFields(form: "noAuth", flow: flow)
        #expect(noAuth.current == [] && noAuth.new == ["newPassword", "newPasswordConfirm"])
        let plain = try FormMapping.passwordFields(form: "plain", flow: flow)
        #expect(plain.current == ["password"] && plain.new == ["newPassword", "newPasswordConfirm"])
        #expect(throws: JumpError.self) { try FormMapping.passwordFields(form: "none", flow: flow) }
        #expect(throws: JumpError.self) { try FormMapping.passwordFields(form: "missing", flow: flow) }
    }

    @Test func userIDFieldIsTheFirstEmailOrTextField() throws {
        let flow = try Self.flow([
            "forgot": ["agree", "signInEmailAddress", "other"],
            "untyped": ["plain"],
            "passwordOnly": ["currentPassword"],
        ], [
            "agree": ["type": "checkbox"], "signInEmailAddress": ["type": "email", "schemaId": "email"],
            "other": ["type": "text"], "plain": ["schemaId": "email"], "currentPassword": Self.password,
        ])
        #expect(try FormMapping.userIDField(form: "forgot", flow: flow) == "signInEmailAddress")
        #expect(try FormMapping.userIDField(form: "untyped", flow: flow) == "plain")
        #expect(throws: JumpError.self) { try FormMapping.userIDField(form: "passwordOnly", flow: flow) }
    }

    @Test func profileFormsIgnoreAttributesTheyDoNotCarry() throws {
        let flow = try Self.flow(["edit": ["displayName", "birthdate", "currentPassword"]], [
            "displayName": ["type": "text", "schemaId": "displayName"],
            "birthdate": ["type": "dateselect", "schemaId": "birthday"],
            "currentPassword": Self.password,
        ])
        let record: JSON = ["displayName": "Ann", "birthday": "1990-05-07", "email": "a@b.c", "aboutMe": "x"]
        #expect(throws: JumpError.self) { try FormMapping.parameters(form: "edit", flow: flow, record: record, password: nil) }
        let p = try FormMapping.parameters(form: "edit", flow: flow, record: record, password: nil, unmapped: .ignore)
        #expect(p.names == ["displayName", "birthdate[dateselect_year]", "birthdate[dateselect_month]", "birthdate[dateselect_day]"])
    }

    @Test func emptiedFieldsAreSentBlank() throws {
        let flow = try Self.flow(["edit": ["displayName", "birthdate", "aboutMe", "message"]], [
            "displayName": ["type": "text", "schemaId": "displayName"],
            "birthdate": ["type": "dateselect", "schemaId": "birthday"],
            "aboutMe": ["type": "textarea", "schemaId": "aboutMe"],
            "message": ["schemaId": ["greeting": "basicString"]],
        ])
        let record: JSON = ["displayName": nil, "birthday": nil, "aboutMe": nil, "basicString": nil]
        let attributes: JSON = ["displayName": nil, "birthday": nil, "basicString": nil, "primaryAddress": ["city": nil]]
        let emptied = FormMapping.nullPaths(of: attributes)
        #expect(emptied == ["displayName", "birthday", "basicString", "primaryAddress.city"])
        let p = try FormMapping.parameters(form: "edit", flow: flow, record: record, password: nil, unmapped: .ignore, emptied: emptied)
        #expect(p.names == ["displayName", "birthdate[dateselect_year]", "birthdate[dateselect_month]", "birthdate[dateselect_day]",
                            "message[greeting]"])
        #expect(p.pairs.allSatisfy { $0.1.isEmpty })
    }

    @Test func formLevelCodesAreValidationErrors() {
        for code: Int64 in [212, 390] {
            let error = CaptureErrors.error(from: ["stat": "error", "code": .int(code), "error": "x",
                                                   "invalid_fields": ["forgotPasswordForm": ["No account"]]],
                                            httpStatus: 200, endpoint: "POST /oauth/forgot_password_native")
            #expect(error.status == .validation)
            #expect(error.detail["invalid_fields"]?["forgotPasswordForm"] == ["No account"])
        }
    }
}
