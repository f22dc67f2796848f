extension CaptureSession {
    /// The schema at start-up: the configured file, else the copy cached by the last load.
    func initialSchema() throws(JumpError) -> RecordSchema? {
        if let path = settings.schemaFile {
            let slash = path.lastIndex(of: "/")
            let directory = slash.map { String(path[..<$0]) } ?? "."
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            let bytes: [UInt8]?
            do {
                bytes = try FileSessionStore(directory: directory.isEmpty ? "/" : directory, fileName: name).load()
            } catch {
                throw .invalidArgument("captureSchemaFile '\(path)' cannot be read: \(error.message)", argument: "captureSchemaFile")
            }
            guard let bytes else {
                throw .invalidArgument("captureSchemaFile '\(path)' does not exist", argument: "captureSchemaFile")
            }
            do {
                return try RecordSchema(document: try Jansson.parse(bytes, what: "captureSchemaFile"))
            } catch {
                throw .invalidArgument("captureSchemaFile '\(path)': \(error.message)", argument: "captureSchemaFile")
            }
        }
        guard let bytes = try? schemaStore?.load(), let document = try? Jansson.parse(bytes, what: "the cached schema") else {
            return nil
        }
        return try? RecordSchema(document: document)
    }

    /// Downloads the record schema (and the client's access schema when the server tells it) and caches it.
    public func loadSchema(cancellation: Cancellation? = nil) throws(JumpError) {
        var parameters = FormParameters()
        parameters.add("type_name", "user")
        if let clientID = settings.clientID { parameters.add("client_id", clientID) }
        let answer = try capture.post("/entityType", parameters, cancellation: cancellation)
        var document: [String: JSON] = [:]
        document["schema"] = answer["schema"]
        document["access_schema"] = answer["access_schema"] ?? answer["schema"]?["access_schema"]
        let schema: RecordSchema
        do {
            schema = try RecordSchema(document: .object(document))
        } catch {
            throw JumpError(.server, "the /entityType answer is not a schema: \(error.message)")
        }
        state.withLock { $0.schema = schema }
        do { try schemaStore?.save(Array(Jansson.serialize(.object(document)).utf8)) } catch {
            Log.warning("the schema could not be cached: \(error.message)")
        }
    }
}
