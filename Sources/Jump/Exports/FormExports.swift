import JumpCore

// Profile and password forms (jump.h "Profile and password forms"). Every async completion's result is {}.
// Each pair reads its arguments in one prepare step (SyncLaunch, AsyncLaunch).

/// NULL means "no attributes", so only a non-NULL argument is parsed.
private func updateProfile(_ attributes: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let edits: JSON? = attributes == nil ? nil : try Marshal.json(attributes, "attributes_json")
    return { client, cancellation throws(JumpError) in
        try client.capture.updateProfile(attributes: edits, cancellation: cancellation)
        return [:]
    }
}

@_cdecl("jump_client_update_profile")
public func jump_client_update_profile(_ client: OpaquePointer?, _ attributes: UnsafePointer<CChar>?) -> Int32 {
    SyncLaunch.run(client: client) { () throws(ABIError) in try updateProfile(attributes) }
}

@_cdecl("jump_client_update_profile_async")
public func jump_client_update_profile_async(
    _ client: OpaquePointer?, _ attributes: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("update_profile", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try updateProfile(attributes) }
}

private func changePassword(_ currentPassword: UnsafePointer<CChar>?, _ newPassword: UnsafePointer<CChar>?)
    throws(ABIError) -> AsyncLaunch.Work {
    let current = try Marshal.string(currentPassword, "current_password")
    let new = try Marshal.string(newPassword, "new_password")
    return { client, cancellation throws(JumpError) in
        try client.capture.changePassword(current: current, new: new, cancellation: cancellation)
        return [:]
    }
}

@_cdecl("jump_client_change_password")
public func jump_client_change_password(
    _ client: OpaquePointer?, _ currentPassword: UnsafePointer<CChar>?, _ newPassword: UnsafePointer<CChar>?
) -> Int32 {
    SyncLaunch.run(client: client) { () throws(ABIError) in try changePassword(currentPassword, newPassword) }
}

@_cdecl("jump_client_change_password_async")
public func jump_client_change_password_async(
    _ client: OpaquePointer?, _ currentPassword: UnsafePointer<CChar>?, _ newPassword: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("change_password", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        try changePassword(currentPassword, newPassword)
    }
}

private func forgotPassword(_ email: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let address = try Marshal.string(email, "email")
    return { client, cancellation throws(JumpError) in
        try client.capture.forgotPassword(email: address, cancellation: cancellation)
        return [:]
    }
}

@_cdecl("jump_client_forgot_password")
public func jump_client_forgot_password(_ client: OpaquePointer?, _ email: UnsafePointer<CChar>?) -> Int32 {
    SyncLaunch.run(client: client) { () throws(ABIError) in try forgotPassword(email) }
}

@_cdecl("jump_client_forgot_password_async")
public func jump_client_forgot_password_async(
    _ client: OpaquePointer?, _ email: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("forgot_password", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try forgotPassword(email) }
}

private func resendVerificationEmail(_ email: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let address = try Marshal.string(email, "email")
    return { client, cancellation throws(JumpError) in
        try client.capture.resendVerificationEmail(email: address, cancellation: cancellation)
        return [:]
    }
}

@_cdecl("jump_client_resend_verification_email")
public func jump_client_resend_verification_email(_ client: OpaquePointer?, _ email: UnsafePointer<CChar>?) -> Int32 {
    SyncLaunch.run(client: client) { () throws(ABIError) in try resendVerificationEmail(email) }
}

@_cdecl("jump_client_resend_verification_email_async")
public func jump_client_resend_verification_email_async(
    _ client: OpaquePointer?, _ email: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("resend_verification_email", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        try resendVerificationEmail(email)
    }
}
