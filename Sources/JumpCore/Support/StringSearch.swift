/// Substring search by UTF-8 bytes. The standard library's own (`contains(_:)`, `firstRange(of:)`,
/// `replacing(_:with:)` on strings) lives in _StringProcessing, whose 1.1 MiB would be linked into libjump.so
/// for these few calls; every needle libjump searches for is ASCII, where bytes and characters agree.
extension String {
    func contains(_ needle: String) -> Bool { firstRange(of: needle) != nil }

    func firstRange(of needle: String) -> Range<String.Index>? {
        let haystack = utf8, pattern = needle.utf8
        guard let first = pattern.first else { return startIndex..<startIndex }
        var start = haystack.startIndex
        while let candidate = haystack[start...].firstIndex(of: first) {
            var h = candidate, p = pattern.startIndex
            while p != pattern.endIndex, h != haystack.endIndex, haystack[h] == pattern[p] {
                h = haystack.index(after: h)
                p = pattern.index(after: p)
            }
            if p == pattern.endIndex { return candidate..<h }
            if h == haystack.endIndex { return nil }
            start = haystack.index(after: candidate)
        }
        return nil
    }

    func replacing(_ needle: String, with replacement: String) -> String {
        guard !needle.isEmpty else { return self }
        var result = "", text = self
        while let range = text.firstRange(of: needle) {
            result += text[..<range.lowerBound]
            result += replacement
            text = String(text[range.upperBound...])
        }
        return result + text
    }
}
