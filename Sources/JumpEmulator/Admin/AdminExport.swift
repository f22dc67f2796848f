import Hummingbird

/// `POST /emulator/export`: the document `--export-on-exit` writes, from the state at the time of the call
/// and by the same code (`Emulator.exportDocument`, `ExportDocument.encoded`), so a set-up can be saved
/// without stopping the emulator and loaded with `--import`. A POST, not a GET: the document holds client
/// secrets and password hashes, and `CrossSiteGuard` only judges requests that act.
struct AdminExport: Sendable {
    let emulator: Emulator

    /// The file's bytes; `attachment` has a browser save them under the name `--export-on-exit` uses in a
    /// directory (the dashboard's Export button).
    func response(attachment: Bool = false) async throws -> Response {
        let data = try await emulator.exportDocument().encoded()
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        if attachment {
            headers[.contentDisposition] = "attachment; filename=\"\(ExportDocument.defaultFileName)\""
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
