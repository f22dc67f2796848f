import Glibc
import JumpRuntime

extension Clock {
    /// "yyyy-MM-dd HH:mm:ss" in UTC: the `date` of the refresh signature (docs/protocol.md §10.2).
    public static func signatureDate(_ epochSeconds: Int64) -> String {
        var t = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2)) "
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
    }
}
