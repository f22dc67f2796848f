import Foundation

/// A submitted form value.
enum FormValue: Sendable, Equatable {
    case text(String)
    /// A `dateselect` field, sent as `field[dateselect_year|month|day]`.
    case day(CalendarDay)
    /// A field whose `schemaId` is an object, sent as `field[subscript]`.
    case subscripts([String: String])
}

/// What a form submission holds once checked: the values given, and the messages of each
/// invalid field (every failing field is reported together, as Capture does).
struct FormValidation: Sendable {
    var values: [String: FormValue] = [:]
    var errors: [String: [String]] = [:]

    mutating func fail(_ field: String, _ message: String) {
        if !(errors[field] ?? []).contains(message) {
            errors[field, default: []].append(message)
        }
    }
}

/// Runs a flow form's validation rules (`required`, `format: email`, `minLength`, `maxLength`,
/// `match`, `pattern`, `date: past`) on the submitted parameters, with the rules' own messages,
/// which are in the flow's locale. `unique` is checked later against the database.
struct FormValidator: Sendable {
    let fields: [FlowField]
    let locale: MessageLocale
    /// Today on the emulator clock, for "a date in the past".
    let today: CalendarDay

    func validate(_ params: FormParams) -> FormValidation {
        var result = FormValidation()
        for field in fields {
            check(field, params: params, into: &result)
        }
        return result
    }

    private func check(_ field: FlowField, params: FormParams, into result: inout FormValidation) {
        let read = readValue(field, params: params)
        if case .invalidDate = read {
            result.fail(field.name, field.rule("date")?.message ?? Message.invalidDate.text(locale))
            return
        }
        guard case .value(let value) = read else {
            if field.isRequired {
                result.fail(field.name, field.rule("required")?.message ?? Message.required.text(locale))
            }
            return
        }
        result.values[field.name] = value
        for rule in field.rules where !passes(rule, value: value, params: params) {
            result.fail(field.name, rule.message ?? Message.invalidValue.text(locale))
        }
    }

    private enum Read {
        case absent
        case invalidDate
        case value(FormValue)
    }

    private func readValue(_ field: FlowField, params: FormParams) -> Read {
        if field.type == "dateselect" {
            return readDate(field.name, params: params)
        }
        if case .subscripts(let map) = field.schemaId {
            var given: [String: String] = [:]
            for subscriptName in map.keys {
                if let value = params.nonEmpty("\(field.name)[\(subscriptName)]") { given[subscriptName] = value }
            }
            return given.isEmpty ? .absent : .value(.subscripts(given))
        }
        guard let text = params.nonEmpty(field.name) else { return .absent }
        return .value(.text(text))
    }

    /// `field[dateselect_year|month|day]`, or a plain `field=yyyy-MM-dd`.
    private func readDate(_ name: String, params: FormParams) -> Read {
        let parts = ["year", "month", "day"].map { params.nonEmpty("\(name)[dateselect_\($0)]") }
        if parts.allSatisfy({ $0 == nil }) {
            guard let text = params.nonEmpty(name) else { return .absent }
            guard let day = CaptureTime.parseDate(text.trimmingCharacters(in: .whitespaces)) else { return .invalidDate }
            return .value(.day(day))
        }
        let numbers = parts.map { $0.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        guard let year = numbers[0], let month = numbers[1], let day = numbers[2] else { return .invalidDate }
        let candidate = CalendarDay(year: year, month: month, day: day)
        return candidate.isValid ? .value(.day(candidate)) : .invalidDate
    }

    private func passes(_ rule: FlowField.Rule, value: FormValue, params: FormParams) -> Bool {
        switch (rule.rule, value) {
        case ("format", .text(let text)):
            return rule.value?.stringValue != "email" || Self.looksLikeEmail(text)
        case ("minLength", .text(let text)):
            return rule.value?.intValue.map { text.count >= $0 } ?? true
        case ("maxLength", .text(let text)):
            return rule.value?.intValue.map { text.count <= $0 } ?? true
        case ("match", .text(let text)):
            guard let other = rule.value?.stringValue else { return true }
            return params[other] == text
        case ("pattern", .text(let text)):
            return rule.value?.stringValue.map { Self.matches(text, pattern: $0) } ?? true
        case ("date", .day(let day)):
            return rule.value?.stringValue != "past" || day < today
        default:
            // `required` was handled already, `unique` needs the database, unknown rules are not ours.
            return true
        }
    }

    /// One `@`, something before it, a dotted domain after it, no spaces.
    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
    }

    /// Flow patterns are ECMAScript-like; ICU's syntax (NSRegularExpression) covers what flows use.
    /// A pattern that does not compile is ignored rather than failing every submission.
    static func matches(_ text: String, pattern: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return true }
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, range: range) != nil
    }
}
