/// Turns an HTTP answer into the JSON object a Capture or flow endpoint promised, or into an error that
/// says what the server sent instead (HTML, nothing, garbage), so an app developer can tell a proxy page
/// from an outage.
enum ResponseDecoder {
    /// Takes the response: its body is released as soon as it is parsed (pass `consume response`).
    static func object(from response: consuming HTTPResponse, of request: HTTPRequest) throws(JumpError) -> [String: JSON] {
        let target = "\(request.method) \(request.redactedURL)"
        let status = response.status
        var chunks = response.chunks
        response.chunks = []
        let size = chunks.reduce(0) { $0 + $1.count }
        let firstByte = chunks.lazy.compactMap { chunk in chunk.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } }.first
        guard let firstByte else {
            throw JumpError(.server, "\(target) answered HTTP \(status) with an empty body instead of JSON",
                            detail: ["http_status": .int(Int64(status))])
        }
        let contentType = response.contentType ?? "no content type"
        if firstByte == UInt8(ascii: "<") {
            throw JumpError(.server, "\(target) answered HTTP \(status) with HTML (\(contentType), \(size) bytes) instead of JSON",
                            detail: ["http_status": .int(Int64(status))])
        }
        let parsed: JSON
        do {
            parsed = try Jansson.parse(takingChunks: &chunks, what: "the response", deadline: response.deadline)
        } catch where error.status == .timeout {
            throw JumpError(.timeout, "\(target) answered, but reading its \(size) bytes took longer than the request's time "
                            + "(requestTimeoutMs)", detail: ["http_status": .int(Int64(status))])
        } catch {
            throw JumpError(.server, "\(target) answered HTTP \(status) with malformed JSON (\(contentType), \(size) bytes): \(error.message)",
                            detail: ["http_status": .int(Int64(status))])
        }
        guard case .object(let object) = parsed else {
            throw JumpError(.server, "\(target) answered HTTP \(status) with a JSON \(parsed.typeName) instead of an object",
                            detail: ["http_status": .int(Int64(status))])
        }
        return object
    }
}
