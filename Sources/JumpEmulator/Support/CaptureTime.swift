import Foundation

/// Capture's date and time text formats.
///
/// - `dateTime` attributes (created, lastUpdated, ...) are written `yyyy-MM-dd HH:mm:ss.SSSSSS +0000` (UTC);
/// - `date` attributes are `yyyy-MM-dd`;
/// - the refresh signature's `date` parameter is `yyyy-MM-dd HH:mm:ss` (UTC).
enum CaptureTime {
    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    /// Formats a Capture `dateTime`, with microseconds.
    static func dateTime(_ date: Date) -> String {
        // The admin API bounds the clock offset, so this is always a finite instant.
        let seconds = date.timeIntervalSince1970.isFinite ? date.timeIntervalSince1970 : 0
        var whole = seconds.rounded(.down)
        var micros = Int(((seconds - whole) * 1_000_000).rounded())
        if micros >= 1_000_000 {
            whole += 1
            micros -= 1_000_000
        }
        let parts = utcCalendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        return "\(stamp(parts)).\(pad(micros, 6)) +0000"
    }

    /// Formats `yyyy-MM-dd HH:mm:ss` in UTC, the refresh-signature date.
    static func signatureDate(_ date: Date) -> String {
        stamp(utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date))
    }

    /// `yyyy-MM-dd HH:mm:ss`.
    private static func stamp(_ parts: DateComponents) -> String {
        "\(pad(parts.year ?? 0, 4))-\(pad(parts.month ?? 0, 2))-\(pad(parts.day ?? 0, 2)) "
            + "\(pad(parts.hour ?? 0, 2)):\(pad(parts.minute ?? 0, 2)):\(pad(parts.second ?? 0, 2))"
    }

    /// Zero-padded decimal (no format strings: their `%d` does not match Swift's 64-bit `Int`).
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// Today's date in UTC as `yyyy-MM-dd` components.
    static func day(of date: Date) -> CalendarDay {
        let parts = utcCalendar.dateComponents([.year, .month, .day], from: date)
        return CalendarDay(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
    }

    /// Parses the refresh `date` parameter strictly; nil when malformed.
    static func parseSignatureDate(_ text: String) -> Date? {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/) else { return nil }
        return makeDate(
            year: Int(match.1), month: Int(match.2), day: Int(match.3),
            hour: Int(match.4), minute: Int(match.5), second: Int(match.6), fraction: 0, offsetSeconds: 0)
    }

    /// Parses a `dateTime` value as clients write it: Capture's own format, ISO 8601 with `T`,
    /// with or without fraction and zone (UTC assumed). Nil when not a real instant.
    static func parseDateTime(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let pattern = /(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)? ?(Z|UTC|GMT|[+-]\d{2}:?\d{2})?/
        guard let match = trimmed.wholeMatch(of: pattern) else { return nil }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        guard let offset = zoneOffset(match.8.map(String.init)) else { return nil }
        return makeDate(
            year: Int(match.1), month: Int(match.2), day: Int(match.3), hour: Int(match.4),
            minute: Int(match.5), second: match.6.flatMap { Int($0) } ?? 0, fraction: fraction,
            offsetSeconds: offset)
    }

    /// Parses a Capture `date` (`yyyy-MM-dd`); nil when not a real calendar day.
    static func parseDate(_ text: String) -> CalendarDay? {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{1,2})-(\d{1,2})/),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3)
        else { return nil }
        let candidate = CalendarDay(year: year, month: month, day: day)
        return candidate.isValid ? candidate : nil
    }

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return false }
        let parts = DateComponents(year: year, month: month, day: day, hour: 12)
        guard let date = utcCalendar.date(from: parts) else { return false }
        // The calendar rolls 31 April over to 1 May; a real day survives the round trip.
        let back = utcCalendar.dateComponents([.year, .month, .day], from: date)
        return back.year == year && back.month == month && back.day == day
    }

    private static func zoneOffset(_ zone: String?) -> Int? {
        guard let zone, zone != "Z", zone != "UTC", zone != "GMT" else { return 0 }
        let digits = zone.dropFirst().filter(\.isNumber)
        guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)),
            hours <= 23, minutes <= 59
        else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return zone.hasPrefix("-") ? -seconds : seconds
    }

    private static func makeDate(
        year: Int?, month: Int?, day: Int?, hour: Int?, minute: Int?, second: Int?, fraction: Double,
        offsetSeconds: Int
    ) -> Date? {
        guard let year, let month, let day, let hour, let minute, let second,
            isValid(year: year, month: month, day: day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = utcCalendar.date(from: parts) else { return nil }
        return date.addingTimeInterval(fraction - Double(offsetSeconds))
    }
}

/// A calendar day, as held by `date` attributes and the `dateselect` form fields.
struct CalendarDay: Sendable, Equatable, Comparable {
    var year: Int
    var month: Int
    var day: Int

    var isValid: Bool { CaptureTime.isValid(year: year, month: month, day: day) }

    var text: String { "\(CaptureTime.pad(year, 4))-\(CaptureTime.pad(month, 2))-\(CaptureTime.pad(day, 2))" }

    static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
