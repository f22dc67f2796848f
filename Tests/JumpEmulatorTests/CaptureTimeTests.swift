import Foundation
import Testing

@testable import JumpEmulator

@Suite("Capture time formats")
struct CaptureTimeTests {
    @Test func formatsDateTimeWithMicroseconds() {
        let date = Date(timeIntervalSince1970: 1_763_700_000.25)
        #expect(CaptureTime.dateTime(date) == "2025-11-21 04:40:00.250000 +0000")
    }

    @Test func parsesTheFormatsClientsWrite() throws {
        let expected = Date(timeIntervalSince1970: 1_763_700_000)
        for text in [
            "2025-11-21 04:40:00.000000 +0000", "2025-11-21T04:40:00Z", "2025-11-21 04:40:00",
            "2025-11-21T06:40:00+02:00", "2025-11-21 04:40",
        ] {
            let parsed = try #require(CaptureTime.parseDateTime(text), "\(text)")
            #expect(abs(parsed.timeIntervalSince(expected)) < 0.001, "\(text)")
        }
        #expect(CaptureTime.parseDateTime("2025-02-30 10:00:00") == nil)
        #expect(CaptureTime.parseDateTime("yesterday") == nil)
    }

    @Test func validatesCalendarDays() {
        #expect(CaptureTime.parseDate("2024-02-29")?.text == "2024-02-29")
        #expect(CaptureTime.parseDate("2023-02-29") == nil)
        #expect(CaptureTime.parseDate("1990-13-01") == nil)
        #expect(CaptureTime.parseDate("1990-1-5")?.text == "1990-01-05")
    }

    @Test func parsesTheRefreshDateStrictly() {
        #expect(CaptureTime.parseSignatureDate("2025-11-21 04:40:00") == Date(timeIntervalSince1970: 1_763_700_000))
        #expect(CaptureTime.parseSignatureDate("2025-11-21T04:40:00") == nil)
        #expect(CaptureTime.parseSignatureDate("2025-11-21 25:40:00") == nil)
    }
}
