import JumpCore

// Sign-in tokens, API keys, identify and authorized requests (jump.h "Sign-in tokens and API keys").

public typealias CAuthenticate = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, CStorageSink?,
                                                UnsafeMutableRawPointer?) -> Int32

@_cdecl("jump_sign_in_token_decode")
public func jump_sign_in_token_decode(_ token: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        try Marshal.write(try SignInToken(try Marshal.string(token, "sign_in_token")).json, to: out)
    }
}

@_cdecl("jump_client_sign_in_with_token")
public func jump_client_sign_in_with_token(_ client: OpaquePointer?, _ token: UnsafePointer<CChar>?,
                                           _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    SyncLaunch.run(client: client, out: out) { () throws(ABIError) in try signInWithToken(token) }
}

private func signInWithToken(_ token: UnsafePointer<CChar>?) throws(ABIError) -> AsyncLaunch.Work {
    let raw = try Marshal.string(token, "sign_in_token")
    return { client, cancellation throws(JumpError) in try client.tokens.signIn(signInToken: raw, cancellation: cancellation).json }
}

@_cdecl("jump_client_sign_in_with_token_async")
public func jump_client_sign_in_with_token_async(
    _ client: OpaquePointer?, _ token: UnsafePointer<CChar>?,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("sign_in_with_token", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in try signInWithToken(token) }
}

@_cdecl("jump_client_use_api_key")
public func jump_client_use_api_key(_ client: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ user: UnsafePointer<CChar>?,
                                    _ environment: UnsafePointer<CChar>?, _ region: UnsafePointer<CChar>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let target = try jumpClient(client)
        let place = try TokenEnvironment(name: try Marshal.string(environment, "environment"),
                                         region: try Marshal.string(region, "region"))
        try target.tokens.useAPIKey(try Marshal.string(key, "api_key"), userID: try Marshal.optionalString(user, "user_id"),
                             environment: place)
    }
}

@_cdecl("jump_client_status")
public func jump_client_status(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out)
        try Marshal.write(try jumpClient(client).tokens.status().json, to: out)
    }
}

@_cdecl("jump_client_identify_external_user")
public func jump_client_identify_external_user(
    _ client: OpaquePointer?, _ externalID: UnsafePointer<CChar>?, _ authenticate: CAuthenticate?,
    _ userdata: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    abiCall { () throws(ABIError) in
        out?.pointee = nil
        let target = try jumpClient(client)
        let external = try Marshal.string(externalID, "external_user_id")
        guard let authenticate else { throw .invalidArgument("authenticate is NULL", argument: "authenticate") }
        let result = try target.identifyExternalUser(external) { id throws(JumpError) -> JumpClient.ExternalCredential in
            let answer = LoadedBytes()
            let context = Unmanaged.passRetained(answer)
            defer { context.release() }
            let status = id.withCString { authenticate(userdata, $0, receiveLoadedBytes, context.toOpaque()) }  // synchronous only
            guard status == JumpStatus.ok.rawValue else {
                let name = JumpStatus(rawValue: status)?.name ?? "status \(status)"
                throw JumpError(JumpStatus(rawValue: status) ?? .cancelled,
                                "the authenticate callback failed (\(name))", detail: ["callback_status": .int(Int64(status))])
            }
            let (bytes, received, tooLarge) = answer.state.withLock { ($0.bytes, $0.received, $0.tooLarge) }
            guard received, !tooLarge else {
                throw .invalidArgument("the authenticate callback returned JUMP_OK without one answer", argument: "authenticate")
            }
            let parsed: JSON
            do throws(JumpError) { parsed = try Jansson.parse(bytes, what: "the authenticate callback's answer") } catch {
                throw .invalidArgument("the authenticate callback's answer is not JSON: \(error.message)", argument: "authenticate")
            }
            return try JumpClient.ExternalCredential(answer: parsed)
        }
        try Marshal.write(result.json, to: out)
    }
}

/// The arguments of both request forms, copied (the body too) so the _async form may outlive the caller's buffers.
private func authorizedRequest(
    _ target: JumpClient, _ method: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?, _ headersJSON: UnsafePointer<CChar>?,
    _ body: UnsafePointer<CChar>?, _ bodyLength: UInt
) throws(ABIError) -> AsyncLaunch.Work {
    var headers: [(String, String)] = []
    if headersJSON != nil {
        guard case .object(let members) = try Marshal.json(headersJSON, "headers_json") else {
            throw .invalidArgument("headers_json is not a JSON object", argument: "headers_json")
        }
        for name in members.keys.sorted() {
            guard let value = members[name]?.stringValue else {
                throw .invalidArgument("header '\(name)' is not a string", argument: "headers_json")
            }
            headers.append((name, value))
        }
    }
    var bytes: [UInt8] = []
    if bodyLength > 0 {
        guard let body else { throw .invalidArgument("body is NULL but body_length is not 0", argument: "body") }
        guard bodyLength <= 64 << 20 else { throw .invalidArgument("body is larger than 64 MiB", argument: "body_length") }
        bytes = Array(UnsafeRawBufferPointer(start: body, count: Int(bodyLength)))
    }
    let checked = try target.checkRequest(method: try Marshal.string(method, "method"), url: try Marshal.string(url, "url"),
                                          headers: headers, body: bytes)
    return { client, cancellation throws(JumpError) in try client.authorizedRequest(checked, cancellation: cancellation).json }
}

@_cdecl("jump_client_request")
public func jump_client_request(
    _ client: OpaquePointer?, _ method: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?,
    _ headersJSON: UnsafePointer<CChar>?, _ body: UnsafePointer<CChar>?, _ bodyLength: UInt,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    SyncLaunch.run(client: client, out: out, required: "out_response") { () throws(ABIError) in
        try authorizedRequest(try jumpClient(client), method, url, headersJSON, body, bodyLength)
    }
}

@_cdecl("jump_client_request_async")
public func jump_client_request_async(
    _ client: OpaquePointer?, _ method: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?,
    _ headersJSON: UnsafePointer<CChar>?, _ body: UnsafePointer<CChar>?, _ bodyLength: UInt,
    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    AsyncLaunch.start("request", client: client, callback: callback, userdata: userdata,
                      userdataFree: userdataFree, request: request) { () throws(ABIError) in
        try authorizedRequest(try jumpClient(client), method, url, headersJSON, body, bodyLength)
    }
}

@_cdecl("jump_client_use_web_login")
public func jump_client_use_web_login(
    _ client: OpaquePointer?, _ pageURL: UnsafePointer<CChar>?, _ cookies: UnsafePointer<CChar>?,
    _ title: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    abiCall { () throws(ABIError) in
        out?.pointee = nil
        let target = try jumpClient(client)
        let token = try target.useWebLogin(pageURL: try Marshal.string(pageURL, "page_url"),
                                           cookies: try Marshal.optionalString(cookies, "cookies"),
                                           title: try Marshal.optionalString(title, "title"))
        if let out { out.pointee = try Marshal.copy(token) }
    }
}
