import JumpRuntime

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
        return schemaCache.load(RecordSchema.init(document:))
    }

    /// Downloads the record schema (and the client's access schema when the server tells it) and caches it.
    /// Capture serves /entityType to a signed-in user's access token or to owner credentials, which an app
    /// never holds: without a session this is refused here (ship the schema in captureSchemaFile instead).
    public func loadSchema(cancellation: Cancellation? = nil) throws(JumpError) {
        guard isSignedIn else {
            throw JumpError(.notSignedIn, "loading the schema needs a signed-in user (Capture answers /entityType only to an "
                            + "access token or to owner credentials); ship it with the app in captureSchemaFile instead")
        }
        let (answer, _) = try authorized(cancellation: cancellation) { token throws(JumpError) in
            var parameters = FormParameters()
            parameters.add("type_name", "user")
            parameters.add("access_token", token)
            return try capture.post("/entityType", parameters, cancellation: cancellation)
        }
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
        schemaCache.save(Jansson.serializedBytes(.object(document)))
    }
}
