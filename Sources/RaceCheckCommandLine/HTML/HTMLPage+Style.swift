import RaceCheckEngine

extension HTMLPage {
  /// The page's style sheet, inline so that the page needs nothing else.
  ///
  /// The colours of the marks are the legend's and the script's: window blue, linearization
  /// green, an operation that cannot be placed red, one that fits but leads nowhere orange.
  static let style = #"""
    :root {
      --op: #8a96a3; --window: #4c8bf5; --linearized: #2e9e5b; --unplaceable: #d93025;
      --dead-end: #f29900; --failed: #c5cbd1; --match: #fbbc04; --muted: #57606a; --line: #d0d7de;
    }
    body {
      margin: 0; color: #1f2328; background: #ffffff;
      font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    }
    main { max-width: 1680px; margin: 0 auto; padding: 12px 20px 48px; }
    h1 { font-size: 20px; margin: 2px 0 8px; }
    h2 { font-size: 16px; margin: 20px 0 6px; }
    h3 { font-size: 14px; margin: 12px 0 4px; }
    code, pre, table.interleaving td {
      font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    }
    pre { background: #f6f8fa; padding: 8px 12px; overflow: auto; max-height: 480px; }
    header.summary { border-left: 6px solid var(--op); background: #f6f8fa; padding: 8px 16px; }
    header.summary[data-verdict="fail"] { border-color: var(--unplaceable); }
    header.summary[data-verdict="pass"] { border-color: var(--linearized); }
    header.summary[data-verdict="inconclusive"] { border-color: var(--dead-end); }
    dl.facts {
      display: grid; grid-template-columns: max-content minmax(0, 1fr) max-content minmax(0, 1fr);
      gap: 2px 16px; margin: 0;
    }
    dl.facts > div { display: contents; }
    dl.facts dt { font-weight: 600; color: var(--muted); }
    dl.facts dd { margin: 0; overflow-wrap: anywhere; }
    dl.facts > div.wide dt { grid-column: 1; }
    dl.facts > div.wide dd { grid-column: 2 / -1; }
    p.diagnosis code { font-weight: 600; color: #a50e0e; }
    figure.timeline {
      margin: 6px 0 12px; border: 1px solid var(--line); border-radius: 6px; padding: 8px;
    }
    figcaption { color: var(--muted); }
    ul.legend {
      list-style: none; display: flex; flex-wrap: wrap; gap: 2px 18px; margin: 4px 0 6px;
      padding: 0; font-size: 12.5px;
    }
    .swatch {
      display: inline-block; width: 22px; height: 10px; margin-right: 6px; vertical-align: middle;
      border-radius: 2px; background: var(--op);
    }
    .swatch.unknown { background: var(--op); opacity: 0.45; }
    .swatch.failed { background: var(--failed); }
    .swatch.window { background: var(--window); }
    .swatch.linearized { background: var(--linearized); }
    .swatch.unplaceable { background: var(--unplaceable); outline: 2px solid #7a0c06; }
    .swatch.dead-end { background: var(--dead-end); outline: 2px solid #8a4b00; }
    .swatch.match { background: transparent; outline: 2px solid var(--match); }
    .toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 4px 0; }
    .toolbar button {
      font: inherit; padding: 1px 10px; border: 1px solid var(--line); border-radius: 4px;
      background: #f6f8fa; cursor: pointer;
    }
    .toolbar input.search { font: inherit; width: 280px; padding: 1px 6px; }
    .match-count { color: var(--muted); }
    canvas.lanes { display: block; width: 100%; cursor: grab; touch-action: none; }
    p.details { margin: 4px 0; min-height: 1.45em; font-size: 13px; overflow-wrap: anywhere; }
    ul.marked-operations { list-style: none; padding: 0; margin: 4px 0; }
    button.marked-operation {
      font: inherit; font-size: 13px; text-align: left; border: 2px solid #7a0c06;
      border-radius: 4px; background: #fce8e6; color: #7a0c06; padding: 2px 8px; cursor: pointer;
      margin: 2px 0;
    }
    button.marked-operation.dead-end { border-color: #8a4b00; background: #fef7e0; color: #8a4b00; }
    ul.candidates li.unplaceable { color: #a50e0e; font-weight: 600; }
    ul.candidates li.dead-end { color: #8a4b00; }
    ol.longest-linearization, ul.failing-window {
      max-height: 200px; overflow: auto; font-size: 13px; margin: 2px 0 8px;
    }
    ol.longest-linearization li::marker { color: var(--linearized); font-weight: 600; }
    ul.failing-window li::marker { color: var(--window); }
    p.model-state code { background: #f6f8fa; padding: 1px 4px; }
    table { border-collapse: collapse; font-size: 13px; }
    th, td {
      border: 1px solid var(--line); padding: 2px 8px; text-align: left; vertical-align: top;
    }
    th { background: #f6f8fa; }
    table.interleaving td { white-space: pre; }
    table.interleaving tr.operation td { font-weight: 600; }
    table.interleaving tr.switch td { border-top: 2px solid var(--muted); }
    table.interleaving td.number { color: var(--muted); text-align: right; }
    table.demo-rows tr.disagrees { background: #fce8e6; }
    table.demo-rows tr.fail td:first-child a { font-weight: 600; }
    section.demo-failure { border-top: 2px solid var(--line); margin-top: 24px; }
    details.text-report { margin-top: 20px; }
    p.more { color: var(--muted); font-size: 13px; }
    """#
}
