import JumpCore

// The credentials call (jump.h "jump_client", issue 13): a credential valid for at least min_ttl_seconds.

/// JUMP_CREDENTIALS_FORCE_REFRESH in jump.h.
private let forceRefreshFlag: UInt32 = 1

/// The flags argument read; a bit this library does not know is refused rather than ignored, so a host
/// built against a newer header learns that its request was not understood.
private func forceRefresh(_ flags: UInt32) throws(ABIError) -> Bool {
    guard flags & ~forceRefreshFlag == 0 else {
        throw .invalidArgument("flags has unknown bits (\(flags)); only JUMP_CREDENTIALS_FORCE_REFRESH is defined",
                               argument: "flags")
    }
    return flags & forceRefreshFlag != 0
}

@_cdecl("jump_client_credentials")
public func jump_client_credentials(_ client: OpaquePointer?, _ minTTL: Int64, _ flags: UInt32,
                                    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out, "out_json")
        let target = try jumpClient(client)
        let credentials = try target.credentials(minTTL: minTTL, forceRefresh: try forceRefresh(flags))
        try Marshal.write(credentials.json, to: out)
    }
}

@_cdecl("jump_client_credentials_async")
public func jump_client_credentials_async(
    _ client: OpaquePointer?, _ minTTL: Int64, _ flags: UInt32,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("credentials", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        let force = try forceRefresh(flags)
        guard minTTL >= 0 else {
            throw .invalidArgument("min_ttl_seconds is negative (\(minTTL))", argument: "min_ttl_seconds")
        }
        return { client, cancellation throws(JumpError) in
            try client.credentials(minTTL: minTTL, forceRefresh: force, cancellation: cancellation).json
        }
    }
}

@_cdecl("jump_client_has_valid_credentials")
public func jump_client_has_valid_credentials(_ client: OpaquePointer?, _ minTTL: Int64) -> Int32 {
    var valid = false
    _ = abiCall { () throws(ABIError) in valid = try jumpClient(client).hasValidCredentials(minTTL: minTTL) }
    return valid ? 1 : 0
}
