import JumpCore

/// What a jump_record handle holds.
final class RecordBox: Sendable {
    let view: RecordView
    init(_ view: RecordView) { self.view = view }
}

private func recordView(_ handle: OpaquePointer?) throws(ABIError) -> RecordView {
    try HandleRegistry.shared.lookup(handle, as: .record, RecordBox.self).view
}

@_cdecl("jump_record_get")
public func jump_record_get(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                            _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let view = try recordView(record)
        try Marshal.write(try view.value(at: try Marshal.string(path, "path")), to: out)
    }
}

@_cdecl("jump_record_get_jansson")
public func jump_record_get_jansson(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let view = try recordView(record)
        try Marshal.writeJansson(try view.value(at: try Marshal.string(path, "path")), to: out)
    }
}

@_cdecl("jump_record_get_string")
public func jump_record_get_string(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                   _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let view = try recordView(record)
        let where_ = try Marshal.string(path, "path")
        switch try view.value(at: where_) {
        case .null: out.pointee = nil
        case .string(let s): out.pointee = try Marshal.copy(s)
        case let other:
            throw .invalidArgument("'\(where_)' holds a \(other.typeName), not a string", argument: where_)
        }
    }
}

/// The value at path for the typed getters: null is JUMP_E_NOT_FOUND (no value), so a number is never made up.
private func typedValue(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?) throws(ABIError) -> (JSON, String) {
    let view = try recordView(record)
    let where_ = try Marshal.string(path, "path")
    let value = try view.value(at: where_)
    if value.isNull {
        throw ABIError(.notFound, "'\(where_)' is null", detail: ["argument": .string(where_), "null": true])
    }
    return (value, where_)
}

@_cdecl("jump_record_get_int64")
public func jump_record_get_int64(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        guard let out else { throw .invalidArgument("out is NULL", argument: "out") }
        out.pointee = 0
        let (value, where_) = try typedValue(record, path)
        guard let number = value.intValue else {
            throw .invalidArgument("'\(where_)' holds a \(value.typeName) that is not an integer", argument: where_)
        }
        out.pointee = number
    }
}

@_cdecl("jump_record_get_double")
public func jump_record_get_double(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    abiCall { () throws(ABIError) in
        guard let out else { throw .invalidArgument("out is NULL", argument: "out") }
        out.pointee = 0
        let (value, where_) = try typedValue(record, path)
        switch value {
        case .int(let i): out.pointee = Double(i)
        case .double(let d): out.pointee = d
        default: throw .invalidArgument("'\(where_)' holds a \(value.typeName), not a number", argument: where_)
        }
    }
}

@_cdecl("jump_record_get_bool")
public func jump_record_get_bool(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    abiCall { () throws(ABIError) in
        guard let out else { throw .invalidArgument("out is NULL", argument: "out") }
        out.pointee = 0
        let (value, where_) = try typedValue(record, path)
        guard case .bool(let flag) = value else {
            throw .invalidArgument("'\(where_)' holds a \(value.typeName), not a boolean", argument: where_)
        }
        out.pointee = flag ? 1 : 0
    }
}

@_cdecl("jump_record_set")
public func jump_record_set(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let view = try recordView(record)
        try view.set(try Marshal.string(path, "path"), to: try Marshal.json(value, "value_json"))
    }
}

@_cdecl("jump_record_set_jansson")
public func jump_record_set_jansson(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ value: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in
        let view = try recordView(record)
        try view.set(try Marshal.string(path, "path"), to: try Marshal.jansson(value, "value"))
    }
}

@_cdecl("jump_record_set_string")
public func jump_record_set_string(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let view = try recordView(record)
        try view.set(try Marshal.string(path, "path"), to: .optional(try Marshal.optionalString(value, "value")))
    }
}

@_cdecl("jump_record_clear")
public func jump_record_clear(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in try recordView(record).clear(try Marshal.string(path, "path")) }
}

@_cdecl("jump_record_append")
public func jump_record_append(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ element: UnsafePointer<CChar>?,
                               _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    append(record, path, out) { () throws(ABIError) in try Marshal.json(element, "element_json") }
}

@_cdecl("jump_record_append_jansson")
public func jump_record_append_jansson(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ element: OpaquePointer?,
                                       _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    append(record, path, out) { () throws(ABIError) in try Marshal.jansson(element, "element") }
}

/// The two append exports differ only in how the element arrives.
private func append(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                    element: () throws(ABIError) -> JSON) -> Int32 {
    abiCall { () throws(ABIError) in
        out?.pointee = nil
        let view = try recordView(record)
        let plural = try Marshal.string(path, "plural_path")
        let added = try view.append(try element(), to: plural)
        if let out { out.pointee = try Marshal.copy(added) }
    }
}

@_cdecl("jump_record_remove")
public func jump_record_remove(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in try recordView(record).remove(try Marshal.string(path, "element_path")) }
}

@_cdecl("jump_record_replace_plural")
public func jump_record_replace_plural(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ elements: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let view = try recordView(record)
        try view.replacePlural(try Marshal.string(path, "plural_path"), with: try Marshal.json(elements, "elements_json"))
    }
}

@_cdecl("jump_record_replace_plural_jansson")
public func jump_record_replace_plural_jansson(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ elements: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in
        let view = try recordView(record)
        try view.replacePlural(try Marshal.string(path, "plural_path"), with: try Marshal.jansson(elements, "elements"))
    }
}

@_cdecl("jump_record_element_count")
public func jump_record_element_count(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt>?) -> Int32 {
    abiCall { () throws(ABIError) in
        guard let out else { throw .invalidArgument("out is NULL", argument: "out") }
        out.pointee = 0
        out.pointee = UInt(max(0, try recordView(record).elementCount(try Marshal.string(path, "plural_path"))))
    }
}

@_cdecl("jump_record_element_paths")
public func jump_record_element_paths(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                      _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let paths = try recordView(record).elementPaths(try Marshal.string(path, "plural_path"))
        try Marshal.write(.array(paths.map(JSON.string)), to: out)
    }
}

@_cdecl("jump_record_revert")
public func jump_record_revert(_ record: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in try recordView(record).revert(try Marshal.string(path, "path")) }
}

@_cdecl("jump_record_changes")
public func jump_record_changes(_ record: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        try Marshal.write(try recordView(record).changes().json, to: out)
    }
}

@_cdecl("jump_record_discard_changes")
public func jump_record_discard_changes(_ record: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in try recordView(record).discardChanges() }
}

@_cdecl("jump_record_free")
public func jump_record_free(_ record: OpaquePointer?) {
    HandleRegistry.shared.remove(record, as: .record)
}
