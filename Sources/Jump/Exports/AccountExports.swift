import JumpCore

// Several accounts in one client (jump.h "jump_client", `accounts` "multiple"): list, switch, remove.

@_cdecl("jump_client_accounts")
public func jump_client_accounts(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    SyncLaunch.run(client: client, out: out, required: "out_json") { () throws(ABIError) in
        { client, _ throws(JumpError) in try client.savedAccounts().json }
    }
}

/// The uuid, read once on the caller's thread for both forms.
private func switchAccount(_ uuid: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let uuid = try Marshal.string(uuid, "uuid")
    return { client, cancellation throws(JumpError) in
        try client.switchAccount(uuid: uuid, cancellation: cancellation)
        return [:]
    }
}

@_cdecl("jump_client_switch_account")
public func jump_client_switch_account(_ client: OpaquePointer?, _ uuid: UnsafePointer<CChar>?) -> Int32 {
    SyncLaunch.run(client: client) { () throws(ABIError) in try switchAccount(uuid) }
}

@_cdecl("jump_client_switch_account_async")
public func jump_client_switch_account_async(
    _ client: OpaquePointer?, _ uuid: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("switch_account", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try switchAccount(uuid) }
}

@_cdecl("jump_client_remove_account")
public func jump_client_remove_account(_ client: OpaquePointer?, _ uuid: UnsafePointer<CChar>?) -> Int32 {
    SyncLaunch.run(client: client) { () throws(ABIError) in
        let uuid = try Marshal.string(uuid, "uuid")
        return { client, _ throws(JumpError) in
            try client.removeAccount(uuid: uuid)
            return [:]
        }
    }
}
