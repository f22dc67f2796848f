import Foundation
import GRDB

/// A submitted registration form (register_native_traditional, register_native): validated by the flow's
/// rules and built into record attributes, with the schema's uniqueness constraints checked before the
/// write and again inside it (another registration may win meanwhile). Every failure comes back at once
/// as 390 with `invalid_fields`.
struct RegistrationForm: Sendable {
    let built: FormRecordBuilder.Built
    private let uniqueValues: [RecordConstraints.UniqueValue]
    private let fields: [FlowField]
    private let locale: MessageLocale
    private let schema: Schema
    private let clientId: String

    static func validate(_ params: FormParams, fields: [FlowField], app: AppConfig, locale: MessageLocale, now: Date,
                         store: Store) async throws -> RegistrationForm {
        var validation = FormValidator(fields: fields, locale: locale, today: CaptureTime.day(of: now)).validate(params)
        let built = FormRecordBuilder(schema: app.schema, locale: locale).build(fields: fields, validation: &validation)
        let form = RegistrationForm(built: built, uniqueValues: RecordConstraints.uniqueValues(built.attributes, schema: app.schema),
                                    fields: fields, locale: locale, schema: app.schema, clientId: app.clientId)
        let conflicts = try await store.read { db in try form.conflicts(in: db) }
        for path in conflicts { form.report(path, into: &validation) }
        guard validation.errors.isEmpty else { throw CaptureError.formValidation(validation.errors) }
        return form
    }

    /// Inside the write transaction: values taken since the validation are 390 too.
    func checkStillUnique(in db: Database) throws {
        let late = try conflicts(in: db)
        guard !late.isEmpty else { return }
        var validation = FormValidation()
        for path in late { report(path, into: &validation) }
        throw CaptureError.formValidation(validation.errors)
    }

    private func conflicts(in db: Database) throws -> [String] {
        try UniquenessCheck.conflicts(uniqueValues, clientId: clientId, excludingUserId: nil, schema: schema, in: db)
    }

    private func report(_ path: String, into validation: inout FormValidation) {
        Self.reportConflict(path, built: built, fields: fields, locale: locale, into: &validation)
    }

    /// Puts "already in use" on the form field that wrote the attribute, with the field's `unique`
    /// rule message when the flow has one.
    static func reportConflict(
        _ path: String, built: FormRecordBuilder.Built, fields: [FlowField], locale: MessageLocale,
        into validation: inout FormValidation
    ) {
        let fieldName = built.fieldForPath[path] ?? path
        let field = fields.first { $0.name == fieldName }
        let fallback: Message
        switch path {
        case "/email": fallback = .emailInUse
        case "/username": fallback = .usernameInUse
        default: fallback = .valueInUse
        }
        validation.fail(fieldName, field?.rule("unique")?.message ?? fallback.text(locale))
    }
}
