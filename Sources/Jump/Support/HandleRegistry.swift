import Glibc
import JumpCore
import JumpRuntime
import Synchronization

/// What a C handle refers to. The C side holds an opaque token, never a Swift pointer: a token is looked up
/// in this table before anything is touched, so a freed, foreign or wrong-kind handle is an error code,
/// not a crash.
enum HandleKind: String, Sendable {
    case config = "jump_config"
    case client = "jump_client"
    case record = "jump_record"
    case request = "jump_request"
}

/// A slot table. A token is `magic << 48 | generation << 26 | index << 4`: the magic and the zero low bits
/// keep it looking like an aligned pointer that no real allocation has (and make a stray integer or a pointer
/// from elsewhere fail the magic check), the index finds the slot without a search, and the generation,
/// bumped when the handle is freed, makes the old token stale when the slot is reused.
///
/// Lookups are the hot path (every C call with a handle), so they take no global lock: slots live in
/// fixed-size chunks that are never freed or moved, reached through a fixed directory whose entries are
/// published once, with release/acquire. Each slot has its own lock, under which a lookup checks generation
/// and kind and retains the object, so a concurrent free of the same handle either happens before (the
/// lookup fails) or after (the lookup's reference keeps the object alive). Only register and remove take
/// the global lock, for the free list.
///
/// Generation wrap: the generation has 22 bits, so a stale token matches again only once its slot has been
/// reused 4,194,304 times; and since a freed slot is reused only after `reuseDelay` other slots are free
/// (least recently freed first), that takes at least about 4 * 10^9 frees of other handles in between while
/// the host still keeps the stale token. Below that, a stale token is always an error code.
final class HandleRegistry: @unchecked Sendable {  // the raw pointers are written once (directory) or under a lock (slots)
    static let shared = HandleRegistry()

    private static let magic: UInt = 0x4A55 << 48
    private static let magicMask: UInt = 0xFFFF << 48
    private static let indexShift = 4
    private static let indexBits = 22
    private static let generationShift = 26
    private static let generationMask: UInt32 = (1 << 22) - 1
    private static let chunkShift = 10
    private static let chunkSize = 1 << chunkShift
    private static let chunkCount = (1 << indexBits) >> chunkShift
    private static let capacity = 1 << indexBits
    /// Fresh slots are handed out while fewer than this are free, so the generations of one hot slot do not
    /// race ahead when a host creates and frees handles in a loop.
    private static let reuseDelay = chunkSize

    private struct Slot {
        var generation: UInt32 = 0
        var kind: HandleKind?
        var object: (any Sendable & AnyObject)?
    }

    /// A slot and its lock, in two arrays of a chunk (pthread mutexes must not move: they never do here).
    private struct SlotPointer {
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let slot: UnsafeMutablePointer<Slot>

        @inline(__always)
        func withLock<Result>(_ body: (inout Slot) -> Result) -> Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&slot.pointee)
        }
    }

    /// Free slots, least recently freed first (`head` is the front; the array is compacted now and then).
    private struct FreeList {
        var free: [Int] = []
        var head = 0
        var allocated = 0

        var freeCount: Int { free.count - head }

        mutating func popFront() -> Int {
            let index = free[head]
            head += 1
            if head >= 1024 && head * 2 >= free.count {
                free.removeFirst(head)
                head = 0
            }
            return index
        }
    }

    /// Chunk addresses (0: not allocated yet), indexed by `index >> chunkShift`: the slots, and their locks.
    /// Never freed: the registry lives as long as the process.
    private let directory: UnsafeMutablePointer<Atomic<UInt>>
    private let mutexDirectory: UnsafeMutablePointer<Atomic<UInt>>
    private let freeList = Lock(FreeList())

    private init() {
        directory = .allocate(capacity: Self.chunkCount)
        mutexDirectory = .allocate(capacity: Self.chunkCount)
        for i in 0..<Self.chunkCount {
            (directory + i).initialize(to: Atomic(0))
            (mutexDirectory + i).initialize(to: Atomic(0))
        }
    }

    func register(_ object: some Sendable & AnyObject, as kind: HandleKind) -> OpaquePointer? {
        guard let index = freeList.withLock({ takeSlot(&$0) }) else { return nil }
        guard let slot = slot(at: index) else { return nil }
        let generation = slot.withLock { s -> UInt32 in
            s.kind = kind
            s.object = object
            return s.generation
        }
        return OpaquePointer(bitPattern: Self.magic | UInt(generation) << Self.generationShift | UInt(index) << Self.indexShift)
    }

    func lookup<T: Sendable & AnyObject>(_ handle: OpaquePointer?, as kind: HandleKind, _ type: T.Type) throws(ABIError) -> T {
        ForkSafety.runDeferredChildWork()  // a forked child's first use of libjump
        guard let handle else { throw ABIError(.invalidHandle, "the \(kind.rawValue) handle is NULL") }
        let token = UInt(bitPattern: handle)
        var other: HandleKind?
        var object: (any Sendable & AnyObject)?
        if let (slot, generation) = decode(token) {
            object = slot.withLock { s -> (any Sendable & AnyObject)? in
                guard s.generation == generation, let found = s.kind else { return nil }
                guard found == kind else {
                    other = found
                    return nil
                }
                return s.object
            }
        }
        guard let object else {
            if let other {
                throw ABIError(.invalidHandle, "a \(other.rawValue) handle was passed where a \(kind.rawValue) handle is expected")
            }
            throw ABIError(.invalidHandle, "the \(kind.rawValue) handle is not valid (already freed, or never created by libjump)")
        }
        // The kind decides the class, so the exact-class test passes and spares a dynamic cast.
        if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self) { return unsafeDowncast(object, to: T.self) }
        guard let typed = object as? T else {
            throw ABIError(.invalidHandle, "the \(kind.rawValue) handle does not hold a \(T.self)")
        }
        return typed
    }

    /// Removes the handle; nil when it was not a live handle of that kind (a double free is harmless).
    @discardableResult
    func remove(_ handle: OpaquePointer?, as kind: HandleKind) -> (any Sendable & AnyObject)? {
        guard let handle else { return nil }
        let token = UInt(bitPattern: handle)
        guard let (slot, generation) = decode(token) else { return nil }
        let object = slot.withLock { s -> (any Sendable & AnyObject)? in
            guard s.generation == generation, s.kind == kind, let object = s.object else { return nil }
            s.kind = nil
            s.object = nil
            s.generation = (s.generation &+ 1) & Self.generationMask
            return object
        }
        guard object != nil else { return nil }
        let index = Int((token >> Self.indexShift) & UInt(Self.capacity - 1))
        freeList.withLock { $0.free.append(index) }
        return object
    }

    /// The slot and generation a token names; nil for a token libjump cannot have made.
    @inline(__always)
    private func decode(_ token: UInt) -> (SlotPointer, UInt32)? {
        guard token & Self.magicMask == Self.magic, token & 0xF == 0 else { return nil }
        let index = Int((token >> Self.indexShift) & UInt(Self.capacity - 1))
        guard let slot = slot(at: index) else { return nil }
        return (slot, UInt32(truncatingIfNeeded: token >> Self.generationShift) & Self.generationMask)
    }

    @inline(__always)
    private func slot(at index: Int) -> SlotPointer? {
        let chunk = directory[index >> Self.chunkShift].load(ordering: .acquiring)
        guard let slots = UnsafeMutablePointer<Slot>(bitPattern: chunk),
              let mutexes = UnsafeMutablePointer<pthread_mutex_t>(
                  bitPattern: mutexDirectory[index >> Self.chunkShift].load(ordering: .acquiring))
        else { return nil }
        let offset = index & (Self.chunkSize - 1)
        return SlotPointer(mutex: mutexes + offset, slot: slots + offset)
    }

    /// Under the free-list lock. nil when every slot holds a live handle.
    private func takeSlot(_ list: inout FreeList) -> Int? {
        if list.freeCount > Self.reuseDelay || (list.freeCount > 0 && list.allocated == Self.capacity) {
            return list.popFront()
        }
        guard list.allocated < Self.capacity else { return nil }
        let index = list.allocated
        if index & (Self.chunkSize - 1) == 0 {
            let slots = UnsafeMutablePointer<Slot>.allocate(capacity: Self.chunkSize)
            slots.initialize(repeating: Slot(), count: Self.chunkSize)
            let mutexes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: Self.chunkSize)
            for i in 0..<Self.chunkSize { pthread_mutex_init(mutexes + i, nil) }
            // Released, the slots last: a lookup that sees their address sees the initialized locks and slots.
            mutexDirectory[index >> Self.chunkShift].store(UInt(bitPattern: mutexes), ordering: .releasing)
            directory[index >> Self.chunkShift].store(UInt(bitPattern: slots), ordering: .releasing)
        }
        list.allocated += 1
        return index
    }

    // fork(): the free list's lock, then every allocated slot's (the free list's lock keeps `allocated` still).
    func forkPrepare() {
        freeList.lockForFork()
        forEachAllocatedMutex { pthread_mutex_lock($0) }
    }

    func forkParent() {
        forEachAllocatedMutex { pthread_mutex_unlock($0) }
        freeList.unlockAfterFork()
    }

    func forkChild() { forkParent() }

    /// Under the free list's lock, taken for fork().
    private func forEachAllocatedMutex(_ body: (UnsafeMutablePointer<pthread_mutex_t>) -> Void) {
        let allocated = freeList.withValueWhileHeld { $0.allocated }
        for index in 0..<allocated {
            if let slot = slot(at: index) { body(slot.mutex) }
        }
    }
}
