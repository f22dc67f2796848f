/// The flows this process has parsed, one copy per distinct document: every client of one app holds the
/// same parsed flow (about 19 KiB each otherwise, a thousand copies in a server holding a client per user;
/// docs/design-io.md, "What it costs"). A `Flow` is a value, so sharing it changes nothing a client sees.
enum SharedFlows {
    /// Distinct documents kept (an app has one flow per locale and version).
    static let kept = 8

    struct Entry {
        /// The server's answer, as it came: the next identical answer is not parsed again.
        let answer: [UInt8]
        let flow: Flow
        /// The flow as libjump caches it on storage.
        let bytes: [UInt8]
    }

    private static let recent = ForkSafety.processWide(Lock<[Entry]>([]))

    /// The flow parsed earlier from this very answer, if one is held.
    static func parsed(answer: [UInt8]) -> Entry? {
        recent.withLock { list in list.first { $0.answer == answer } }
    }

    /// The copy already held for a flow serialized as `bytes`, else `flow`, now held for `answer`.
    static func intern(_ flow: Flow, bytes: [UInt8], answer: [UInt8]) -> Flow {
        recent.withLock { list -> Flow in
            if let index = list.firstIndex(where: { $0.bytes == bytes }) { return list[index].flow }
            list.append(Entry(answer: answer, flow: flow, bytes: bytes))
            if list.count > kept { list.removeFirst() }
            return flow
        }
    }
}
