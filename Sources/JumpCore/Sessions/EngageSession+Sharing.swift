import JumpRuntime

/// Sharing (docs/protocol.md §4.8): an activity published per provider with the device token of that provider's
/// browser sign-in, and the email / SMS content a host sends itself.
extension EngageSession {
    /// Publishes to each provider in turn; a failure of one does not stop the others. JUMP_E_SERVER when any
    /// failed, with every provider's result in the detail.
    /// `identities`: the Engage identifiers of the signed-in Capture user (nil without Capture): a sharing
    /// token is used only for one of them.
    func share(activity json: JSON, providers: JSON, identities: Set<String>?,
               cancellation: Cancellation? = nil) throws(JumpError) -> JSON {
        let activity = try ShareActivity(json: json)
        guard case .array(let items) = providers, !items.isEmpty else {
            throw .invalidArgument("the providers must be a non-empty JSON array of provider names", argument: "providers")
        }
        var names: [String] = []
        for item in items {
            guard let name = item.stringValue, !name.isEmpty else {
                throw .invalidArgument("the providers must be provider names (strings)", argument: "providers")
            }
            if !names.contains(name) { names.append(name) }
        }
        let config = try engageConfig(cancellation: cancellation)
        if let unknown = names.first(where: { !config.sharingProviders.contains($0) }) {
            throw .invalidArgument("'\(unknown)' is not a sharing provider of this app (it has: \(config.sharingProviders.joined(separator: ", ")))",
                                   argument: "providers")
        }
        var results: [String: JSON] = [:]
        var unknownStatus: JumpStatus?
        for name in names {
            try cancellation?.check()
            guard let deviceToken = deviceToken(for: name, identities: identities) else {
                results[name] = ShareResult.failure(.notSignedIn, code: nil,
                                                    message: "sign in with \(name) through the browser before sharing to it")
                continue
            }
            let useStatus = activity.url.isEmpty && (config.providers[name]?.usesSetStatusWithoutURL ?? false)
            do throws(JumpError) {
                let reply: [String: JSON]
                if useStatus {
                    let status = activity.userGeneratedContent ?? activity.title ?? activity.action
                    reply = try api.setStatus(status, provider: name, deviceToken: deviceToken, cancellation: cancellation)
                } else {
                    reply = try api.shareActivity(activity.wireJSON, provider: name, deviceToken: deviceToken,
                                                        cancellation: cancellation)
                }
                results[name] = ShareResult.json(reply: .object(reply), method: useStatus ? "set_status" : "activity", provider: name)
            } catch where error.status == .cancelled {
                throw error
            } catch {
                results[name] = ShareResult.failure(error)
                if ShareResult.isOutcomeUnknown(results[name]), unknownStatus == nil { unknownStatus = error.status }
            }
        }
        let failed = names.filter { results[$0]?["ok"]?.boolValue != true }
        let unknown = failed.filter { ShareResult.isOutcomeUnknown(results[$0]) }
        if let unknownStatus, !unknown.isEmpty {
            // Not a refusal: nobody knows whether it was published, and sending it again could post it twice.
            throw JumpError(unknownStatus, "whether sharing to \(unknown.joined(separator: ", ")) was applied is not known: "
                            + "its answer was lost after it was sent, and it was not sent again",
                            detail: ["reason": .string(JumpError.outcomeUnknownReason), "results": .object(results),
                                     "failed": .array(failed.map(JSON.string)), "unknown": .array(unknown.map(JSON.string))])
        }
        guard failed.isEmpty else {
            throw JumpError(.server, "sharing failed for \(failed.joined(separator: ", "))",
                            detail: ["results": .object(results), "failed": .array(failed.map(JSON.string))])
        }
        return ["results": .object(results)]
    }

    /// The email and SMS text with shortened URLs (long ones when shortening fails); the share is recorded
    /// with Engage, best effort.
    public func shareContent(activity json: JSON, cancellation: Cancellation? = nil) throws(JumpError) -> JSON {
        let content = ShareContent(activity: try ShareActivity(json: json))
        var shortened: JSON = .null
        let wanted = content.emailURLs.count + content.smsURLs.count
        if wanted > 0 {
            do throws(JumpError) {
                let config = try engageConfig(cancellation: cancellation)
                shortened = try api.shortenURLs(content.urlsToShorten, config: config, cancellation: cancellation)
            } catch where error.status == .cancelled {
                throw error
            } catch {
                Log.warning("the share URLs could not be shortened: \(error.message)")
            }
        }
        for method in ["email", "sms"] {
            do throws(JumpError) { try api.recordActivity(method: method, cancellation: cancellation) } catch {
                if error.status == .cancelled { throw error }
            }
        }
        return content.build(shortened: shortened)
    }
}
