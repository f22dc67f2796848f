import JumpCore
import JumpRuntime

/// What a jump_config handle holds.
final class ConfigBox: Sendable {
    let config: Lock<JumpConfig>
    /// Host storage callbacks, when set; clients made from this config share them.
    let storage = Lock<HostStorage?>(nil)
    init(_ config: JumpConfig) { self.config = Lock(config) }

    /// The store per entry key for a new client: the host's callbacks, or nil for files.
    func storeFactory() -> (@Sendable (String) -> any SessionStore)? {
        guard let host = storage.withLock({ $0 }) else { return nil }
        return { key in host.entry(key) }
    }
}

private func configBox(_ handle: OpaquePointer?) throws(ABIError) -> ConfigBox {
    try HandleRegistry.shared.lookup(handle, as: .config, ConfigBox.self)
}

private func register(_ config: JumpConfig, _ out: UnsafeMutablePointer<OpaquePointer?>) throws(ABIError) {
    guard let handle = HandleRegistry.shared.register(ConfigBox(config), as: .config) else {
        throw .internal("could not register a jump_config handle")
    }
    out.pointee = handle
}

@_cdecl("jump_config_new")
public func jump_config_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    abiCall { () throws(ABIError) in try register(JumpConfig(), try Marshal.prepare(out)) }
}

@_cdecl("jump_config_from_json")
public func jump_config_from_json(_ json: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        try register(try JumpConfig(json: try Marshal.json(json, "json")), out)
    }
}

@_cdecl("jump_config_from_jansson")
public func jump_config_from_jansson(_ json: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        try register(try JumpConfig(json: try Marshal.jansson(json, "json")), out)
    }
}

private func setKey(_ handle: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: () throws(ABIError) -> JSON) -> Int32 {
    abiCall { () throws(ABIError) in
        let box = try configBox(handle)
        let name = try Marshal.string(key, "key")
        let newValue = try value()
        try box.config.withLock { config throws(ABIError) in try config.set(name, newValue) }
    }
}

@_cdecl("jump_config_set_string")
public func jump_config_set_string(_ config: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    setKey(config, key) { () throws(ABIError) in .optional(try Marshal.optionalString(value, "value")) }
}

@_cdecl("jump_config_set_bool")
public func jump_config_set_bool(_ config: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int32) -> Int32 {
    setKey(config, key) { () throws(ABIError) in
        guard value == 0 || value == 1 else { throw .invalidArgument("a boolean value must be 0 or 1, not \(value)", argument: "value") }
        return .bool(value == 1)
    }
}

@_cdecl("jump_config_set_int")
public func jump_config_set_int(_ config: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int64) -> Int32 {
    setKey(config, key) { () throws(ABIError) in .int(value) }
}

@_cdecl("jump_config_to_json")
public func jump_config_to_json(_ config: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let json = try configBox(config).config.withLock { $0.json }
        try Marshal.write(json, to: out)
    }
}

@_cdecl("jump_config_to_jansson")
public func jump_config_to_jansson(_ config: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let json = try configBox(config).config.withLock { $0.json }
        try Marshal.writeJansson(json, to: out)
    }
}

@_cdecl("jump_config_set_storage")
public func jump_config_set_storage(
    _ config: OpaquePointer?, _ load: CStorageLoad?, _ save: CStorageSave?, _ erase: CStorageErase?,
    _ context: UnsafeMutableRawPointer?, _ contextFree: CFree?
) -> Int32 {
    abiCall { () throws(ABIError) in
        let box: ConfigBox
        do throws(ABIError) {
            box = try configBox(config)
        } catch {
            contextFree?(context)  // context_free runs exactly once, also when the handle is bad
            throw error
        }
        let storage: HostStorage?
        switch (load, save, erase) {
        case let (load?, save?, erase?):
            storage = HostStorage(load: load, save: save, erase: erase, context: context, contextFree: contextFree)
        case (nil, nil, nil):
            contextFree?(context)
            storage = nil
        default:
            contextFree?(context)
            throw .invalidArgument("load, save and erase must all be given, or all be NULL", argument: "load")
        }
        box.storage.withLock { $0 = storage }
    }
}

@_cdecl("jump_config_free")
public func jump_config_free(_ config: OpaquePointer?) {
    HandleRegistry.shared.remove(config, as: .config)
}
