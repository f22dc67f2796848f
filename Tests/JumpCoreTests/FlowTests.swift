import Testing
@testable import JumpCore

@Suite struct FlowTests {
    let flow: Flow

    init() throws {
        flow = try Flow(document: [
            "version": "42",
            "fields": [
                "signInForm": ["fields": ["signInEmailAddress", "currentPassword"]],
                "registrationForm": ["fields": ["emailAddress", "newPassword", "newPasswordConfirm", "birthdate", "city", "message"]],
                "signInEmailAddress": ["type": "email", "schemaId": "email"],
                "currentPassword": ["type": "password", "schemaId": "password"],
                "emailAddress": ["type": "email", "schemaId": "email"],
                "newPassword": ["type": "password", "schemaId": "password"],
                "newPasswordConfirm": ["type": "password"],
                "birthdate": ["type": "dateselect", "schemaId": "birthday"],
                "city": ["type": "text", "schemaId": "primaryAddress.city"],
                "message": ["schemaId": ["greeting": "basicString", "number": "basicInteger"]],
            ],
        ])
    }

    @Test func mapsRecordToRegistrationForm() throws {
        let p = try FormMapping.parameters(
            form: "registrationForm", flow: flow,
            record: ["email": "a@b.c", "birthday": "1990-5-7", "primaryAddress": ["city": "Oslo"], "basicString": "hi", "basicInteger": 30],
            password: "secret")
        #expect(p["emailAddress"] == "a@b.c")
        #expect(p["newPassword"] == "secret" && p["newPasswordConfirm"] == "secret")
        #expect(p["birthdate[dateselect_year]"] == "1990" && p["birthdate[dateselect_month]"] == "05" && p["birthdate[dateselect_day]"] == "07")
        #expect(p["city"] == "Oslo")
        #expect(p["message[greeting]"] == "hi" && p["message[number]"] == "30")
    }

    @Test func unknownAttributeIsNamed() {
        let error = #expect(throws: JumpError.self) {
            try FormMapping.parameters(form: "registrationForm", flow: flow, record: ["emial": "x"], password: "p")
        }
        #expect(error?.message.contains("emial") == true)
    }

    @Test func badDateIsRefused() {
        #expect(throws: JumpError.self) {
            try FormMapping.parameters(form: "registrationForm", flow: flow, record: ["birthday": "May 7"], password: "p")
        }
    }

    @Test func credentialsUseTheFormFieldsOrFallBack() {
        let p = FormMapping.credentials(form: "signInForm", flow: flow, user: "u", password: "pw")
        #expect(p.names == ["signInEmailAddress", "currentPassword"])
        let fallback = FormMapping.credentials(form: "missing", flow: flow, user: "u", password: "pw")
        #expect(fallback.names == ["user", "password"])
    }

    @Test func flowVersionMustBeAString() {
        #expect(throws: JumpError.self) { try Flow(document: ["version": 1, "fields": [:]]) }
        #expect(throws: JumpError.self) { try Flow(document: ["version": "1"]) }
    }
}
