/// The one stylesheet of the emulator's HTML (dashboard and fake identity provider), inlined by the layout
/// so a page needs nothing else from the server. It is a mustache partial only to be shared: it holds no
/// tags.
enum StyleSheetTemplate {
    static let text = """
        :root { --ink: #1d2330; --muted: #5b6474; --line: #d9dde5; --paper: #ffffff; --back: #f4f6f9;
          --brand: #23395d; --accent: #2f6fdb; --good: #1f7a43; --warn: #8a5a00; --bad: #a32a2a; }
        * { box-sizing: border-box; }
        html { background: var(--back); }
        body { margin: 0; color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto,
          "Helvetica Neue", Arial, sans-serif; }
        a { color: var(--accent); }
        header.top { background: var(--brand); color: #fff; padding: 0 24px; display: flex; flex-wrap: wrap;
          align-items: center; gap: 4px 24px; min-height: 56px; }
        header.top .brand { color: #fff; font-weight: 700; font-size: 19px; text-decoration: none;
          letter-spacing: 0.02em; }
        header.top .brand small { font-weight: 400; opacity: 0.75; font-size: 13px; margin-left: 6px; }
        nav { display: flex; flex-wrap: wrap; gap: 2px; }
        nav a { color: #dfe7f5; text-decoration: none; padding: 6px 10px; border-radius: 6px; }
        nav a:hover { background: rgba(255, 255, 255, 0.12); }
        nav a[aria-current="page"] { background: #fff; color: var(--brand); font-weight: 600; }
        main { max-width: 1180px; margin: 0 auto; padding: 24px; }
        h1 { font-size: 24px; margin: 0 0 4px; }
        h2 { font-size: 18px; margin: 28px 0 8px; }
        h3 { font-size: 16px; margin: 0 0 6px; }
        p.lead { color: var(--muted); margin: 0 0 20px; }
        .card { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px;
          margin: 0 0 16px; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: 14px; }
        .stat { display: block; text-decoration: none; color: inherit; }
        .stat .number { font-size: 28px; font-weight: 700; color: var(--brand); }
        .stat .label { color: var(--muted); }
        table { border-collapse: collapse; width: 100%; background: var(--paper); }
        th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-size: 13px; color: var(--muted); font-weight: 600; background: #eef1f6; }
        tbody tr:nth-child(even) td { background: #fafbfd; }
        .table-wrap { border: 1px solid var(--line); border-radius: 10px; overflow: auto; margin: 0 0 16px; }
        .table-wrap table { border: 0; }
        .table-wrap tr:last-child td { border-bottom: 0; }
        code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
        pre { background: #0f1726; color: #e4e9f2; padding: 12px 14px; border-radius: 8px; overflow: auto;
          max-height: 480px; margin: 8px 0 0; }
        .muted { color: var(--muted); }
        .empty { color: var(--muted); font-style: italic; }
        .badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600;
          border: 1px solid currentColor; white-space: nowrap; }
        .badge.good { color: var(--good); }
        .badge.warn { color: var(--warn); }
        .badge.bad { color: var(--bad); }
        .badge.plain { color: var(--muted); }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        details > summary { cursor: pointer; color: var(--accent); margin-top: 8px; }
        form.inline { display: inline; }
        form.stack { display: grid; gap: 10px; max-width: 520px; }
        form.row, div.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; }
        label { display: grid; gap: 3px; font-size: 13px; color: var(--muted); }
        input, select, textarea { font: inherit; color: var(--ink); padding: 6px 9px; border: 1px solid #b9c0cc;
          border-radius: 6px; background: #fff; min-width: 0; }
        textarea { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; resize: vertical; }
        form.stack.wide { max-width: none; }
        button, a.button { font: inherit; cursor: pointer; padding: 7px 14px; border-radius: 6px;
          border: 1px solid var(--accent); background: var(--accent); color: #fff; font-weight: 600;
          text-decoration: none; display: inline-block; }
        button.secondary, a.button.secondary { background: #fff; color: var(--accent); }
        button.danger, a.button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
        .actions { margin-top: 10px; }
        .card > p:first-child, .card > form + p { margin-top: 0; }
        .card > p:last-child { margin-bottom: 0; }
        details.card > summary { margin-top: 0; font-weight: 600; }
        details.card[open] > summary { margin-bottom: 12px; }
        .alert { border-radius: 8px; padding: 10px 14px; margin: 0 0 16px; border: 1px solid; }
        .alert.error { color: var(--bad); background: #fdf0f0; border-color: #f0c4c4; }
        .alert.note { color: var(--warn); background: #fff7e6; border-color: #f1d9a6; }
        .banner { background: #fff3cd; color: #5c4300; border-bottom: 2px solid #e0b43c; padding: 10px 24px;
          font-weight: 600; text-align: center; }
        .clock { font-size: 30px; font-weight: 700; font-variant-numeric: tabular-nums; color: var(--brand); }
        ul.identities { list-style: none; padding: 0; margin: 0; display: grid; gap: 10px; }
        ul.identities li { background: var(--paper); border: 1px solid var(--line); border-radius: 10px;
          padding: 12px 14px; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center;
          justify-content: space-between; }
        ul.identities .meta { color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
        .idp { max-width: 640px; }
        footer { color: var(--muted); font-size: 12px; text-align: center; padding: 8px 24px 24px; }
        """
}
