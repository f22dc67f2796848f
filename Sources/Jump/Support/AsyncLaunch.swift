import JumpCore
import JumpRuntime

/// The shape every *_async export shares: validate on the caller's thread, run the work on a fiber of
/// libjump's pool (which parks, holding no thread, while it waits for an answer: docs/design-io.md),
/// deliver exactly one completion through the client's callback path. The work comes from the prepare
/// step the export shares with its synchronous twin (SyncLaunch), so arguments are read in one place.
enum AsyncLaunch {
    /// nil cancellation: the synchronous form, which cannot be cancelled.
    typealias Work = @Sendable (JumpClient, Cancellation?) throws(JumpError) -> JSON

    static func start(
        _ operation: String, client handle: OpaquePointer?,
        callback: CCallback?, userdata: UnsafeMutableRawPointer?, userdataFree: CFree?,
        request out: UnsafeMutablePointer<OpaquePointer?>?,
        prepare: () throws(ABIError) -> Work
    ) -> Int32 {
        out?.pointee = nil
        let box: ClientBox
        let work: Work
        do throws(ABIError) {
            box = try HandleRegistry.shared.lookup(handle, as: .client, ClientBox.self)
            work = try prepare()
        } catch {
            LastError.set(error)
            let text = completion(operation, .failure(error), requestID: nil)
            if let box = try? HandleRegistry.shared.lookup(handle, as: .client, ClientBox.self) {
                box.deliver(CallbackTarget(callback, userdata, userdataFree, releaseOn: CallbackThread.shared), text)
            } else {
                let target = CallbackTarget(callback, userdata, userdataFree, releaseOn: CallbackThread.shared)
                CallbackThread.shared.post { target.invoke(text) }
            }
            return error.status.rawValue
        }
        let target = CallbackTarget(callback, userdata, userdataFree, releaseOn: CallbackThread.shared)
        let request = RequestBox()
        if let out { out.pointee = HandleRegistry.shared.register(request, as: .request) }
        InFlightRequests.shared.add(.init(request: request, box: box, target: target, operation: operation))
        let deadline = box.client.deadlineOfCallMadeNow()
        FiberPool.shared.start {
            let result: Result<JSON, JumpError>
            do throws(JumpError) {
                result = .success(try box.client.call(until: deadline) { () throws(JumpError) in try work(box.client, request.cancellation) })
            } catch {
                result = .failure(error)
            }
            InFlightRequests.shared.remove(request)
            box.deliver(target, completion(operation, result, requestID: request.id)) { request.markFinished() }
        }
        LastError.clear()
        return JumpStatus.ok.rawValue
    }

    static func completion(_ operation: String, _ result: Result<JSON, JumpError>, requestID: UInt64?) -> String {
        var document: [String: JSON] = ["version": 1, "kind": "completion", "operation": .string(operation)]
        if let requestID, let id = Int64(exactly: requestID) { document["request_id"] = .int(id) }
        switch result {
        case .success(let value):
            document["status"] = .int(0)
            document["status_name"] = "JUMP_OK"
            document["result"] = value
        case .failure(let error):
            document["status"] = .int(Int64(error.status.rawValue))
            document["status_name"] = .string(error.status.name)
            document["error"] = error.json
        }
        return Jansson.serialize(.object(document))
    }
}
