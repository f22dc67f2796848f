import Foundation

/// The emulator's clock: real time plus an offset that tests move through the admin API, so token
/// expiry can be tested without sleeping. Token expiry, `created` and `lastUpdated` use it; the
/// refresh `date` check does not (clients sign with their real clock).
final class EmulatorClock: Sendable {
    private let offset = Locked<Double>(0)

    func now() -> Date {
        Date().addingTimeInterval(offsetSeconds)
    }

    var offsetSeconds: Double {
        offset.current
    }

    func setOffset(_ seconds: Double) {
        offset.withLock { $0 = seconds }
    }
}
