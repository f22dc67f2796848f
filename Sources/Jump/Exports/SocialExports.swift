import JumpCore
import JumpRuntime

// Social sign-in, registration, merge and linking (jump.h "Social sign-in (Engage)").

/// NULL options mean "none"; otherwise a JSON object.
private func options(_ pointer: UnsafePointer<CChar>?) throws(ABIError) -> JSON {
    guard pointer != nil else { return .null }
    return try Marshal.json(pointer, "options_json")
}

@_cdecl("jump_client_load_engage_config")
public func jump_client_load_engage_config(
    _ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    abiCall { () throws(ABIError) in
        out?.pointee = nil
        let target = try jumpClient(client)
        try Marshal.write(try target.call { () throws(JumpError) in try target.engage.loadEngageConfig() }.json, to: out)
    }
}

@_cdecl("jump_client_providers")
public func jump_client_providers(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try Marshal.prepare(out, "out_json")
        let jump = try jumpClient(client)
        let providers = try jump.call { () throws(JumpError) in try jump.engage.providers() }
        try Marshal.write(providers.json, to: target)
    }
}

@_cdecl("jump_client_social_begin")
public func jump_client_social_begin(
    _ client: OpaquePointer?, _ provider: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try Marshal.prepare(out, "out_json")
        let jump = try jumpClient(client)
        let name = try Marshal.string(provider, "provider")
        let settings = try options(optionsJSON)
        let begun = try jump.call { () throws(JumpError) in try jump.beginSocialSignIn(provider: name, options: settings) }
        try Marshal.write(begun.json, to: target)
    }
}

@_cdecl("jump_client_social_complete")
public func jump_client_social_complete(
    _ client: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in try socialComplete(url) }
}

private func socialComplete(_ url: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let text = try Marshal.string(url, "url")
    return { client, cancellation throws(JumpError) in try client.completeSocialSignIn(url: text, cancellation: cancellation).json }
}

@_cdecl("jump_client_social_complete_async")
public func jump_client_social_complete_async(
    _ client: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("social_complete", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try socialComplete(url) }
}

@_cdecl("jump_client_social_sign_in_native")
public func jump_client_social_sign_in_native(
    _ client: OpaquePointer?, _ provider: UnsafePointer<CChar>?, _ token: UnsafePointer<CChar>?,
    _ tokenSecret: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in
        try socialSignInNative(provider, token, tokenSecret, optionsJSON)
    }
}

private func socialSignInNative(_ provider: UnsafePointer<CChar>?, _ token: UnsafePointer<CChar>?,
                                _ tokenSecret: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?)
    throws(ABIError) -> AsyncLaunch.Work {
    let name = try Marshal.string(provider, "provider")
    let providerToken = try Marshal.string(token, "token")
    let secret = try Marshal.optionalString(tokenSecret, "token_secret")
    let parsed = try options(optionsJSON)
    return { client, cancellation throws(JumpError) in
        try client.signInWithProviderToken(provider: name, token: providerToken, tokenSecret: secret, options: parsed,
                                           cancellation: cancellation).json
    }
}

@_cdecl("jump_client_social_sign_in_native_async")
public func jump_client_social_sign_in_native_async(
    _ client: OpaquePointer?, _ provider: UnsafePointer<CChar>?, _ token: UnsafePointer<CChar>?,
    _ tokenSecret: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("social_sign_in_native", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        try socialSignInNative(provider, token, tokenSecret, optionsJSON)
    }
}

@_cdecl("jump_client_set_token_url")
public func jump_client_set_token_url(_ client: OpaquePointer?, _ url: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let jump = try jumpClient(client)
        try jump.engage.setTokenURL(try Marshal.optionalString(url, "url"))
    }
}

@_cdecl("jump_client_register_social")
public func jump_client_register_social(
    _ client: OpaquePointer?, _ token: UnsafePointer<CChar>?, _ attributes: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in try registerSocial(token, attributes) }
}

private func registerSocial(_ token: UnsafePointer<CChar>?, _ attributes: UnsafePointer<CChar>?) throws(ABIError)
    -> AsyncLaunch.Work {
    let registrationToken = try Marshal.string(token, "social_registration_token")
    let record = try Marshal.json(attributes, "attributes_json")
    return { client, cancellation throws(JumpError) in
        try client.capture.registerSocial(token: registrationToken, attributes: record, cancellation: cancellation).json
    }
}

@_cdecl("jump_client_register_social_async")
public func jump_client_register_social_async(
    _ client: OpaquePointer?, _ token: UnsafePointer<CChar>?, _ attributes: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("register_social", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        try registerSocial(token, attributes)
    }
}

@_cdecl("jump_client_sign_in_merge")
public func jump_client_sign_in_merge(
    _ client: OpaquePointer?, _ user: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
    _ mergeToken: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in try signInMerge(user, password, mergeToken) }
}

private func signInMerge(_ user: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
                         _ mergeToken: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let name = try Marshal.string(user, "user")
    let secret = try Marshal.string(password, "password")
    let merge = try Marshal.string(mergeToken, "merge_token")
    return { client, cancellation throws(JumpError) in
        merged(try client.capture.signIn(user: name, password: secret, mergeToken: merge, cancellation: cancellation))
    }
}

@_cdecl("jump_client_sign_in_merge_async")
public func jump_client_sign_in_merge_async(
    _ client: OpaquePointer?, _ user: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
    _ mergeToken: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("sign_in_merge", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        try signInMerge(user, password, mergeToken)
    }
}

private func merged(_ result: SignInResult) -> JSON {
    var members = result.json.objectValue ?? [:]
    members["merged"] = true
    return .object(members)
}

@_cdecl("jump_client_linked_profiles")
public func jump_client_linked_profiles(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try Marshal.prepare(out, "out_json")
        let profiles = try jumpClient(client).capture.linkedProfiles()
        try Marshal.write(.array(profiles.map(\.json)), to: target)
    }
}

@_cdecl("jump_client_unlink_account")
public func jump_client_unlink_account(_ client: OpaquePointer?, _ identifier: UnsafePointer<CChar>?) -> Int32 {
    SyncLaunch.run(client: client) { () throws(ABIError) in try unlinkAccount(identifier) }
}

private func unlinkAccount(_ identifier: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let text = try Marshal.string(identifier, "identifier")
    return { client, cancellation throws(JumpError) in
        try client.capture.unlinkAccount(identifier: text, cancellation: cancellation)
        return [:]
    }
}

@_cdecl("jump_client_unlink_account_async")
public func jump_client_unlink_account_async(
    _ client: OpaquePointer?, _ identifier: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("unlink_account", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try unlinkAccount(identifier) }
}

// Sharing and the loopback sign-in.

public typealias COpenURL = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32

/// The host's open_url callback with its userdata, callable from the libjump thread that runs the sign-in
/// (the host promised userdata stays valid until the completion, which comes after).
private struct URLOpener: @unchecked Sendable {
    let function: COpenURL
    let userdata: UnsafeMutableRawPointer?

    func open(_ url: String) throws(JumpError) {
        // open_url may block until the browser is closed: off the pool (Fiber.onOwnThread).
        let status = Fiber.onOwnThread { [self] in url.withCString { function(userdata, $0) } }
        guard status == JumpStatus.ok.rawValue else {
            throw JumpError(JumpStatus(rawValue: status) ?? .server, "the host's open_url callback failed (status \(status))",
                            detail: ["callback_status": .int(Int64(status))])
        }
    }
}

private func opener(_ function: COpenURL?, _ userdata: UnsafeMutableRawPointer?) throws(ABIError) -> URLOpener {
    guard let function else { throw .invalidArgument("open_url is NULL", argument: "open_url") }
    return URLOpener(function: function, userdata: userdata)
}

@_cdecl("jump_client_social_sign_in_loopback")
public func jump_client_social_sign_in_loopback(
    _ client: OpaquePointer?, _ provider: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
    _ openURL: COpenURL?, _ userdata: UnsafeMutableRawPointer?, _ timeoutMs: Int32,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in
        try socialSignInLoopback(provider, optionsJSON, openURL, userdata, timeoutMs)
    }
}

private func socialSignInLoopback(_ provider: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
                                  _ openURL: COpenURL?, _ userdata: UnsafeMutableRawPointer?, _ timeoutMs: Int32)
    throws(ABIError) -> AsyncLaunch.Work {
    let name = try Marshal.string(provider, "provider")
    let parsed = try options(optionsJSON)
    let host = try opener(openURL, userdata)
    let timeout = Int(timeoutMs)
    return { client, cancellation throws(JumpError) in
        try client.socialSignInLoopback(provider: name, options: parsed, timeoutMs: timeout,
                                        openURL: { url throws(JumpError) in try host.open(url) },
                                        cancellation: cancellation).json
    }
}

@_cdecl("jump_client_social_sign_in_loopback_async")
public func jump_client_social_sign_in_loopback_async(
    _ client: OpaquePointer?, _ provider: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
    _ openURL: COpenURL?, _ timeoutMs: Int32,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("social_sign_in_loopback", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        try socialSignInLoopback(provider, optionsJSON, openURL, userdata, timeoutMs)
    }
}

@_cdecl("jump_client_share")
public func jump_client_share(
    _ client: OpaquePointer?, _ activity: UnsafePointer<CChar>?, _ providers: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in try share(activity, providers) }
}

private func share(_ activity: UnsafePointer<CChar>?, _ providers: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let object = try Marshal.json(activity, "activity_json")
    let names = try Marshal.json(providers, "providers_json")
    return { client, cancellation throws(JumpError) in try client.share(activity: object, providers: names, cancellation: cancellation) }
}

@_cdecl("jump_client_share_async")
public func jump_client_share_async(
    _ client: OpaquePointer?, _ activity: UnsafePointer<CChar>?, _ providers: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("share", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try share(activity, providers) }
}

@_cdecl("jump_client_share_content")
public func jump_client_share_content(
    _ client: OpaquePointer?, _ activity: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try Marshal.prepare(out, "out_json")
        let jump = try jumpClient(client)
        let object = try Marshal.json(activity, "activity_json")
        try Marshal.write(try jump.call { () throws(JumpError) in try jump.engage.shareContent(activity: object) }, to: target)
    }
}
