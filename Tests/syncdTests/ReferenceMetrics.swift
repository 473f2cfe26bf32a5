import Foundation
import Testing

/// `docs/reference/metrics.md` against a scrape of a live daemon's `/metrics`: the page's table has every metric the
/// daemon exposes, and no other, each with the type and the labels the scrape shows; its bucket bounds are the
/// histograms'.
enum ReferenceMetrics {
    struct Metric: Equatable, CustomStringConvertible {
        var type: String
        var labels: Set<String>

        var description: String { "\(type) {\(labels.sorted().joined(separator: ", "))}" }
    }

    /// The heading above the page's table.
    static let heading = "## Metrics"

    static func check(scrape: String, page: ReferencePage, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scraped = try metrics(in: scrape)
        var documented: [String: Metric] = [:]
        for row in try page.table(after: heading) where row.count >= 3 {
            let name = row[0].replacingOccurrences(of: "`", with: "")
            let labels = row[2].split(separator: ",").map {
                $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
            }
            documented[name] = Metric(type: row[1], labels: Set(labels.filter { !$0.isEmpty && $0 != "none" }))
        }
        #expect(scraped.count >= 9, "the scrape has too few metrics: \(scraped.keys.sorted())")
        for (name, metric) in scraped.sorted(by: { $0.key < $1.key }) {
            #expect(
                documented[name] == metric,
                "/metrics has \(name) \(metric); metrics.md says \(documented[name].map(String.init) ?? "nothing")",
                sourceLocation: sourceLocation)
        }
        for name in Set(documented.keys).subtracting(scraped.keys).sorted() {
            Issue.record("metrics.md documents \(name), which /metrics does not have", sourceLocation: sourceLocation)
        }
        let bounds = buckets(in: scrape)
        let line = "Buckets (`le`, in seconds): " + bounds.map { "`\($0)`" }.joined(separator: ", ") + "."
        #expect(page.text.contains(line), "metrics.md should say: \(line)", sourceLocation: sourceLocation)
    }

    /// Each metric of a scrape by its `# TYPE` line, with the labels of its series (a histogram's `le` left out).
    static func metrics(in scrape: String) throws -> [String: Metric] {
        var metrics: [String: Metric] = [:]
        for line in scrape.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let words = line.split(separator: " ")
                guard words.count == 4 else { continue }
                metrics[String(words[2]), default: Metric(type: String(words[3]), labels: [])].type = String(words[3])
                continue
            }
            guard !line.hasPrefix("#"), let brace = line.firstIndex(where: { $0 == "{" || $0 == " " }) else { continue }
            var name = String(line[..<brace])
            if metrics[name] == nil {
                for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
                    let base = String(name.dropLast(suffix.count))
                    if metrics[base]?.type == "histogram" { name = base }
                }
            }
            guard metrics[name] != nil else {
                throw ReferencePage.PageError(description: "/metrics has a series without a # TYPE: \(line)")
            }
            let labels = line[brace] == "{" ? try labelNames(line[line.index(after: brace)...]) : []
            metrics[name]?.labels.formUnion(labels.filter { $0 != "le" })
        }
        return metrics
    }

    /// The label names of `key="value",…}`, the values read with their escapes (a route holds braces).
    static func labelNames(_ text: Substring) throws -> [String] {
        var names: [String] = []
        var rest = text
        while let equals = rest.firstIndex(of: "="), rest.first != "}" {
            names.append(String(rest[..<equals]).trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
            var index = rest.index(after: equals)
            guard index < rest.endIndex, rest[index] == "\"" else { break }
            index = rest.index(after: index)
            while index < rest.endIndex, rest[index] != "\"" {
                if rest[index] == "\\" { index = rest.index(after: index) }
                if index < rest.endIndex { index = rest.index(after: index) }
            }
            guard index < rest.endIndex else { break }
            rest = rest[rest.index(after: index)...]
            if rest.first == "," { rest = rest.dropFirst() }
        }
        return names
    }

    /// The `le` bounds of the scrape's first histogram series, in order.
    static func buckets(in scrape: String) -> [String] {
        var bounds: [String] = []
        var series: Substring?
        for line in scrape.split(separator: "\n") where line.contains("_bucket{") {
            guard let range = line.range(of: "le=\"") else { continue }
            let start = line[..<range.lowerBound]
            if series == nil { series = start }
            guard start == series else { break }
            bounds.append(String(line[range.upperBound...].prefix { $0 != "\"" }))
        }
        return bounds
    }
}
