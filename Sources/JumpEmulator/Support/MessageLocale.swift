/// The languages the emulator speaks. A request's `locale` picks one; anything unknown falls back to
/// en-US, as Capture falls back to the app's default locale.
enum MessageLocale: String, Sendable, CaseIterable {
    case enUS = "en-US"
    case frFR = "fr-FR"

    /// Accepts `fr-FR`, `fr_FR`, `fr`, in any case.
    init(parameter: String?) {
        let normalized = (parameter ?? "").replacingOccurrences(of: "_", with: "-").lowercased()
        if normalized == "fr" || normalized.hasPrefix("fr-") {
            self = .frFR
        } else {
            self = .enUS
        }
    }
}
