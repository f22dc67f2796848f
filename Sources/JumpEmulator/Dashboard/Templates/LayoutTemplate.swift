/// The page frame every emulator page shares: the stylesheet, the "jump-emulator" header and a main area.
/// Pages fill its blocks (mustache template inheritance): `title`, `nav` (the dashboard's links by
/// default; the identity provider puts its banner there instead) and `main`. No scripts: the pages work
/// without JavaScript and the dashboard's Content-Security-Policy allows none. The empty icon keeps
/// browsers from asking for `/favicon.ico`, which the request counters would count.
enum LayoutTemplate {
    static let text = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{$title}}jump-emulator{{/title}}</title><link rel="icon" href="data:,">
        <style>
        {{>style}}
        </style></head>
        <body>
        {{$header}}<header class="top"><a class="brand" href="/emulator">jump-emulator <small>dashboard</small></a>
        <nav aria-label="Dashboard">{{#nav}}<a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a>{{/nav}}</nav></header>{{/header}}
        <main{{$mainClass}}{{/mainClass}}>
        {{$main}}{{/main}}
        </main>
        <footer>{{$footer}}jump-emulator: a local stand-in for Janrain Capture and Engage, for tests and development. Not a real service.{{/footer}}</footer>
        </body></html>
        """
}
