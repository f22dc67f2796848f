import JumpCore

private func requestBox(_ handle: OpaquePointer?) throws(ABIError) -> RequestBox {
    try HandleRegistry.shared.lookup(handle, as: .request, RequestBox.self)
}

@_cdecl("jump_request_cancel")
public func jump_request_cancel(_ request: OpaquePointer?) -> Int32 {
    abiCall { () throws(ABIError) in try requestBox(request).cancellation.cancel() }
}

@_cdecl("jump_request_wait")
public func jump_request_wait(_ request: OpaquePointer?, _ timeoutMs: Int32) -> Int32 {
    abiCall { () throws(ABIError) in
        let box = try requestBox(request)
        if CallbackScope.isInside {
            throw ABIError(.busy, "jump_request_wait cannot be called from a libjump callback (it would deadlock)")
        }
        guard box.wait(milliseconds: timeoutMs) else {
            throw ABIError(.timeout, "the operation did not finish within \(timeoutMs) ms")
        }
    }
}

@_cdecl("jump_request_id")
public func jump_request_id(_ request: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        guard let out else { throw .invalidArgument("out_id is NULL", argument: "out_id") }
        out.pointee = 0
        out.pointee = try requestBox(request).id
    }
}

@_cdecl("jump_request_free")
public func jump_request_free(_ request: OpaquePointer?) {
    HandleRegistry.shared.remove(request, as: .request)
}
