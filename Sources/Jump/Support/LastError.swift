import Glibc
import JumpCore

/// The thread-local detail behind jump_error_last(): a malloc'd JSON string per thread, replaced at the
/// next failure and freed when the thread exits.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// Static text for "no failure yet on this thread".
    nonisolated(unsafe) static let none: UnsafePointer<CChar> = StaticCString.make("{\"message\":\"no error\",\"status\":0,\"status_name\":\"JUMP_OK\"}")

    static func set(_ error: JumpError) {
        let text = strdup(Jansson.serialize(error.json))
        free(pthread_getspecific(key))
        pthread_setspecific(key, text)
    }

    /// A detail serialized once (an answer given at a high rate, such as "no event is waiting" to a host
    /// that pumps every frame): copied, not built again.
    static func set(serialized text: UnsafePointer<CChar>) {
        let copy = strdup(text)
        free(pthread_getspecific(key))
        pthread_setspecific(key, copy)
    }

    static func clear() {
        guard let old = pthread_getspecific(key) else { return }
        free(old)
        pthread_setspecific(key, nil)
    }

    static func current() -> UnsafePointer<CChar> {
        guard let text = pthread_getspecific(key) else { return none }
        return UnsafePointer(text.assumingMemoryBound(to: CChar.self))
    }
}

/// C strings that live as long as the process (version, status descriptions).
enum StaticCString {
    static func make(_ text: String) -> UnsafePointer<CChar> {
        if let copy = strdup(text) { return UnsafePointer(copy) }
        // Out of memory at start-up: an empty literal still honours "never NULL".
        return StaticCString.empty
    }

    nonisolated(unsafe) static let empty: UnsafePointer<CChar> = {
        let raw = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        raw.initialize(to: 0)
        return UnsafePointer(raw)
    }()
}
