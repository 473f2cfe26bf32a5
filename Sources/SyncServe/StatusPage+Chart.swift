internal import SyncCore
import SyncSupport

/// Each endpoint's chart of its last runs, as inline SVG: a bar per run for how long it took (red when it failed
/// or was refused), and a line through the records each answer held. Drawn from ``SyncCache/Run``s only, to scale with
/// the largest of each, the newest run on the right.
extension StatusPage {
    /// The drawing's size in SVG user units; CSS may scale it.
    static let chartWidth = 150
    static let chartHeight = 36

    static func chart(_ runs: [SyncCache.Run], name: String) -> String {
        guard !runs.isEmpty else { return "<span class=\"none\">no runs yet</span>" }
        let runs = runs.suffix(runsPerChart)
        let slot = Double(chartWidth) / Double(runsPerChart)
        let height = Double(chartHeight)
        // Drawn right-aligned, so that the newest run is always at the same place.
        let start = Double(runsPerChart - runs.count) * slot
        let longest = Double(max(1, runs.map(\.durationMilliseconds).max() ?? 1))
        let answered = runs.filter { $0.outcome == .changed || $0.outcome == .unchanged }
        let most = Double(max(1, answered.map(\.records).max() ?? 1))
        var bars = ""
        var points: [(x: Double, y: Double)] = []
        for (index, run) in runs.enumerated() {
            let x = start + Double(index) * slot
            // At least 3 units: a run that took no time still shows that it ran.
            let barHeight = max(3, (Double(run.durationMilliseconds) / longest * (height - 2)).rounded())
            let failed = run.outcome == .failed || run.outcome == .refused
            bars += "<rect class=\"\(failed ? "failed" : "bar")\" x=\"\(Self.number(x + 0.5))\" "
            bars += "y=\"\(Self.number(height - barHeight))\" width=\"\(Self.number(slot - 1))\" "
            bars += "height=\"\(Self.number(barHeight))\"><title>\(Self.describe(run))</title></rect>"
            if run.outcome == .changed || run.outcome == .unchanged {
                let y = height - 3 - Double(run.records) / most * (height - 8)
                points.append((x + slot / 2, y))
            }
        }
        var line = ""
        if points.count == 1, let point = points.first {
            line = "<circle class=\"dot\" cx=\"\(Self.number(point.x))\" cy=\"\(Self.number(point.y))\" r=\"1.8\"/>"
        } else if points.count > 1 {
            let text = points.map { "\(Self.number($0.x)),\(Self.number($0.y))" }.joined(separator: " ")
            line = "<polyline class=\"line\" points=\"\(text)\"/>"
        }
        let label = HTMLText.escape(Self.label(runs, name: name))
        return """
            <svg class="chart" viewBox="0 0 \(chartWidth) \(chartHeight)" width="\(chartWidth)" \
            height="\(chartHeight)" role="img" aria-label="\(label)"><title>\(label)</title>\
            <rect class="frame" width="\(chartWidth)" height="\(chartHeight)" rx="3"/>\(bars)\(line)</svg>
            """
    }

    /// `users: last 12 runs, 4ms to 1s120ms, 300 records in the last answer`.
    private static func label(_ runs: ArraySlice<SyncCache.Run>, name: String) -> String {
        let durations = runs.map(\.durationMilliseconds)
        let shortest = DurationText.format(.milliseconds(durations.min() ?? 0))
        let longest = DurationText.format(.milliseconds(durations.max() ?? 0))
        var text = "\(name): last \(runs.count) run\(runs.count == 1 ? "" : "s"), \(shortest) to \(longest)"
        if let last = runs.last(where: { $0.outcome == .changed || $0.outcome == .unchanged }) {
            text += ", \(grouped(last.records)) records in the last answer"
        }
        return text
    }

    /// A bar's tooltip: `2026-11-28T09:41:02.120Z: changed, 120ms, 300 records`.
    private static func describe(_ run: SyncCache.Run) -> String {
        let duration = DurationText.format(.milliseconds(run.durationMilliseconds))
        return HTMLText.escape(
            "\(run.startedAt): \(run.outcome.rawValue), \(duration), \(grouped(run.records)) records")
    }

    /// A coordinate with at most two decimals, as SVG reads it.
    private static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
