/// First in, first out, in one array with a head index. A popped slot is emptied as it is popped, so that
/// what it held is released by the caller, outside any lock around the queue (a callback job's captures may
/// end with a deinit that posts to the same queue).
public struct FIFO<Element> {
    private var slots: [Element?] = []
    private var head = 0

    public init() {}

    public var count: Int { slots.count - head }
    public var isEmpty: Bool { head == slots.count }

    public mutating func append(_ element: Element) { slots.append(element) }

    public mutating func pop() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }
}
