import Glibc
import JumpRuntime

/// Processes that share a storage directory (a CLI run twice, an app and its helper) take turns through
/// flock(2) on the directory itself: no lock file (the directory keeps one file per installation), and the
/// kernel releases the lock when a process dies, so nothing is ever stale. Threads of one client share the
/// holding (their own locks order them); another client of the same process opens the directory anew and
/// takes turns like another process.
extension FileSessionStore {
    struct Sharing {
        /// Nested holders of this store's lock; the directory is open (`fd`, which holds the flock) while
        /// there is one.
        var holders = 0
        var fd: Int32 = -1
        /// A thread of this client is taking the lock now (the others wait for it rather than open another).
        var taking = false
        /// The file as this store last read or wrote it.
        var stamp: Stamp?
        /// State copied from the parent by fork() belongs to the parent: the child starts without.
        var epoch = ForkSafety.epoch
    }

    struct Stamp: Equatable {
        var device: UInt
        var inode: UInt
        var size: Int
        var modified: timespec

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        }

        init(_ info: stat) {
            device = UInt(info.st_dev)
            inode = UInt(info.st_ino)
            size = Int(info.st_size)
            modified = info.st_mtim
        }

        /// The file at `path` now; nil when there is none.
        static func of(_ path: String) -> Stamp? {
            var info = stat()
            return stat(path, &info) == 0 ? Stamp(info) : nil
        }
    }

    public func withExclusiveAccess<Result>(timeoutMilliseconds: Int,
                                            _ body: () throws(JumpError) -> Result) throws(JumpError) -> Result {
        let (deadline, isCall) = CallDeadline.bound(Clock.monotonicMilliseconds() + Int64(max(timeoutMilliseconds, 0)))
        do { try acquire(deadline: deadline) } catch {
            throw isCall && error.status == .timeout ? CallDeadline.exceeded(waitingFor: "the shared store's lock") : error
        }
        defer { release() }
        return try body()
    }

    public var changedElsewhere: Bool {
        let now = Stamp.of(path)
        return sharing.withLock { $0.stamp } != now
    }

    /// Records the file as this store leaves it (after its own load or save).
    func noteOwnAccess() {
        let now = Stamp.of(path)
        sharing.withLock { $0.stamp = now }
    }

    private enum Step { case joined, take, wait }

    private func acquire(deadline: Int64) throws(JumpError) {
        while true {
            let step = sharing.withLock { s -> Step in
                if s.epoch != ForkSafety.epoch {
                    // The parent's copy of the locked directory stays open in the child otherwise, and with it the lock.
                    if s.fd >= 0 { close(s.fd) }
                    s = Sharing()
                }
                if s.holders > 0 {
                    s.holders += 1
                    return .joined
                }
                if s.taking { return .wait }
                s.taking = true
                return .take
            }
            switch step {
            case .joined:
                return
            case .wait:
                if Clock.monotonicMilliseconds() >= deadline { throw lockTimeout() }
                Fiber.pause(milliseconds: 2)
            case .take:
                let result = FiberPool.blocking { takeFileLock(deadline: deadline) }
                sharing.withLock { s in
                    s.taking = false
                    if case .success(let fd) = result {
                        s.fd = fd
                        s.holders = 1
                    }
                }
                if case .failure(let error) = result { throw error }
                return
            }
        }
    }

    private func release() {
        sharing.withLock { s in
            guard s.holders > 0 else { return }
            s.holders -= 1
            if s.holders == 0, s.fd >= 0 {
                // Released explicitly: a child forked meanwhile holds a copy of the descriptor, and close()
                // alone would leave the lock held until that copy goes too.
                _ = flock(s.fd, LOCK_UN)
                close(s.fd)
                s.fd = -1
            }
        }
    }

    /// Opens the directory and waits for its lock, polling so that the wait has a deadline.
    @inline(never)  // it reads errno: never inlined into the caller's loop, which may park (docs/design-io.md)
    private func takeFileLock(deadline: Int64) -> Result<Int32, JumpError> {
        var fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT {
            do { try FileSessionStore.makeDirectory(directory) } catch { return .failure(error) }
            fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard fd >= 0 else {
            return .failure(JumpError(.storage, "cannot open the storage directory \(directory) to lock it: \(String(cString: strerror(errno)))",
                                      detail: ["errno": .int(Int64(errno))]))
        }
        var pause: UInt32 = 1_000
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                return .failure(JumpError(.storage, "cannot lock the storage directory \(directory): \(String(cString: strerror(code)))",
                                          detail: ["errno": .int(Int64(code))]))
            }
            if Clock.monotonicMilliseconds() >= deadline {
                close(fd)
                return .failure(lockTimeout())
            }
            // Blocks even on a fiber (inside FiberPool.blocking, so other fibers get a thread meanwhile): the
            // wait is for another process, bounded by the deadline, and the caller may hold a Lock.
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        return .success(fd)
    }

    private func lockTimeout() -> JumpError {
        JumpError(.timeout, "another process sharing the storage directory held its lock for longer than the request timeout")
    }
}
