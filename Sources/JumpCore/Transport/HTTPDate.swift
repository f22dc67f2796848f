import Glibc

/// HTTP dates (RFC 9110 §5.6.7), as `Date` and `Retry-After` carry them: the IMF-fixdate every server sends
/// ("Sun, 06 Nov 1994 08:49:37 GMT"), and the two obsolete forms a recipient must still read
/// ("Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"). Without Foundation: fields, then timegm.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Epoch seconds, or nil when `text` is none of the three forms.
    static func parse(_ text: String) -> Int64? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        var day: Int?, month: Int?, year: Int?, clock: [Int]?
        for word in words {
            if word.contains(":") {
                let parts = word.split(separator: ":").map { Int($0) }
                guard parts.count == 3, parts.allSatisfy({ $0 != nil }) else { return nil }
                clock = parts.compactMap { $0 }
            } else if word.contains("-") {  // RFC 850: 06-Nov-94
                let parts = word.split(separator: "-").map(String.init)
                guard parts.count == 3, let d = Int(parts[0]), let m = monthIndex(parts[1]), let y = Int(parts[2]) else { return nil }
                (day, month, year) = (d, m, y < 100 ? (y < 70 ? 2000 + y : 1900 + y) : y)
            } else if let m = monthIndex(word) {
                month = m
            } else if let number = Int(word) {
                if number > 31 || word.count == 4 { year = number } else { day = number }
            }
        }
        guard let day, let month, let year, let clock, (1...31).contains(day), (1970...9999).contains(year),
              (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        let seconds = timegm(&parts)
        return seconds == -1 ? nil : Int64(seconds)
    }

    private static func monthIndex(_ word: String) -> Int? {
        guard word.count == 3 else { return nil }
        return months.firstIndex(of: word.lowercased())
    }
}
