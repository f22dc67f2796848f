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
