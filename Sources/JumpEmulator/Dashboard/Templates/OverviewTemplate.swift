/// `GET /emulator`: what the emulator holds at a glance, each count linking to its page.
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
        <p class="muted">These pages are for people. Tests use the JSON admin API under <span class="mono">/emulator/…</span> (docs/emulator.md).</p>
        {{/main}}
        {{/layout}}
        """
}
