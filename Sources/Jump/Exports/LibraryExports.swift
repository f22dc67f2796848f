import CJansson
import Glibc
import JumpCore
import JumpRuntime

// Versions, status strings, error detail, strings, logging.

/// The version as static C strings (the numbers are JumpCore's LibraryVersion).
enum VersionText {
    nonisolated(unsafe) static let text = StaticCString.make(LibraryVersion.text)
}

nonisolated(unsafe) private let statusDescriptions: [Int32: UnsafePointer<CChar>] = {
    var table: [Int32: UnsafePointer<CChar>] = [:]
    for status in JumpStatus.allCases { table[status.rawValue] = StaticCString.make(status.summary) }
    return table
}()

nonisolated(unsafe) private let unknownStatusDescription = StaticCString.make("unknown status code")

@_cdecl("jump_version")
public func jump_version() -> UnsafePointer<CChar>? { VersionText.text }

@_cdecl("jump_version_number")
public func jump_version_number() -> UInt32 {
    (LibraryVersion.major << 16) | (LibraryVersion.minor << 8) | LibraryVersion.patch
}

@_cdecl("jump_abi_version")
public func jump_abi_version() -> Int32 { LibraryVersion.abi }

@_cdecl("jump_status_str")
public func jump_status_str(_ status: Int32) -> UnsafePointer<CChar>? {
    statusDescriptions[status] ?? unknownStatusDescription
}

@_cdecl("jump_error_last")
public func jump_error_last() -> UnsafePointer<CChar>? { LastError.current() }

@_cdecl("jump_error_last_jansson")
public func jump_error_last_jansson(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    // Read before abiCall: a successful call clears the thread's last error.
    let detail = String(cString: LastError.current())
    guard let out else {
        LastError.set(.invalidArgument("out is NULL", argument: "out"))
        return JumpStatus.invalidArgument.rawValue
    }
    out.pointee = nil
    guard let parsed = try? Jansson.parse(detail, what: "the last error"), let value = Jansson.makeValue(parsed) else {
        return JumpStatus.internal.rawValue
    }
    out.pointee = OpaquePointer(value)
    return JumpStatus.ok.rawValue
}

@_cdecl("jump_string_free")
public func jump_string_free(_ string: UnsafeMutablePointer<CChar>?) { free(string) }

private let logTarget = ForkSafety.processWide(Lock<CallbackTarget?>(nil))

@_cdecl("jump_set_log_callback")
public func jump_set_log_callback(_ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?,
                                  _ userdataFree: CFree?) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = callback == nil ? nil : CallbackTarget(callback, userdata, userdataFree)
        if callback == nil { userdataFree?(userdata) }
        let previous = logTarget.withLock { current -> CallbackTarget? in
            defer { current = target }
            return current
        }
        _ = previous
        if let target {
            Log.setSink { level, message in
                let line: JSON = ["version": 1, "kind": "log", "level": .string(level.rawValue), "message": .string(message)]
                let text = Jansson.serialize(line)
                Fiber.onThreadStack { target.invoke(text) }
            }
        } else {
            Log.setSink(nil)
        }
    }
}
