internal import SyncCore
import SyncSupport

/// The page as HTML. Every string from outside — endpoint names, error sentences, timestamps read from the
/// database — goes through ``HTMLText/escape(_:)``; the rest is written here.
extension StatusPage {
    func html() -> String {
        var page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="refresh" content="\(Self.refreshSeconds)">
            <meta name="color-scheme" content="light dark">
            <title>syncd · \(count(.fresh)) of \(rows.count + omitted) fresh</title>
            <style>\(Self.css)</style>
            </head>
            <body>
            <header>
            <h1>syncd <span class="version">\(HTMLText.escape(version))</span></h1>
            \(summary())
            </header>
            <main>

            """
        if rows.isEmpty && omitted == 0 {
            page += "<p class=\"empty\">No endpoints are configured.</p>\n"
        } else {
            page += table()
        }
        if omitted > 0 {
            page += "<p class=\"more\">… and \(Self.grouped(Int64(omitted))) more endpoints: "
            page += "<a href=\"/v1/endpoints\">/v1/endpoints</a> lists them all.</p>\n"
        }
        page += """
            <p class="legend"><span class="key bar"></span> sync duration <span class="key failed"></span> failed \
            run <span class="key line"></span> records received, over each endpoint's last \(Self.runsPerChart) runs\
            </p>
            </main>
            </body>
            </html>

            """
        return page
    }

    /// The counts by state, when the page was made, and how often it reloads.
    private func summary() -> String {
        let time = Timestamp.format(generatedAt)
        let clock = time.dropFirst(11).prefix(8)
        let pills = Freshness.allCases.map { state in
            "<span class=\"pill \(state.rawValue)\"><b>\(count(state))</b> \(state.rawValue)</span>"
        }
        return """
            <p class="summary">\(pills.joined(separator: " "))</p>
            <p class="meta">\(Self.grouped(Int64(rows.count + omitted))) endpoints · updated \
            <time datetime="\(time)">\(clock) UTC</time> · refreshes every \(Self.refreshSeconds)s · \
            <a href="/v1/endpoints">JSON</a></p>
            """
    }

    private func table() -> String {
        var html = """
            <table>
            <thead><tr><th>Endpoint</th><th>State</th><th>Last status</th><th class="num">Records</th>\
            <th class="num">Version</th><th>Last success</th><th>Next poll</th><th>Recent runs</th></tr></thead>

            """
        for row in rows { html += Self.body(row, now: generatedAt) }
        return html + "</table>\n"
    }

    /// One endpoint: its line, and under it the last error when there is one.
    private static func body(_ row: Row, now: Double) -> String {
        let name = HTMLText.escape(row.name)
        var reason = row.reason.map { "<span class=\"reason\">\(HTMLText.escape($0))</span>" } ?? ""
        if row.consecutiveFailures > 1 {
            reason = "<span class=\"reason\">\(grouped(Int64(row.consecutiveFailures))) failures in a row</span>"
        }
        let status =
            row.lastStatus.map { "<span class=\"code c\($0 / 100)\">\($0)</span>" } ?? "<span class=\"none\">—</span>"
        let lastSuccess =
            row.lastSuccess.map { time in
                let escaped = HTMLText.escape(time)
                return "<time datetime=\"\(escaped)\" title=\"\(escaped)\">\(ago(row.age))</time>"
            } ?? "<span class=\"none\">never</span>"
        // Counts and syncd's own words only.
        let parents = row.parents.map { "<span class=\"parents\">\(Self.parentsText($0))</span>" } ?? ""
        var html = """
            <tbody class="endpoint \(row.freshness.rawValue)" data-endpoint="\(name)" data-state="\(row.freshness.rawValue)">
            <tr>
            <td data-label="Endpoint"><span class="name">\(name)</span> <span class="kind">\(row.kind)</span>\(parents)</td>
            <td data-label="State"><span class="state"><span class="badge \(row.freshness.rawValue)">\(row.freshness.rawValue)</span>\(reason)</span></td>
            <td data-label="Last status">\(status)</td>
            <td data-label="Records" class="num">\(grouped(Int64(row.records)))</td>
            <td data-label="Version" class="num">\(grouped(row.version))</td>
            <td data-label="Last success">\(lastSuccess)</td>
            <td data-label="Next poll">\(nextPoll(row.nextPoll))</td>
            <td data-label="Recent runs" class="runs">\(chart(row.runs, name: row.name))</td>
            </tr>

            """
        if let progress = row.running {
            // Made of counts and syncd's own words: nothing from the upstream but numbers.
            let since = HTMLText.escape(Timestamp.format(progress.startedAt))
            html += "<tr class=\"running-row\"><td colspan=\"8\"><span class=\"running\">syncing, started "
            html += "<time datetime=\"\(since)\">\(ago(Int(max(0, min(now - progress.startedAt, 1e9)))))</time>: "
            html += "\(HTMLText.escape(progress.summary(at: now)))</span></td></tr>\n"
        }
        if let error = row.lastError {
            html +=
                "<tr class=\"error-row\"><td colspan=\"8\"><span class=\"error\">\(HTMLText.escape(error))</span></td></tr>\n"
        }
        return html + "</tbody>\n"
    }

    /// What the last run of an endpoint with a parent did per parent, its counts of none left out:
    /// `parents: 12 walked (10 not modified), 1 failed`.
    static func parentsText(_ counts: SyncSummary.FanOut) -> String {
        let within = [(counts.notModified, "not modified"), (counts.empty, "empty")].filter { $0.0 > 0 }
        let besides = [(counts.skipped, "skipped"), (counts.failed, "failed"), (counts.left, "left for later runs")]
            .filter { $0.0 > 0 }
        var text = "parents: \(grouped(Int64(counts.walked))) walked"
        if !within.isEmpty {
            text += " (" + within.map { "\(grouped(Int64($0.0))) \($0.1)" }.joined(separator: ", ") + ")"
        }
        return text + besides.map { ", \(grouped(Int64($0.0))) \($0.1)" }.joined()
    }

    /// `12s ago`, `3m20s ago`, `just now`.
    static func ago(_ seconds: Int) -> String {
        seconds <= 0 ? "just now" : DurationText.format(.seconds(seconds)) + " ago"
    }

    /// `in 48s`, `overdue 30s`, or a dash when nothing is scheduled.
    static func nextPoll(_ seconds: Int?) -> String {
        guard let seconds else { return "<span class=\"none\">—</span>" }
        if seconds > 0 { return "in " + DurationText.format(.seconds(seconds)) }
        if seconds == 0 { return "now" }
        // `-Int.min` would trap; the value came from a file.
        let (late, overflow) = (0).subtractingReportingOverflow(seconds)
        return "<span class=\"late\">overdue \(overflow ? "a long time" : DurationText.format(.seconds(late)))</span>"
    }

    /// A count with thousands separators: `12,345`.
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }
}
