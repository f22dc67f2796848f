import JumpCore

// The credentials call (jump.h "jump_client", issue 13): a credential valid for at least min_ttl_seconds.

/// JUMP_CREDENTIALS_FORCE_REFRESH in jump.h.
private let forceRefreshFlag: UInt32 = 1

/// The arguments of both forms. A flag bit this library does not know is refused rather than ignored, so a
/// host built against a newer header learns that its request was not understood.
private func credentials(_ minTTL: Int64, _ flags: UInt32) throws(ABIError) -> AsyncLaunch.Work {
    guard flags & ~forceRefreshFlag == 0 else {
        throw .invalidArgument("flags has unknown bits (\(flags)); only JUMP_CREDENTIALS_FORCE_REFRESH is defined",
                               argument: "flags")
    }
    guard minTTL >= 0 else {
        throw .invalidArgument("min_ttl_seconds is negative (\(minTTL))", argument: "min_ttl_seconds")
    }
    let force = flags & forceRefreshFlag != 0
    return { client, cancellation throws(JumpError) in
        try client.credentials(minTTL: minTTL, forceRefresh: force, cancellation: cancellation).json
    }
}

@_cdecl("jump_client_credentials")
public func jump_client_credentials(_ client: OpaquePointer?, _ minTTL: Int64, _ flags: UInt32,
                                    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    SyncLaunch.run(client: client, out: out, required: "out_json") { () throws(ABIError) in try credentials(minTTL, flags) }
}

@_cdecl("jump_client_credentials_async")
public func jump_client_credentials_async(
    _ client: OpaquePointer?, _ minTTL: Int64, _ flags: UInt32,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("credentials", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try credentials(minTTL, flags) }
}

@_cdecl("jump_client_has_valid_credentials")
public func jump_client_has_valid_credentials(_ client: OpaquePointer?, _ minTTL: Int64) -> Int32 {
    var valid = false
    _ = abiCall { () throws(ABIError) in valid = try jumpClient(client).hasValidCredentials(minTTL: minTTL) }
    return valid ? 1 : 0
}
