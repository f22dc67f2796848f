import Glibc
import JumpRuntime

/// What tells this process apart from every other one that may share a storage directory.
struct ProcessIdentity: Sendable {
    let pid: Int32
    /// Clock ticks after boot at which the process started (/proc/<pid>/stat, field 22): a reused pid has
    /// another.
    let startTime: String
    /// The pid namespace (/proc/self/ns/pid): pids of another namespace mean nothing here.
    let pidNamespace: String
    /// This boot of this machine (/proc/sys/kernel/random/boot_id).
    let bootID: String

    private static let cached = ForkSafety.processWide(Lock<ProcessIdentity?>(nil))

    /// Read once per process (a forked child reads its own).
    static func current() -> ProcessIdentity {
        let pid = getpid()
        if let known = cached.withLock({ $0 }), known.pid == pid { return known }
        let identity = ProcessIdentity(pid: pid, startTime: startTime(of: pid) ?? "0",
                                       pidNamespace: namespace() ?? "-", bootID: bootID() ?? "-")
        cached.withLock { $0 = identity }
        return identity
    }

    /// Field 22 of /proc/<pid>/stat; nil when the process is gone or /proc is not there.
    static func startTime(of pid: Int32) -> String? {
        guard let stat = SmallFile.read("/proc/\(pid)/stat", limit: 4096) else { return nil }
        // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19 else { return nil }
        return String(decoding: fields[19], as: UTF8.self)  // field 22 is the 20th after the name
    }

    private static func namespace() -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/self/ns/pid", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(text.filter { $0.isNumber })
    }

    private static func bootID() -> String? {
        guard let bytes = SmallFile.read("/proc/sys/kernel/random/boot_id", limit: 64) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).filter { $0.isHexDigit }
        return text.isEmpty ? nil : text
    }
}
