import Dispatch
import Synchronization

/// One access-token refresh in progress; every caller that needs it waits for the same outcome.
final class RefreshFlight: Sendable {
    private let outcome = Mutex<Result<String, JumpError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: Result<String, JumpError>) {
        outcome.withLock { $0 = result }
        done.signal()
    }

    func wait() throws(JumpError) -> String {
        done.wait()
        done.signal()  // let the next waiter through too
        let result = outcome.withLock { $0 } ?? .failure(.internal("a token refresh finished without an outcome"))
        return try result.get()
    }
}
