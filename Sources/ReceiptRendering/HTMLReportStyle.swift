extension HTMLReportAssets {
    /// The page's style sheet: system fonts only (nothing is fetched), light and dark schemes.
    static let style = #"""
:root { color-scheme: light dark; --bg: #fbfbfc; --fg: #1d1f23; --dim: #6a717c; --line: #d9dce1; --panel: #ffffff;
  --sel: #ffe48a; --hdr: #ffd0a8; --val: #c8f0c8; --err: #d22a2a; --warn: #b86e00; --info: #2a6fd2; --ok: #1f8a3b;
  --hover: #eef2f8; --mono: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
@media (prefers-color-scheme: dark) { :root { --bg: #15171a; --fg: #e3e5e8; --dim: #9097a1; --line: #30343a;
  --panel: #1c1f23; --sel: #6b5a12; --hdr: #6b3f17; --val: #1f4d22; --hover: #262a30; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
header { padding: 12px 16px; border-bottom: 1px solid var(--line); background: var(--panel); }
h1 { font-size: 16px; margin: 0 0 4px 0; font-weight: 600; }
h2 { font-size: 14px; margin: 0; padding: 6px 10px; border-bottom: 1px solid var(--line); font-weight: 600; display: flex; gap: 8px; align-items: center; }
.meta { color: var(--dim); font-size: 12px; font-family: var(--mono); overflow-wrap: anywhere; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: 700; color: #fff; margin-right: 8px; }
.verdict.valid { background: var(--ok); } .verdict.invalid { background: var(--err); } .verdict.unreadable { background: #7a2ad2; }
.codes { font-family: var(--mono); font-size: 12px; }
.codes .error { color: var(--err); } .codes .warning { color: var(--warn); }
main { display: grid; grid-template-columns: minmax(320px, 42%) 1fr; gap: 10px; padding: 10px; }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; min-width: 0; }
.wide { grid-column: 1 / -1; }
.scroller { position: relative; overflow: auto; height: 58vh; min-height: 240px; font-family: var(--mono); font-size: 12px; }
.spacer { width: 1px; }
.rows { position: absolute; left: 0; right: 0; top: 0; }
.row { height: 18px; line-height: 18px; white-space: pre; overflow: hidden; text-overflow: ellipsis; padding-right: 6px; cursor: default; }
.tree .row:hover { background: var(--hover); }
.tree .row.selected { background: var(--sel); }
.tree .toggle { display: inline-block; width: 14px; color: var(--dim); cursor: pointer; }
.tree .label { font-weight: 600; }
.tree .value { color: var(--dim); }
.tree .at { color: var(--dim); opacity: .75; }
.flag { display: inline-block; min-width: 8px; height: 8px; border-radius: 4px; margin: 0 4px; }
.flag.error { background: var(--err); } .flag.warning { background: var(--warn); } .flag.info { background: var(--info); }
.hex .row { padding-left: 6px; }
.hex .offset { color: var(--dim); }
.hex .b, .hex .c { cursor: pointer; }
.hex .b { display: inline-block; width: 2.6ch; text-align: center; }
.hex .gap { display: inline-block; width: 1ch; }
.hex .c { display: inline-block; width: 1ch; }
.hex .hdr { background: var(--hdr); }
.hex .sel { background: var(--sel); }
.hex .src { background: var(--val); }
.hex .mark-error { outline: 2px solid var(--err); outline-offset: -2px; }
.hex .mark-warning { outline: 2px solid var(--warn); outline-offset: -2px; }
.hex .mark-info { outline: 1px dashed var(--info); outline-offset: -2px; }
select, button, input { font: inherit; font-size: 12px; }
button { padding: 1px 8px; }
.details { padding: 8px 10px; font-size: 13px; }
.details dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px 0; }
.details dt { color: var(--dim); } .details dd { margin: 0; font-family: var(--mono); font-size: 12px; overflow-wrap: anywhere; white-space: pre-wrap; }
textarea { width: 100%; height: 70px; font-family: var(--mono); font-size: 11px; background: var(--bg); color: var(--fg); border: 1px solid var(--line); }
.findings { max-height: 40vh; overflow: auto; }
.finding { padding: 4px 10px; border-bottom: 1px solid var(--line); cursor: pointer; font-size: 13px; }
.finding:hover { background: var(--hover); }
.finding .sev { font-weight: 700; text-transform: uppercase; font-size: 11px; margin-right: 6px; }
.finding.error .sev { color: var(--err); } .finding.warning .sev { color: var(--warn); } .finding.info .sev { color: var(--info); }
.finding .code { font-family: var(--mono); font-weight: 600; margin-right: 6px; }
.finding .where { color: var(--dim); font-family: var(--mono); font-size: 12px; }
.picture { padding: 6px 10px; overflow-x: auto; }
svg text { font: 11px system-ui, sans-serif; fill: var(--fg); }
svg .axis { stroke: var(--dim); stroke-width: 1; }
svg .now { stroke: var(--err); stroke-width: 2; stroke-dasharray: 4 3; }
svg .bar { fill: var(--ok); opacity: .8; cursor: pointer; }
svg .bar.outside { fill: var(--err); }
svg .span { stroke: var(--info); stroke-width: 3; opacity: .5; }
svg .ev { cursor: pointer; stroke: var(--panel); stroke-width: 1; }
svg .ev.purchase { fill: var(--ok); } svg .ev.renewal { fill: var(--info); } svg .ev.expiry { fill: var(--dim); }
svg .ev.revocation { fill: var(--err); } svg .ev.other { fill: var(--warn); }
.note { color: var(--dim); font-size: 12px; padding: 4px 10px; }
.bar-tools { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; font-weight: 400; }
.source { font-size: 12px; color: var(--dim); padding: 2px 10px; border-bottom: 1px solid var(--line); min-height: 20px; }
"""#
}
