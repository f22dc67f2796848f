/// `/emulator/ui/tokens`: Capture access tokens, newest first, shortened (the page is for people).
enum TokensTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Access tokens · jump-emulator{{/title}}
        {{$main}}
        <h1>Access tokens</h1>
        <p class="lead">{{liveCount}} live, {{expiredCount}} expired, {{retiredCount}} retired (by emulator time). Tokens are shortened.</p>
        {{^tokens}}<p class="empty">No access tokens yet.</p>
        {{/tokens}}{{#hasTokens}}<div class="table-wrap"><table>
        <thead><tr><th>Token</th><th>State</th><th>User</th><th>App</th><th>Issued</th><th>Expires</th><th>Refresh</th><th>Replaced by</th></tr></thead>
        <tbody>
        {{#tokens}}<tr><td class="mono">{{token}}</td><td><span class="badge {{stateClass}}">{{state}}</span>{{#isRetired}}<div class="muted">{{retiredAt}}</div>{{/isRetired}}</td><td><a href="/emulator/ui/users#user-{{uuid}}">{{email}}</a></td><td class="mono">{{clientId}}</td><td>{{issued}}</td><td>{{expires}}</td><td>{{refresh}}</td><td class="mono">{{successor}}</td></tr>
        {{/tokens}}</tbody></table></div>
        {{#truncated}}<p class="alert note">Only the newest {{shown}} tokens are shown.</p>{{/truncated}}
        {{/hasTokens}}
        {{/main}}
        {{/layout}}
        """
}
