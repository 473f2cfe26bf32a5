import ArgumentParser
import Foundation
import SampleUpstream
import Synchronization

/// The sample upstream as a program of its own: for benchmarks, and for trying syncd against a server you control.
@main
struct SampleUpstreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-upstream",
        abstract: "Serve (or write) jsonplaceholder-shaped users for trying and benchmarking syncd.",
        subcommands: [Serve.self, Write.self]
    )

    /// The two data sets: the base users, and the same after a churn.
    struct DataOptions: ParsableArguments {
        @Option(help: "How many users.") var users = 100_000
        @Option(help: "Change every n-th user in the churned set (20 = 5%).") var changedEvery = 20
        @Option(help: "Delete every n-th user in the churned set (100 = 1%).") var deletedEvery = 100
        @Option(help: "Users added at the end of the churned set.") var added: Int?

        func base() -> [UInt8] { SampleUsers.json(count: users) }

        func churned() -> [UInt8] {
            SampleUsers.json(
                count: users, changedEvery: changedEvery, deletedEvery: deletedEvery, added: added ?? users / 100)
        }
    }

    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Serve /users (the base set), /users-churned and /flags.json (the demo's document) on 127.0.0.1, with "
                + "ETags and 304s, until stdin closes.",
            discussion: """
                /users-paged?page=N (from 1) serves the base set in pages of --page-size users, each with a \
                Link rel="next" header to the next page but the last. With --stamped, /users-stamped?stamp=1 and \
                ?stamp=2 serve the base set with "stamp": N first in every user, and /users-alternating serves \
                stamp 1, then 2, then 1… (one per request, never 304): every sync of it rewrites every row.
                """)

        @OptionGroup var data: DataOptions
        @Option(help: "The port (0: any free one, printed on stdout).") var port = 0
        @Option(help: "Users per page of /users-paged.") var pageSize = 100
        @Flag(help: "Also serve /users-stamped and /users-alternating (two more copies of the set in memory).")
        var stamped = false
        @Option(
            help: ArgumentHelp(
                "Milliseconds each answer of /users-paged waits before it starts (0 to 10000): an upstream's latency, "
                    + "which loopback does not have."))
        var latency = 0

        func run() async throws {
            let base = data.base()
            let churned = data.churned()
            let pages = SampleUsers.pages(count: data.users, pageSize: pageSize)
            let stamps = stamped ? [1, 2].map { SampleUsers.json(count: data.users, stamp: $0) } : []
            let requests = RequestCounter()
            let server = try await LoopbackHTTPServer.start(port: port) { request in
                if !stamps.isEmpty, request.path == "/users-stamped" || request.path == "/users-alternating" {
                    let stamp =
                        request.path == "/users-alternating"
                        ? (requests.next() & 1) + 1
                        : Int(request.query["stamp"] ?? "") ?? 0
                    guard stamps.indices.contains(stamp - 1) else { return UpstreamResponse(status: 404) }
                    let etag = "\"stamp-\(stamp)\""
                    if request.header("If-None-Match") == etag {
                        return UpstreamResponse(status: 304, headers: [(name: "ETag", value: etag)])
                    }
                    return .json(stamps[stamp - 1], headers: [(name: "ETag", value: etag)])
                }
                if request.path == "/users-paged" {
                    if latency > 0 { try? await Task.sleep(for: .milliseconds(min(latency, 10_000))) }
                    let page = Int(request.query["page"] ?? "1") ?? 0
                    guard pages.indices.contains(page - 1) else { return UpstreamResponse(status: 404) }
                    let next: [(name: String, value: String)] =
                        page < pages.count ? [("Link", "</users-paged?page=\(page + 1)>; rel=\"next\"")] : []
                    return .json(pages[page - 1], headers: next)
                }
                let (body, etag): ([UInt8], String) =
                    switch request.path {
                    case "/users": (base, "\"base\"")
                    case "/users-churned": (churned, "\"churned\"")
                    case "/flags.json": (DemoUpstream.flags, "\"flags-v1\"")
                    default: ([], "")
                    }
                guard !etag.isEmpty else { return UpstreamResponse(status: 404) }
                if request.header("If-None-Match") == etag {
                    return UpstreamResponse(status: 304, headers: [(name: "ETag", value: etag)])
                }
                return .json(body, headers: [(name: "ETag", value: etag)])
            }
            FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
            // Serve until whoever started us closes our stdin: a pipe's end, not a timer.
            _ = await Task.detached { FileHandle.standardInput.readDataToEndOfFile() }.value
            try await server.shutdown()
        }
    }

    struct Write: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write the base and churned sets as JSON files.")

        @OptionGroup var data: DataOptions
        @Argument(help: "The base set's file.") var base: String
        @Argument(help: "The churned set's file.") var churned: String

        func run() throws {
            try Data(data.base()).write(to: URL(fileURLWithPath: base))
            try Data(data.churned()).write(to: URL(fileURLWithPath: churned))
        }
    }
}

/// Counts requests across the server's connections (an `Atomic` cannot be captured by an escaping closure itself).
final class RequestCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// The number of requests counted before this one.
    func next() -> Int {
        count.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
