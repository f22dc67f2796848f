import Crypto
import Foundation

/// The answer of `GET /openid/mobile_config_and_baseurl` (docs/protocol.md §4.2) and its ETag.
struct EngageConfigDocument: Sendable {
    let body: [UInt8]
    /// Quoted, as HTTP wants it: `"<hex>"`.
    let etag: String

    init(app: EngageApp, base: String) {
        let document: JSONValue = [
            "baseurl": .string(base + "/"),
            "enabled_providers": .array(app.providers.map(JSONValue.string)),
            "social_providers": .array(app.sharingProviders.map(JSONValue.string)),
            "hide_tagline": "NO",
            "provider_info": .object(app.providerInfo),
        ]
        // The writer sorts members, so the same app and base always give the same bytes and tag.
        body = document.serializedBytes()
        let digest = SHA256.hash(data: body)
        etag = "\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// `If-None-Match` holds this document's tag (a list, weak tags and `*` included).
    func matches(ifNoneMatch header: String?) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
