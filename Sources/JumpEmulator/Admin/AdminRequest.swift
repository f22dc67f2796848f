import Hummingbird

/// Reading admin requests: a JSON object body (an empty body is `{}`) and typed members.
struct AdminRequest: Sendable {
    let body: [String: JSONValue]
    let query: FormParams

    static func read(_ request: Request, context: EmulatorRequestContext) async throws -> AdminRequest {
        let text = try await RequestBodies.text(request, context: context)
        let query = FormParams(query: request.uri.query, body: nil)
        if text.allSatisfy(\.isWhitespace) { return AdminRequest(body: [:], query: query) }
        guard let object = JSONValue.parse(text)?.objectValue else {
            throw AdminError.badRequest("the body must be a JSON object")
        }
        return AdminRequest(body: object, query: query)
    }

    func string(_ name: String) throws(AdminError) -> String? {
        guard let value = body[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw AdminError.badRequest("\(name) must be a string") }
        return text
    }

    func requiredString(_ name: String) throws(AdminError) -> String {
        guard let text = try string(name), !text.isEmpty else { throw AdminError.badRequest("\(name) is required") }
        return text
    }

    func int(_ name: String) throws(AdminError) -> Int? {
        guard let value = body[name], !value.isNull else { return nil }
        guard let number = value.intValue, let result = Int(exactly: number) else {
            throw AdminError.badRequest("\(name) must be an integer")
        }
        return result
    }

    func number(_ name: String) throws(AdminError) -> Double? {
        switch body[name] {
        case nil, .null?: return nil
        case .int(let value)?: return Double(value)
        case .double(let value)?: return value
        default: throw AdminError.badRequest("\(name) must be a number")
        }
    }

    func bool(_ name: String) throws(AdminError) -> Bool? {
        guard let value = body[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw AdminError.badRequest("\(name) must be true or false") }
        return flag
    }
}
