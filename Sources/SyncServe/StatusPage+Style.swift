/// The page's only style sheet, inline: the system's fonts and colours (light and dark), a table that becomes one
/// card per endpoint below 720 px (a phone held upright), and the chart's colours. Nothing is fetched.
extension StatusPage {
    static let css = """
        :root{--bg:#f6f7f9;--card:#fff;--text:#1f2328;--muted:#656d76;--line:#d8dee4;--head:#f0f2f5;\
        --fresh:#1a7f37;--fresh-bg:#dafbe1;--stale:#9a6700;--stale-bg:#fff8c5;--failing:#cf222e;\
        --failing-bg:#ffebe9;--bar:#8fb8ef;--chart-line:#0b3d91;--error-bg:#fff5f5}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#161b22;--text:#e6edf3;--muted:#8d96a0;\
        --line:#30363d;--head:#1c2128;--fresh:#3fb950;--fresh-bg:#12261e;--stale:#d29922;--stale-bg:#272115;\
        --failing:#f85149;--failing-bg:#2d1517;--bar:#388bfd;--chart-line:#e6edf3;--error-bg:#1f1416}}
        *{box-sizing:border-box}
        body{margin:0;padding:24px;background:var(--bg);color:var(--text);\
        font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        header,main{max-width:1200px;margin:0 auto}
        h1{font-size:22px;margin:0 0 10px;font-weight:650;letter-spacing:-.01em}
        .version{font-size:13px;font-weight:400;color:var(--muted)}
        .summary{margin:0 0 6px;display:flex;gap:8px;flex-wrap:wrap}
        .pill{border-radius:999px;padding:3px 12px;font-size:13px;border:1px solid transparent}
        .pill.fresh{color:var(--fresh);background:var(--fresh-bg)}
        .pill.stale{color:var(--stale);background:var(--stale-bg)}
        .pill.failing{color:var(--failing);background:var(--failing-bg)}
        .meta{margin:0 0 18px;color:var(--muted);font-size:13px}
        a{color:inherit}
        table{width:100%;border-collapse:separate;border-spacing:0;background:var(--card);\
        border:1px solid var(--line);border-radius:10px;overflow:hidden}
        th{text-align:left;font-size:12px;font-weight:600;color:var(--muted);background:var(--head);\
        padding:9px 12px;border-bottom:1px solid var(--line);white-space:nowrap}
        td{padding:10px 12px;vertical-align:middle;white-space:nowrap}
        tbody+tbody td{border-top:1px solid var(--line)}
        tbody .error-row td,tbody .running-row td{border-top:0;padding-top:0}
        .num{text-align:right;font-variant-numeric:tabular-nums}
        .name{font-weight:600}
        .kind{color:var(--muted);font-size:12px;margin-left:4px}
        .parents{display:block;color:var(--muted);font-size:12px;margin-top:2px;font-variant-numeric:tabular-nums}
        .badge{display:inline-block;border-radius:6px;padding:1px 8px;font-size:12px;font-weight:600}
        .badge.fresh{color:var(--fresh);background:var(--fresh-bg)}
        .badge.stale{color:var(--stale);background:var(--stale-bg)}
        .badge.failing{color:var(--failing);background:var(--failing-bg)}
        .reason{display:block;color:var(--muted);font-size:12px;margin-top:2px}
        .code{font-variant-numeric:tabular-nums;font-weight:600}
        .code.c4,.code.c5{color:var(--failing)}
        .none{color:var(--muted)}
        .late{color:var(--stale)}
        .error{display:block;white-space:normal;overflow-wrap:anywhere;color:var(--failing);background:var(--error-bg);\
        border-left:3px solid var(--failing);border-radius:4px;padding:6px 10px;font-size:13px}
        .running{display:block;white-space:normal;color:var(--muted);font-size:13px;font-variant-numeric:tabular-nums}
        .chart{display:block;width:150px;height:36px}
        .chart .bar,.key.bar{fill:var(--bar);background:var(--bar)}
        .chart .failed,.key.failed{fill:var(--failing);background:var(--failing)}
        .chart .line{fill:none;stroke:var(--chart-line);stroke-width:1.6;stroke-linejoin:round}
        .chart .dot{fill:var(--chart-line)}
        .chart .frame{fill:var(--head)}
        .legend,.more,.empty{color:var(--muted);font-size:12px;margin:12px 0 0}
        .key{display:inline-block;width:10px;height:10px;border-radius:2px;vertical-align:-1px;margin-left:8px}
        .key.line{height:2px;vertical-align:3px;background:var(--chart-line)}
        @media (max-width:720px){body{padding:14px}
        table,thead,tbody,tr,td{display:block}
        table{border:0;background:none}
        thead{display:none}
        tbody{background:var(--card);border:1px solid var(--line);border-radius:10px;margin-bottom:12px;\
        padding:6px 0}
        tbody+tbody td{border-top:0}
        td{display:flex;justify-content:space-between;align-items:center;gap:12px;padding:5px 14px;white-space:normal}
        td::before{content:attr(data-label);color:var(--muted);font-size:12px}
        td.num{text-align:right}
        .error-row td,.running-row td{display:block;padding-top:4px}
        .error-row td::before,.running-row td::before{content:none}
        td:first-child{display:block;font-size:16px;padding:4px 14px 8px;margin-bottom:4px;\
        border-bottom:1px solid var(--line)}
        td:first-child::before{content:none}
        .state{text-align:right}
        .reason{display:inline;margin:0 0 0 6px}}
        """
}
