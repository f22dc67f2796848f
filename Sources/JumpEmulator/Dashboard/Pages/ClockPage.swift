import Foundation

/// `/emulator/ui/clock`: `GET /emulator/clock` for people, and the form that posts to
/// `POST /emulator/ui/clock` (see `DashboardActions.moveClock`).
struct ClockPage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .clock)
        let now: String
        let nowText: String
        let offset: String
        let realNow: String
        let units = AdvanceUnit.allCases.map { DashboardChoice(value: $0.rawValue, label: $0.label, selected: $0 == .hours) }
        let presets = [
            Preset(id: "minute", label: "+1 minute", amount: "1", unit: AdvanceUnit.minutes.rawValue),
            Preset(id: "hour", label: "+1 hour", amount: "1", unit: AdvanceUnit.hours.rawValue),
            Preset(id: "day", label: "+1 day", amount: "1", unit: AdvanceUnit.days.rawValue),
            Preset(id: "month", label: "+30 days", amount: "30", unit: AdvanceUnit.days.rawValue),
        ]
        let hasError: Bool
        let error: String
    }

    struct Preset: Sendable {
        let id: String
        let label: String
        let amount: String
        let unit: String
    }

    /// The units of the advance form.
    enum AdvanceUnit: String, CaseIterable, Sendable {
        case seconds, minutes, hours, days

        var label: String { rawValue }

        var seconds: Double {
            switch self {
            case .seconds: 1
            case .minutes: 60
            case .hours: 3600
            case .days: 86_400
            }
        }
    }

    func model(error: String? = nil) -> Model {
        let now = emulator.clock.now()
        return Model(
            now: DashboardText.time(now.timeIntervalSince1970), nowText: CaptureTime.dateTime(now),
            offset: DashboardText.offset(emulator.clock.offsetSeconds), realNow: DashboardText.time(Date().timeIntervalSince1970),
            hasError: error != nil, error: error ?? "")
    }
}
