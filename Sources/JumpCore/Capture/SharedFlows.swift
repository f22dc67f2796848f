import JumpRuntime

/// The flows this process has parsed, one copy per distinct answer of the server: every client of one app holds the
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

    /// Holds `flow`, parsed from `answer`, for the clients that get the same answer next.
    static func remember(_ entry: Entry) {
        recent.withLock { list in
            guard !list.contains(where: { $0.answer == entry.answer }) else { return }
            list.append(entry)
            if list.count > kept { list.removeFirst() }
        }
    }
}
