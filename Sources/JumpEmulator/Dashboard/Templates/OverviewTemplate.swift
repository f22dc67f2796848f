/// `GET /emulator`: what the emulator holds at a glance, each count linking to its page; Export and Reset,
/// which act on all of it.
enum OverviewTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Overview · jump-emulator{{/title}}
        {{$main}}
        <h1>Overview</h1>
        <p class="lead">Serving at <span class="mono">{{baseURL}}</span>. Emulator time <strong id="emulator-time">{{now}}</strong>{{#shifted}} ({{offset}} from real time){{/shifted}}.</p>
        <div class="grid">
        {{#stats}}<a class="card stat" href="{{href}}" id="stat-{{key}}"><div class="number">{{number}}</div><div class="label">{{label}}</div></a>
        {{/stats}}</div>
        <h2>The whole emulator</h2>
        <div class="card"><div class="row">
        <form method="post" action="/emulator/ui/export" class="inline"><button type="submit" class="secondary" id="export">Export</button></form>
        <a class="button danger" href="/emulator/ui/reset" id="reset-emulator">Reset…</a>
        </div>
        <p class="muted">Export downloads what <span class="mono">--export-on-exit</span> writes (apps, users, identities, settings; <span class="mono">POST /emulator/export</span>), for <span class="mono">--import</span>. Reset asks first, then does what <span class="mono">POST /emulator/reset</span> does.</p></div>
        <p class="muted">These pages are for people. Tests use the JSON admin API under <span class="mono">/emulator/…</span> (docs/emulator.md).</p>
        {{/main}}
        {{/layout}}
        """
}
