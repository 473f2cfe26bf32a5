import ArgumentParser
import FoundationEssentials
import SyncCore
import SyncInfer

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

struct InferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Print an [[endpoint]] stanza (or Codable models) inferred from a JSON response.",
        discussion: """
            Reads the response, at most 64 MiB, from an http(s) URL (fetched as syncd fetches: TLS, a 30 s \
            timeout), a file, or - for standard input.

            The records are the top-level array, else the largest array of objects within five keys of the root. \
            Between arrays of the same size, it prefers one whose keys the others' records do not refer to \
            (side-loaded), then one whose records have a key, then the one with the most fields. Stderr says \
            which and why; --records overrides.

            Every record is read. Each scalar path becomes a column (nested objects flattened, at most 40 \
            columns). Its type is integer, real, boolean, timestamp or text, and json for arrays and mixed \
            values. A column present and non-null in every record read is required. The primary key is `id` \
            when it is unique, else a unique …_id, …Id, …uuid, …key, sku, slug, guid, code or doi column, else \
            such a column of a nested object (repo.id), else none.

            A pagination line is proposed from a Link header with rel="next" or from the envelope, commented \
            when unsure. The envelopes known are a Stripe list, a GraphQL connection, a next URL or cursor, \
            Crossref's next-cursor, Google's nextPageToken, Bitbucket Server's nextPageStart, Jira's startAt and \
            total, and page and per_page beside a total. Over http(s), a pagination that is sure is followed for \
            up to --pages pages before anything is decided. That is 3 pages by default and at most 20, each at \
            most 64 MiB, 128 MiB over all pages and 2 minutes in all. The columns, types, required columns and \
            key are then decided from every record read. When a single page was read and more follow, required \
            is left in comments.

            A response without an array of objects (an array of numbers or strings too) gives a document \
            endpoint. A secret query parameter of the URL (api_key, access_token…) is left out of url. It is \
            sent with a query auth read from an environment variable.

            With --parent NAME, the URL is one child of the endpoint NAME of the configuration (a repository's \
            issues). The stanza is then a child endpoint, one walk per row of NAME, and its rows carry the \
            parent's key (parent_columns). Its url takes {parent.COLUMN} where the URL holds a value of one of \
            NAME's stored rows: a whole path segment or segments, or a query value; the longest value wins. \
            NAME must have been synced.

            Exits 1 when the input cannot be read, is not JSON (naming the byte), or is an empty array or \
            --records names no array of objects.
            """
    )

    @Argument(help: ArgumentHelp("An http(s) or file URL, a file path, or - for standard input.", valueName: "source"))
    var source: String

    @Option(help: ArgumentHelp("The endpoint's name (default: from the URL or file name).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("The JSON path of the records array, $ for the root.", valueName: "path"))
    var records: String?

    @Option(
        help: ArgumentHelp(
            "The most pages read, following the pagination proposed, from 1 to 20.", valueName: "n"))
    var pages = InferenceSource.defaultPages

    @Flag(help: "Print Codable Swift models instead of a stanza.")
    var swift = false

    @Option(
        help: ArgumentHelp(
            "The parent endpoint whose rows the URL holds a value of: propose a child endpoint.", valueName: "name"))
    var parent: String?

    /// `--config` and `--database`: where `--parent`'s endpoint and its rows are.
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        if let name,
            name.wholeMatch(of: /[a-z][a-z0-9_]{0,62}/) == nil || name.hasPrefix("syncd_")
                || name.hasPrefix("sqlite_")
        {
            throw ValidationError(
                "--name \"\(name)\" is not a valid endpoint name: use a lowercase letter, then up to 62 lowercase "
                    + "letters, digits or underscores")
        }
        guard InferenceSource.pageRange.contains(pages) else {
            throw ValidationError(
                "--pages \(pages) is out of range: read from \(InferenceSource.pageRange.lowerBound) to "
                    + "\(InferenceSource.pageRange.upperBound) pages")
        }
        if let records {
            do {
                _ = try EndpointInference(name: "endpoint", url: "https://example.com", records: records)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() async throws {
        try await reportingErrors {
            let url = source == "-" ? "https://example.com/TODO" : Self.url(of: source)
            let inference = try EndpointInference(
                name: name ?? EndpointInference.defaultName(for: source == "-" ? "" : url), url: url, records: records)
            var endpoint: InferredEndpoint
            let shapes: InferredShapes
            do {
                if source == "-" {
                    // A standard input closed at start now reads /dev/null: read no descriptor, which says closed.
                    let descriptor = StandardDescriptors.inputWasClosed ? -1 : STDIN_FILENO
                    (endpoint, shapes) = try InferenceSource.infer(
                        descriptor: descriptor, name: "standard input", inference)
                } else {
                    let client = APIClient()
                    do {
                        (endpoint, shapes) = try await InferenceSource.infer(
                            url: url, inference, client: client, pages: pages)
                    } catch {
                        try? await client.shutdown()  // best effort: the fetch's error is the one to report
                        throw error
                    }
                    try await client.shutdown()
                }
            } catch let error as InferenceError {
                throw CLIError(error.description)
            }
            if let parent { try await Self.link(&endpoint, toParent: parent, options: options) }
            Terminal.standardError.write(Self.summary(endpoint))
            if source == "-" { Terminal.standardError.write("syncd: read from standard input: replace the url\n") }
            if swift {
                Terminal.standardOutput.write(SwiftModelWriter.render(shapes, endpoint: endpoint))
            } else {
                Terminal.standardOutput.write(EndpointStanza.render(endpoint))
            }
        }
    }

    /// The URL of a source: itself when it is an http(s) or file URL, else the file URL of a path.
    static func url(of source: String) -> String {
        let lowered = source.lowercased()
        let isURL = lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file:")
        return isURL ? source : InferenceSource.fileURL(path: source)
    }

    /// One line for stderr: where the records were found and what else could have been, with the control
    /// characters of the sample's keys escaped.
    static func summary(_ endpoint: InferredEndpoint) -> String {
        guard endpoint.recordsPath != nil else {
            return "syncd: no array of objects found: a document endpoint (use --records PATH to name one)\n"
        }
        var line = "syncd: " + EndpointStanza.recordsRead(endpoint) { "\"\($0)\"" }
        line += ", " + Counting.counted(endpoint.columns.count, "column")
        if let choice = endpoint.choice { line += "; " + choice }
        if !endpoint.otherCandidates.isEmpty {
            let others = endpoint.otherCandidates.prefix(3).map { "\"\($0.path)\" (\($0.count))" }
            line += "; other arrays of objects: " + others.joined(separator: ", ") + " (choose with --records PATH)"
        }
        if endpoint.primaryKey == nil { line += "; no primary key found: see the TODO" }
        if endpoint.withholdsRequired { line += "; required is left in comments" }
        if let parent = endpoint.parent {
            line += "; a child of \"\(parent.parent)\", one walk per row, by its column \"\(parent.column)\""
        } else if let (name, _) = endpoint.unmatchedParent {
            line += "; no value of \"\(name)\"'s rows is a whole part of the URL: see the TODO"
        }
        var text = TerminalText.escapedNames(line) + "\n"
        if let reason = endpoint.stopReason { text += "syncd: " + TerminalText.escapedNames(reason) + "\n" }
        return text
    }
}
