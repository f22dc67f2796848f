/// `sort_on` of `entity.find`: a JSON array of attribute paths, each optionally prefixed with `-`
/// for descending order (`["-lastUpdated", "id"]`). Values compare by type (`QueryValue`); nulls
/// come last in ascending order and first in descending order, as in PostgreSQL, Capture's store.
/// Records equal on every key stay in `id` order, so paging is stable.
struct RecordOrdering: Sendable {
    private struct Key: Sendable {
        var lookup: AttributeLookup
        var descending: Bool
    }

    private let keys: [Key]

    /// An empty array, or no `sort_on` at all, keeps `id` order.
    init(_ text: String?, schema: Schema) throws(FilterError) {
        guard let text, !text.allSatisfy(\.isWhitespace) else {
            keys = []
            return
        }
        guard let list = JSONValue.parse(text)?.arrayValue else {
            throw FilterError("sort_on must be a JSON array of attribute names")
        }
        var keys: [Key] = []
        for item in list {
            guard var name = item.stringValue else { throw FilterError("sort_on must hold attribute names") }
            let descending = name.hasPrefix("-")
            if descending { name.removeFirst() }
            let lookup = try AttributeLookup(name, schema: schema)
            guard !lookup.isMultiValued, QueryValue.isComparable(lookup.attribute) else {
                throw FilterError("\(name) cannot be sorted on: it is not a single value")
            }
            keys.append(Key(lookup: lookup, descending: descending))
        }
        self.keys = keys
    }

    /// Sorts records (already in `id` order) by the keys; the sort is stable.
    func sorted(_ records: [JSONValue]) -> [JSONValue] {
        guard !keys.isEmpty else { return records }
        let decorated = records.enumerated().map { position, record in
            (position, keys.map { key in
                key.lookup.values(in: record).first.flatMap {
                    QueryValue.fromRecord($0, attribute: key.lookup.attribute)
                }
            }, record)
        }
        return decorated.sorted { lhs, rhs in
            for (index, key) in keys.enumerated() {
                let order = Self.compare(lhs.1[index], rhs.1[index])
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return lhs.0 < rhs.0
        }.map(\.2)
    }

    /// Ascending order with nulls last (descending then puts them first).
    private static func compare(_ lhs: QueryValue?, _ rhs: QueryValue?) -> Int {
        switch (lhs, rhs) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let a?, let b?): return QueryValue.compare(a, b) ?? 0
        }
    }
}
