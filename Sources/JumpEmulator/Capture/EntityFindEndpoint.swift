import Foundation

/// `POST /entity.find`: the app's records a filter matches, one page at a time. API client
/// credentials only.
///
/// Parameters: `type_name`; `filter` (`FilterParser`; all records when absent); `attributes` (JSON
/// array of paths to return, `RecordProjection`); `sort_on` (JSON array, `-` for descending,
/// `RecordOrdering`; `id` order otherwise); `first_result` (1-based position of the first record to
/// return, default 1); `max_results` (1 to 10 000, default 100); `show_total_count` (`true` adds
/// `total_count`, the number of matches before paging).
/// Answer: `{"stat":"ok","result_count":n,"results":[...],"total_count"?:N}`.
struct EntityFindEndpoint: Sendable {
    let emulator: Emulator

    static let defaultMaxResults = 100
    static let maximumMaxResults = 10_000

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireOwner(call)
        let schema = app.schema
        let filter = try Emulator.recordFilter(call, schema: schema)
        let projection: RecordProjection
        let ordering: RecordOrdering
        do {
            projection = try RecordProjection(call.params["attributes"], schema: schema)
        } catch {
            throw error.captureError(argument: "attributes")
        }
        do {
            ordering = try RecordOrdering(call.params["sort_on"], schema: schema)
        } catch {
            throw error.captureError(argument: "sort_on")
        }
        let first = try Self.integer(call, "first_result", default: 1, range: 1...Int.max)
        let limit = try Self.integer(call, "max_results", default: Self.defaultMaxResults,
                                     range: 1...Self.maximumMaxResults)

        let matched = ordering.sorted(try await emulator.records(of: app, matching: filter))
        let page = matched.dropFirst(min(first - 1, matched.count)).prefix(limit).map(projection.project)
        var answer: [String: JSONValue] = [
            "stat": "ok", "result_count": .int(Int64(page.count)), "results": .array(Array(page)),
        ]
        if ["true", "1", "yes"].contains((call.params["show_total_count"] ?? "").lowercased()) {
            answer["total_count"] = .int(Int64(matched.count))
        }
        return .object(answer)
    }

    private static func integer(
        _ call: CaptureCall, _ name: String, default value: Int, range: ClosedRange<Int>
    ) throws(CaptureError) -> Int {
        guard let text = call.params.nonEmpty(name) else { return value }
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
            let bounds = range.upperBound == Int.max
                ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw CaptureError.invalidArgument(name, "\(name) must be an integer \(bounds)")
        }
        return number
    }
}
