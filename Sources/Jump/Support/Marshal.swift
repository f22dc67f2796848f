import CJansson
import Glibc
import JumpCore

/// Runs an exported function's body: a thrown JumpError becomes its status code plus the thread's last
/// error; success clears the last error. No Swift error or trap is allowed to reach the C caller.
@inline(__always)
func abiCall(_ body: () throws(ABIError) -> Void) -> Int32 {
    do {
        try body()
        LastError.clear()
        return JumpStatus.ok.rawValue
    } catch {
        LastError.set(error)
        return error.status.rawValue
    }
}

enum Marshal {
    /// A required UTF-8 string argument.
    static func string(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(ABIError) -> String {
        guard let pointer else { throw .invalidArgument("\(name) is NULL", argument: name) }
        guard let s = String(validatingCString: pointer) else {
            throw .invalidArgument("\(name) is not valid UTF-8", argument: name)
        }
        return s
    }

    /// An optional UTF-8 string argument (NULL -> nil).
    static func optionalString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(ABIError) -> String? {
        guard pointer != nil else { return nil }
        return try string(pointer, name)
    }

    /// JSON text argument.
    static func json(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(ABIError) -> JSON {
        try Jansson.parse(try string(pointer, name), what: name)
    }

    /// A borrowed json_t* argument.
    static func jansson(_ pointer: OpaquePointer?, _ name: String) throws(ABIError) -> JSON {
        guard let pointer else { throw .invalidArgument("\(name) is NULL", argument: name) }
        return try Jansson.validatedValue(of: UnsafePointer<json_t>(pointer), what: name)
    }

    // Out-parameters, one style (jump.h says which may be NULL): a required one is passed through `prepare`
    // before anything else (NULL is refused; it is NULL until the result is written), an optional one is set
    // to NULL first (`out?.pointee = nil`); the result goes out through `write`, after every check passed.

    /// Checks an out-parameter and clears it, so a failure always leaves NULL behind.
    static func prepare<T>(_ out: UnsafeMutablePointer<T?>?, _ name: String = "out") throws(ABIError) -> UnsafeMutablePointer<T?> {
        guard let out else { throw .invalidArgument("\(name) is NULL", argument: name) }
        out.pointee = nil
        return out
    }

    /// A caller-owned copy of `text` (freed with jump_string_free).
    static func copy(_ text: String) throws(ABIError) -> UnsafeMutablePointer<CChar> {
        var text = text
        // Straight from the string's UTF-8 (strdup of a String would make a C string first, then copy it).
        let copy = text.withUTF8 { bytes -> UnsafeMutablePointer<CChar>? in
            guard let copy = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
            if let source = bytes.baseAddress { memcpy(copy, source, bytes.count) }
            copy[bytes.count] = 0
            return copy
        }
        guard let copy else { throw .internal("out of memory copying a result string") }
        return copy
    }

    static func write(_ json: JSON, to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) throws(ABIError) {
        guard let out else { return }
        out.pointee = try copy(Jansson.serialize(json))
    }

    static func writeJansson(_ json: JSON, to out: UnsafeMutablePointer<OpaquePointer?>) throws(ABIError) {
        guard let value = Jansson.makeValue(json) else { throw .internal("out of memory building a jansson value") }
        out.pointee = OpaquePointer(value)
    }
}
