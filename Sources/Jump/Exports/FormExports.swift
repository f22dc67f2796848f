import JumpCore

// Profile and password forms (jump.h "Profile and password forms"). Every async completion's result is {}.

/// NULL means "no attributes", so only a non-NULL argument is parsed.
private func optionalAttributes(_ pointer: UnsafePointer<CChar>?) throws(ABIError) -> JSON? {
    guard pointer != nil else { return nil }
    return try Marshal.json(pointer, "attributes_json")
}

@_cdecl("jump_client_update_profile")
public func jump_client_update_profile(_ client: OpaquePointer?, _ attributes: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try jumpClient(client)
        try target.capture.updateProfile(attributes: try optionalAttributes(attributes))
    }
}

@_cdecl("jump_client_update_profile_async")
public func jump_client_update_profile_async(
    _ client: OpaquePointer?, _ attributes: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("update_profile", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        let edits = try optionalAttributes(attributes)
        return { client, cancellation throws(JumpError) in
            try client.capture.updateProfile(attributes: edits, cancellation: cancellation)
            return [:]
        }
    }
}

@_cdecl("jump_client_change_password")
public func jump_client_change_password(
    _ client: OpaquePointer?, _ currentPassword: UnsafePointer<CChar>?, _ newPassword: UnsafePointer<CChar>?
) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try jumpClient(client)
        let current = try Marshal.string(currentPassword, "current_password")
        let new = try Marshal.string(newPassword, "new_password")
        try target.capture.changePassword(current: current, new: new)
    }
}

@_cdecl("jump_client_change_password_async")
public func jump_client_change_password_async(
    _ client: OpaquePointer?, _ currentPassword: UnsafePointer<CChar>?, _ newPassword: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("change_password", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        let current = try Marshal.string(currentPassword, "current_password")
        let new = try Marshal.string(newPassword, "new_password")
        return { client, cancellation throws(JumpError) in
            try client.capture.changePassword(current: current, new: new, cancellation: cancellation)
            return [:]
        }
    }
}

@_cdecl("jump_client_forgot_password")
public func jump_client_forgot_password(_ client: OpaquePointer?, _ email: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try jumpClient(client)
        try target.capture.forgotPassword(email: try Marshal.string(email, "email"))
    }
}

@_cdecl("jump_client_forgot_password_async")
public func jump_client_forgot_password_async(
    _ client: OpaquePointer?, _ email: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("forgot_password", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        let address = try Marshal.string(email, "email")
        return { client, cancellation throws(JumpError) in
            try client.capture.forgotPassword(email: address, cancellation: cancellation)
            return [:]
        }
    }
}

@_cdecl("jump_client_resend_verification_email")
public func jump_client_resend_verification_email(_ client: OpaquePointer?, _ email: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try jumpClient(client)
        try target.capture.resendVerificationEmail(email: try Marshal.string(email, "email"))
    }
}

@_cdecl("jump_client_resend_verification_email_async")
public func jump_client_resend_verification_email_async(
    _ client: OpaquePointer?, _ email: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("resend_verification_email", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        let address = try Marshal.string(email, "email")
        return { client, cancellation throws(JumpError) in
            try client.capture.resendVerificationEmail(email: address, cancellation: cancellation)
            return [:]
        }
    }
}
