/// What the dashboard's forms do, through the admin API's own code (`AdminControl`): form fields become
/// the JSON members the admin API takes, so both check the same things.
struct DashboardActions: Sendable {
    let emulator: Emulator

    private var control: AdminControl { AdminControl(emulator: emulator) }

    /// `amount` and `unit` (seconds, minutes, hours, days) move the clock; `reset` puts it back to real time.
    func moveClock(_ form: FormParams) async throws {
        if form.nonEmpty("reset") != nil {
            _ = try await control.updateClock(Self.adminRequest(["offset_seconds": .int(0)]))
            return
        }
        let text = form.nonEmpty("amount")?.trimmingCharacters(in: .whitespaces) ?? ""
        guard let amount = Double(text), amount.isFinite else {
            throw AdminError.badRequest("the amount must be a number, e.g. 1 or -2.5")
        }
        let unitName = form.nonEmpty("unit") ?? ClockPage.AdvanceUnit.seconds.rawValue
        guard let unit = ClockPage.AdvanceUnit(rawValue: unitName) else {
            throw AdminError.badRequest("the unit must be seconds, minutes, hours or days")
        }
        _ = try await control.updateClock(Self.adminRequest(["advance_seconds": .double(amount * unit.seconds)]))
    }

    /// `kind`, `count`, `path`, `delay_ms` and `code` as `POST /emulator/faults` takes them; empty fields are
    /// left out (the admin API's defaults apply).
    func armFault(_ form: FormParams) throws {
        var body: [String: JSONValue] = [:]
        if let kind = form.nonEmpty("kind") { body["kind"] = .string(kind) }
        if let path = form.nonEmpty("path") { body["path"] = .string(path.trimmingCharacters(in: .whitespaces)) }
        for name in ["count", "delay_ms", "code"] {
            guard let text = form.nonEmpty(name)?.trimmingCharacters(in: .whitespaces) else { continue }
            guard let number = Int64(text) else { throw AdminError.badRequest("\(name) must be a whole number") }
            body[name] = .int(number)
        }
        if body["kind"]?.stringValue != Fault.Kind.captureError.rawValue { body["code"] = nil }
        _ = try control.addFault(Self.adminRequest(body))
    }

    func clearFaults() {
        _ = control.clearFaults()
    }

    func clearCounters() {
        _ = control.clearCounters()
    }

    static func adminRequest(_ body: [String: JSONValue]) -> AdminRequest {
        AdminRequest(body: body, query: .empty)
    }
}
