import Glibc

/// Runs work on a thread libjump owns: the fiber pool's threads, the I/O loop, the loopback sign-in's wait
/// for the browser, `open_url` from an _async call (docs/design-io.md); an _async call's own work when no
/// fiber can be made. Not a libdispatch worker: the work calls host code (storage callbacks, open_url,
/// authenticate), and a host runtime may end a foreign thread that calls into it while it shuts down
/// (CPython does), which libdispatch takes as fatal.
public enum WorkerThread {
    public static func start(_ job: @escaping @Sendable () -> Void) {
        if !start(named: "jump-work", job) {
            job()  // no thread to be had: do the work here rather than lose the completion
        }
    }

    /// Starts `job` on a new detached thread called `name`; false when the system gives no thread.
    @discardableResult
    public static func start(named name: String, _ job: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(JobBox(name, job)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // Generous: the work walks records and parses answers (bounded by JUMP_JSON_MAX_DEPTH).
        pthread_attr_setstacksize(&attributes, 1 << 20)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            let job = Unmanaged<JobBox>.fromOpaque(context).takeRetainedValue()
            WorkerThread.nameThisThread(job.name)
            job.run()
            return nil
        }, box)
        if created != 0 {
            Unmanaged<JobBox>.fromOpaque(box).release()
            return false
        }
        return true
    }

    /// Names the calling thread (what debuggers, `top -H` and host code see). Through procfs, because
    /// pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc module does not define.
    public static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = name.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    private final class JobBox {
        let name: String
        let run: @Sendable () -> Void
        init(_ name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
