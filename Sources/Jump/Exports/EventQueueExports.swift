import JumpCore

// Queue mode: the host pumps a client's completions and events on its own thread (EventQueue).

@_cdecl("jump_client_use_event_queue")
public func jump_client_use_event_queue(_ client: OpaquePointer?, _ enabled: Int32) -> Int32 {
    abiCall { () throws(ABIError) in
        guard enabled == 0 || enabled == 1 else { throw .invalidArgument("enabled must be 0 or 1", argument: "enabled") }
        try clientBox(client).useEventQueue(enabled == 1)
    }
}

@_cdecl("jump_client_event_fd")
public func jump_client_event_fd(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    abiCall { () throws(ABIError) in
        guard let out else { throw .invalidArgument("out_fd is NULL", argument: "out_fd") }
        out.pointee = -1
        out.pointee = try clientBox(client).eventFD()
    }
}

/// The detail of an empty queue, serialized once: a host pumping every frame gets it most of the time.
private nonisolated(unsafe) let emptyQueueDetail = StaticCString.make(
    Jansson.serialize(ABIError(.notFound, "no event is waiting").json))

@_cdecl("jump_client_next_event")
public func jump_client_next_event(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var empty = false
    let status = abiCall { () throws(ABIError) in
        let out = try Marshal.prepare(out, "out_json")
        guard let text = try clientBox(client).nextEvent() else {
            empty = true
            return
        }
        out.pointee = try Marshal.copy(text)
    }
    guard empty else { return status }
    LastError.set(serialized: emptyQueueDetail)
    return JumpStatus.notFound.rawValue
}
