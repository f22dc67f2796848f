/// The fake identity provider's sign-in page: one form per test identity ("Continue as ..."), a form that
/// makes a new identity, and a cancel form. Each form posts to the provider's callback with the start
/// parameters as hidden inputs.
struct EngageSignInPage: Sendable {
    var friendlyName: String
    var callbackPath: String
    var identities: [EngageIdentityRow]
    var hidden: [(String, String)]
    var forceReauth: Bool
    var error: String?

    var html: String {
        let e = EngageHTML.escape
        let title = "Sign in with \(friendlyName) (jump-emulator)"
        let hiddenInputs = hidden.map { "<input type=\"hidden\" name=\"\(e($0.0))\" value=\"\(e($0.1))\">" }.joined()
        let open = "<form method=\"post\" action=\"\(e(callbackPath))\">\(hiddenInputs)"
        var body = "<h1>Sign in with \(e(friendlyName))</h1>\n"
        if forceReauth {
            body += "<p class=\"note\" id=\"reauth\">Re-authentication requested</p>\n"
        }
        if let error {
            body += "<p class=\"error\" role=\"alert\">\(e(error))</p>\n"
        }
        body += "<h2>Test identities</h2>\n"
        if identities.isEmpty {
            body += "<p>No test identities yet.</p>\n"
        } else {
            body += "<ul>\n"
            for (index, identity) in identities.enumerated() {
                let profile = identity.profile
                let name = profile["displayName"]?.stringValue ?? identity.identifier
                let email = profile["email"]?.stringValue ?? "no email"
                body += "<li>\(open)<button type=\"submit\" id=\"identity-\(index + 1)\" name=\"identity_id\" "
                    + "value=\"\(identity.id ?? 0)\">Continue as \(e(name)) (\(e(email)))</button></form></li>\n"
            }
            body += "</ul>\n"
        }
        body += """
            <h2>New identity</h2>
            \(open)<label>Name <input type="text" id="new-name" name="display_name"></label>
            <label>Email <input type="email" id="new-email" name="email"></label>
            <button type="submit" id="create-identity">Create and continue</button></form>
            \(open)<button type="submit" id="cancel" name="cancel" value="1">Cancel</button></form>

            """
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(e(title))</title></head>
            <body>
            \(body)</body></html>
            """
    }
}
