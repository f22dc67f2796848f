import Glibc
import JumpCore
import JumpRuntime

/// Queue mode (jump_client_use_event_queue): a client's completions and events wait here until the host
/// pumps them with jump_client_next_event, on its own thread, once per frame or when `fd` is readable. Game
/// engines, Node.js and IL2CPP cannot take callbacks on a thread of libjump's; in this mode none arrives.
/// `fd` (the read end of a pipe holding one byte while the queue holds something) is readable exactly
/// while there is something to pump: asyncio's add_reader, libuv and Go can wait on it without a thread.
final class EventQueue: Sendable {
    /// One queued document, with the host callback it was meant for (an async call given one anyway): that
    /// callback runs inside jump_client_next_event, on the pumping thread.
    struct Item: @unchecked Sendable {
        let text: String
        let target: CallbackTarget?
        /// A client event (it goes to the event callback if queue mode ends before it is pumped).
        var isEvent = false
    }

    /// First in, first out; popped slots are emptied and the front is dropped in batches, so a long backlog
    /// drains in linear time (Array.removeFirst would move the rest at every pop).
    private struct Pending {
        var slots: [Item?] = []
        var head = 0
        var isEmpty: Bool { head == slots.count }
    }

    private let items = Lock(Pending())
    let fd: Int32
    private let writeEnd: Int32

    /// nil when the system gives no pipe (the caller reports it).
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        fd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        _ = close(fd)
        _ = close(writeEnd)
    }

    func push(_ item: Item) {
        items.withLock { queue in
            // One byte in the pipe (readable) from the first item until the queue is drained.
            if queue.isEmpty { signal() }
            queue.slots.append(item)
        }
    }

    /// The oldest item, or nil when the queue is empty (never blocks).
    func pop() -> Item? {
        items.withLock { queue in
            guard !queue.isEmpty else { return nil }
            let item = queue.slots[queue.head]
            queue.slots[queue.head] = nil
            queue.head += 1
            if queue.isEmpty {
                queue = Pending()
                drain()
            } else if queue.head >= 64 && queue.head * 2 >= queue.slots.count {
                queue.slots.removeFirst(queue.head)
                queue.head = 0
            }
            return item
        }
    }

    /// Everything still queued (queue mode ended): the caller delivers it the ordinary way.
    func takeAll() -> [Item] {
        items.withLock { queue in
            defer { queue = Pending() }
            if !queue.isEmpty { drain() }
            return queue.slots[queue.head...].compactMap { $0 }
        }
    }

    private func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    private func drain() {
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {}
    }
}
