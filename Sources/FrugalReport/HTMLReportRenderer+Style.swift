extension HTMLReportRenderer {
    /// The page's one stylesheet. Colours are variables so `prefers-color-scheme: dark` swaps
    /// them; the timeline's marks take their colours from classes defined here once, not from
    /// attributes repeated on every mark. Wide tables and timelines scroll inside their own box
    /// on a phone instead of shrinking their text below reading size.
    static let style = """
    :root{--fg:#212121;--muted:#616161;--bg:#fff;--panel:#f5f5f5;--line:#e0e0e0;--link:#1a56b0;--bad:#c62828;--good:#0c7d3c;--avg:#b26a00;--lane:#424242}
    @media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--muted:#a8a8a8;--bg:#16181c;--panel:#23262c;--line:#3a3d44;--link:#8ab4f8;--bad:#ff8a80;--good:#69d08f;--avg:#ffc46b;--lane:#d0d0d0}}
    body{overflow-wrap:break-word;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1240px;padding:16px 20px;color:var(--fg);background:var(--bg)}
    a{color:var(--link)}h1{margin:0;font-size:26px}h2{border-bottom:1px solid var(--line);padding-bottom:4px;margin-top:36px;font-size:21px}h3{font-size:17px;margin:18px 0 6px}h4{margin:10px 0 2px;font-size:14px;color:var(--muted)}
    h2 small,h3 small,summary small,td small,li small{color:var(--muted);font-weight:normal}
    .meta,footer,.legend{color:var(--muted);font-size:13px}footer{margin:32px 0 8px}
    table{border-collapse:collapse;width:100%;margin:8px 0}.scroll{overflow-x:auto}
    th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}th{background:var(--panel);font-weight:600}
    .badge{display:inline-block;min-width:2.3em;text-align:center;border-radius:1em;padding:0 6px;font-weight:bold;color:#fff;font-size:13px}
    .badge.pass{background:#0c7d3c}.badge.average{background:#b26a00}.badge.fail{background:#c62828}.badge.na{background:#8a8a8a}
    .regressed{color:var(--bad);font-weight:bold}.improved{color:var(--good)}.allpass{color:var(--good);font-weight:bold}
    .gain{color:var(--good);font-weight:600;white-space:nowrap}.cats{display:flex;flex-wrap:wrap;gap:4px 14px;margin:4px 0}
    ol.fixes{padding-left:1.6em}ol.fixes>li{margin:6px 0}
    details{margin:4px 0}summary{cursor:pointer;padding:4px 0}details.fix>summary{font-size:16px}
    details.passing,details.na,details.unavail,details.metrics{border-left:3px solid var(--line);padding-left:10px}
    .body{padding:4px 12px 8px 20px;border-left:3px solid var(--line)}blockquote{margin:8px 0;padding:6px 12px;background:var(--panel);font-style:italic}
    blockquote cite{display:block;font-style:normal;color:var(--muted);font-size:13px;margin-top:4px}
    .advice{background:var(--panel);padding:6px 12px;border-left:3px solid var(--good)}ul.passed{list-style:none;padding-left:4px;margin:2px 0}ul.passed li{margin:3px 0}.rule-link{font-size:12px}ul.savings,ul.evidence{margin:4px 0;padding-left:1.4em}
    code{font-size:12.5px;background:var(--panel);padding:0 3px;border-radius:3px}table.files{min-width:760px}table.energy,table.disk,table.evidence{min-width:480px}table.mono td:first-child,table.mono td:last-child{font:12.5px ui-monospace,monospace;overflow-wrap:anywhere}table.mono td:nth-child(2){white-space:nowrap}table.threads{min-width:760px}table.threads td:not(:last-child){white-space:nowrap}
    svg.trend{vertical-align:middle;margin-left:6px;width:90px;height:18px}svg.trend polyline{fill:none;stroke:#5c6bc0;stroke-width:1.5}
    .tl{overflow-x:auto}svg.timeline{display:block;width:100%;min-width:760px;border:1px solid var(--line);margin:6px 0;background:var(--bg)}
    svg .lane{font-size:12px;fill:var(--lane)}svg .tick{font-size:10px;fill:var(--muted)}svg .ax{font-size:10px;fill:var(--muted);text-anchor:middle}svg .rule{stroke:var(--line);fill:none}
    svg .step{font-size:10px;fill:var(--lane)}svg .step.bad,svg .hang-label{fill:#e53935;font-size:10px;font-weight:bold}svg .bar-label{fill:#fff;font-size:10px;font-weight:bold;text-anchor:middle}svg .bar-label,svg .hang-label{pointer-events:none}
    .life{stroke:#7e57c2;stroke-dasharray:3 3;stroke-width:1.2}.st{fill:#78909c;background:#78909c}.st-bad{fill:#e53935;background:#e53935}svg .step.end{text-anchor:end}
    .s-active{fill:#4caf50;background:#4caf50}.s-inactive{fill:#ffc107;background:#ffc107}.s-background{fill:#2196f3;background:#2196f3}.s-suspended{fill:#9e9e9e;background:#9e9e9e}.s-notrunning{fill:#e0e0e0;background:#e0e0e0}
    .h{fill:#5c6bc0;background:#5c6bc0}.h-long{fill:#fb8c00;background:#fb8c00}.h-hang,.hang{fill:#e53935;background:#e53935}.amk{fill:#00897b;background:#00897b}.wk{fill:#8e24aa;background:#8e24aa}
    .d-replace{fill:#ef6c00;background:#ef6c00}.d-write{fill:#00897b;background:#00897b}.d-append{fill:#3949ab;background:#3949ab}.d-fsync{fill:#212121;background:#212121}.d-delete{fill:#c62828;background:#c62828}
    .r-promotion{fill:#f48fb1;background:#f48fb1}.r-active{fill:#ad1457;background:#ad1457}.r-tail{fill:#f8bbd0;background:#f8bbd0}.r-idle{fill:#eceff1;background:#eceff1}
    .zone{fill:transparent}.tr{fill:#0d47a1;background:#0d47a1}.tr-failed{fill:#000;background:#000}
    .m-anon{fill:#1e88e5;background:#1e88e5}.m-file{fill:#43a047;background:#43a047}.m-lazy{fill:#bdbdbd;background:#bdbdbd}
    .mk-warning{stroke:#fb8c00;stroke-width:2;background:#fb8c00}.mk-kernel{stroke:#e53935;stroke-width:2;background:#e53935}
    .tl-legend span{margin-right:12px}i.k{display:inline-block;width:10px;height:10px;margin:0 3px 0 6px;vertical-align:-1px;border:1px solid var(--line)}
    i.k.life{border:0;border-left:2px dashed #7e57c2;width:0}
    @media (max-width:600px){body{padding:10px;font-size:14px}.gain{white-space:normal}h1{font-size:22px}.body{padding-left:10px}th,td{padding:4px 5px}}
    """
}
