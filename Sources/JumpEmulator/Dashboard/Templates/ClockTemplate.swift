/// `/emulator/ui/clock`: the emulator's time (token expiry, `created`, `lastUpdated` follow it) and forms
/// that move it.
enum ClockTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Clock · jump-emulator{{/title}}
        {{$main}}
        <h1>Clock</h1>
        <p class="lead">Token expiry, codes and record times use the emulator clock: real time plus an offset.</p>
        {{#hasError}}<p class="alert error" role="alert">{{error}}</p>
        {{/hasError}}<div class="card">
        <div class="clock" id="emulator-time">{{now}}</div>
        <dl class="facts">
        <dt>Offset</dt><dd id="clock-offset">{{offset}}</dd>
        <dt>Real time</dt><dd>{{realNow}}</dd>
        <dt>As Capture writes it</dt><dd class="mono">{{nowText}}</dd>
        </dl></div>
        <h2>Move the clock</h2>
        <div class="card">
        <form method="post" action="/emulator/ui/clock" class="row" id="advance-form">
        <label>Amount <input type="number" step="any" name="amount" id="advance-amount" value="1" required></label>
        <label>Unit <select name="unit" id="advance-unit">{{#units}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/units}}</select></label>
        <button type="submit" id="advance">Advance</button>
        </form>
        <p class="muted">A negative amount moves the clock back.</p>
        <div class="row">
        {{#presets}}<form method="post" action="/emulator/ui/clock" class="inline"><input type="hidden" name="amount" value="{{amount}}"><input type="hidden" name="unit" value="{{unit}}"><button type="submit" class="secondary" id="advance-{{id}}">{{label}}</button></form>
        {{/presets}}<form method="post" action="/emulator/ui/clock" class="inline"><input type="hidden" name="reset" value="1"><button type="submit" class="danger" id="clock-reset">Back to real time</button></form>
        </div></div>
        {{/main}}
        {{/layout}}
        """
}
