/// The flows this process has parsed, one copy per distinct document: every client of one app holds the
/// same parsed flow (about 19 KiB each otherwise, a thousand copies in a server holding a client per user;
/// docs/design-io.md, "What it costs"). A `Flow` is a value, so sharing it changes nothing a client sees.
enum SharedFlows {
    /// Distinct documents kept (an app has one flow per locale and version).
    static let kept = 8

    private static let recent = ForkSafety.processWide(Lock<[(bytes: [UInt8], flow: Flow)]>([]))

    /// The copy already held for a flow serialized as `bytes`, else `flow`, now held.
    static func intern(_ flow: Flow, bytes: [UInt8]) -> Flow {
        recent.withLock { list -> Flow in
            if let index = list.firstIndex(where: { $0.bytes == bytes }) { return list[index].flow }
            list.append((bytes, flow))
            if list.count > kept { list.removeFirst() }
            return flow
        }
    }
}
