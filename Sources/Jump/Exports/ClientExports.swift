import JumpCore

@_cdecl("jump_client_new")
public func jump_client_new(_ config: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let configBox = try HandleRegistry.shared.lookup(config, as: .config, ConfigBox.self)
        let settings = configBox.config.withLock { $0 }
        let box = ClientBox(client: try JumpClient(config: settings, storage: configBox.storeFactory()))
        guard let handle = HandleRegistry.shared.register(box, as: .client) else {
            box.close()  // ends the box's reference cycle (see EventForwarder)
            throw .internal("could not register a jump_client handle")
        }
        out.pointee = handle
    }
}

@_cdecl("jump_client_free")
public func jump_client_free(_ client: OpaquePointer?) {
    guard let box = HandleRegistry.shared.remove(client, as: .client) as? ClientBox else { return }
    box.close()
}

@_cdecl("jump_client_state")
public func jump_client_state(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        try Marshal.write(clientBox(client).client.state().json, to: out)
    }
}

@_cdecl("jump_client_is_signed_in")
public func jump_client_is_signed_in(_ client: OpaquePointer?) -> Int32 {
    var signedIn = false
    _ = abiCall { () throws(ABIError) in signedIn = try clientBox(client).client.isSignedIn }
    return signedIn ? 1 : 0
}

@_cdecl("jump_client_restore")
public func jump_client_restore(_ client: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in
        let box = try clientBox(client)
        try box.client.call { () throws(JumpError) in try box.client.restoreAll() }
    }
}

@_cdecl("jump_client_erase_quarantine")
public func jump_client_erase_quarantine(_ client: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in try clientBox(client).client.capture.eraseQuarantine() }
}

@_cdecl("jump_client_load_flow")
public func jump_client_load_flow(_ client: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in
        let jump = try jumpClient(client)
        _ = try jump.call { () throws(JumpError) in try jump.capture.loadFlow(force: true) }
    }
}

// MARK: - Registration and sign-in

@_cdecl("jump_client_register_traditional")
public func jump_client_register_traditional(
    _ client: OpaquePointer?, _ attributes: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    register(client, password, out) { () throws(ABIError) in try Marshal.json(attributes, "attributes_json") }
}

@_cdecl("jump_client_register_traditional_jansson")
public func jump_client_register_traditional_jansson(
    _ client: OpaquePointer?, _ attributes: OpaquePointer?, _ password: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    register(client, password, out) { () throws(ABIError) in try Marshal.jansson(attributes, "attributes") }
}

/// The registration exports differ only in how the attributes arrive.
private func register(_ client: OpaquePointer?, _ password: UnsafePointer<CChar>?,
                      _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                      attributes: () throws(ABIError) -> JSON) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in try registerTraditional(try attributes(), password) }
}

private func registerTraditional(_ fields: JSON, _ password: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let secret = try Marshal.string(password, "password")
    return { client, cancellation throws(JumpError) in
        try client.capture.registerTraditional(attributes: fields, password: secret, cancellation: cancellation).json
    }
}

@_cdecl("jump_client_register_traditional_async")
public func jump_client_register_traditional_async(
    _ client: OpaquePointer?, _ attributes: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("register_traditional", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        try registerTraditional(try Marshal.json(attributes, "attributes_json"), password)
    }
}

private func signIn(_ user: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let name = try Marshal.string(user, "user")
    let secret = try Marshal.string(password, "password")
    return { client, cancellation throws(JumpError) in
        try client.capture.signIn(user: name, password: secret, cancellation: cancellation).json
    }
}

@_cdecl("jump_client_sign_in")
public func jump_client_sign_in(
    _ client: OpaquePointer?, _ user: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in try signIn(user, password) }
}

@_cdecl("jump_client_sign_in_async")
public func jump_client_sign_in_async(
    _ client: OpaquePointer?, _ user: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("sign_in", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try signIn(user, password) }
}

@_cdecl("jump_client_sign_out")
public func jump_client_sign_out(_ client: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in
        let jump = try jumpClient(client)
        try jump.call { () throws(JumpError) in try jump.signOut() }
    }
}

// MARK: - Record, sync, tokens

@_cdecl("jump_client_record")
public func jump_client_record(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let view = try clientBox(client).client.capture.recordView()
        guard let handle = HandleRegistry.shared.register(RecordBox(view), as: .record) else {
            throw .internal("could not register a jump_record handle")
        }
        out.pointee = handle
    }
}

@_cdecl("jump_client_load_schema")
public func jump_client_load_schema(_ client: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in
        let jump = try jumpClient(client)
        try jump.call { () throws(JumpError) in try jump.capture.loadSchema() }
    }
}

/// fetch_record and sync take no arguments but the client: their work is all there is to prepare.
private let fetchRecordWork: AsyncLaunch.Work = { client, cancellation throws(JumpError) in
    try client.capture.fetchRecord(cancellation: cancellation)
    return [:]
}

private let syncWork: AsyncLaunch.Work = { client, cancellation throws(JumpError) in
    try client.capture.sync(cancellation: cancellation).json
}

@_cdecl("jump_client_fetch_record")
public func jump_client_fetch_record(_ client: OpaquePointer?) -> Int32 {
    SyncLaunch.run(client: client) { () throws(ABIError) in fetchRecordWork }
}

@_cdecl("jump_client_fetch_record_async")
public func jump_client_fetch_record_async(
    _ client: OpaquePointer?, _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("fetch_record", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in fetchRecordWork }
}

@_cdecl("jump_client_sync")
public func jump_client_sync(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in syncWork }
}

@_cdecl("jump_client_sync_async")
public func jump_client_sync_async(
    _ client: OpaquePointer?, _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("sync", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in syncWork }
}

@_cdecl("jump_client_access_token")
public func jump_client_access_token(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        let client = try clientBox(client).client
        out.pointee = try Marshal.copy(try client.call { () throws(JumpError) in try client.currentAccessToken() })
    }
}

@_cdecl("jump_client_refresh_access_token")
public func jump_client_refresh_access_token(_ client: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in
        let client = try clientBox(client).client
        try client.call { () throws(JumpError) in try client.refreshCurrentAccessToken() }
    }
}

// MARK: - Callbacks

@_cdecl("jump_client_set_event_callback")
public func jump_client_set_event_callback(
    _ client: OpaquePointer?, _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?
) -> Int32 {
    abiCall { () throws(ABIError) in
        let box: ClientBox
        do throws(ABIError) {
            box = try clientBox(client)
        } catch {
            // userdata_free runs exactly once, also when the handle is bad.
            userdataFree?(userdata)
            throw error
        }
        let target = CallbackTarget(callback, userdata, userdataFree, releaseOn: CallbackThread.shared)
        box.setEventTarget(target.isEmpty ? nil : target)
    }
}

@_cdecl("jump_client_set_dispatcher")
public func jump_client_set_dispatcher(_ client: OpaquePointer?, _ dispatch: CDispatch?, _ context: UnsafeMutableRawPointer?) -> Int32 {
    abiCall { () throws(ABIError) in
        try clientBox(client).setDispatcher(dispatch.map { HostDispatcher(dispatch: $0, context: context) })
    }
}
