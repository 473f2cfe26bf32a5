import ArgumentParser
import FoundationEssentials
import Logging
import SampleUpstream
import SyncCore
import SyncServe
import SyncSupport
import SyncSystemd

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Try syncd with no network and no configuration.",
        discussion: """
            Starts a sample upstream on 127.0.0.1 (an ephemeral port) serving a few hundred users, and writes a \
            configuration and a database into a new folder. It runs three sync passes: the first load, a pass \
            after a few users changed, and a pass answered 304. Then it prints commands to try next. Then it runs \
            the daemon on that configuration — polling the upstream, serving the read API — and prints curl \
            commands to try against it, until Ctrl-C (--once stops after the passes).
            """
    )

    @Option(
        help: ArgumentHelp(
            "Where the demo's read API listens (127.0.0.1:0 picks a free port).", valueName: "host:port"))
    var listen: String = "127.0.0.1:8787"

    @Flag(help: "Stop after the three passes, without running the daemon.")
    var once = false

    @Option(
        help: ArgumentHelp(
            "The folder for the demo's configuration and database (default: a new one in /tmp).", valueName: "path"))
    var directory: String?

    @Option(help: ArgumentHelp("How many users the sample upstream serves.", valueName: "n"))
    var users: Int = 300

    func validate() throws {
        guard (1...1_000_000).contains(users) else { throw ValidationError("--users must be between 1 and 1000000.") }
        guard let address = SyncConfiguration.Server.Listen(parsing: listen), case .tcp = address else {
            throw ValidationError("--listen must be host:port, like 127.0.0.1:8787.")
        }
        guard address.isLoopback else {
            throw ValidationError("--listen must be a loopback address, like 127.0.0.1:8787: the demo sets no token.")
        }
    }

    func run() async throws {
        try await reportingErrors {
            LoggingSetup.bootstrap()
            let folder = try makeFolder()
            let upstream = DemoUpstream(userCount: users)
            let server = try await LoopbackHTTPServer.start { request in upstream.handle(request) }
            let configPath = FilePathText.appending("syncd.toml", to: folder)
            do {
                try DemoConfiguration.text(baseURL: server.baseURL, listen: listen).write(
                    toFile: configPath, atomically: true, encoding: .utf8)
                let configuration = try GlobalOptions.parse(["--config", configPath]).loadConfiguration()
                let databasePath = configuration.databasePath ?? FilePathText.appending("cache.db", to: folder)
                let earlier = FileManager.default.fileExists(atPath: databasePath)
                let cache = try SyncRunner.open(configuration, in: .sqlite(path: databasePath))
                let out = Terminal.standardOutput
                out.write(
                    "syncd demo: a sample upstream is serving \(users) users at \(server.baseURL)/users"
                        + DemoConfiguration.paging(pages: upstream.pageCount, size: upstream.pageSize) + "\n")
                out.write("configuration and database: \(folder)\n\n")
                out.write(
                    earlier
                        ? "Pass 1, into the database an earlier demo left there:\n" : "Pass 1, the first load:\n")
                try await pass(configuration, cache: cache)
                upstream.advance()
                out.write("\nPass 2, after the upstream changed a few users, dropped one and added one:\n")
                try await pass(configuration, cache: cache)
                out.write("\nPass 3, nothing changed upstream, so it answers 304:\n")
                try await pass(configuration, cache: cache)
                try await cache.shutdown()
                let example = try await DemoExample.pick(
                    try SyncCache(readingFrom: databasePath, connections: 1), users: users)
                out.write(
                    "\n" + DemoConfiguration.nextSteps(binary: Self.binaryPath, config: configPath, example: example))
                if !once {
                    try await serve(configuration, configPath: configPath, example: example)
                }
            } catch {
                try? await server.shutdown()  // best effort: the demo's error is the one to report
                throw error
            }
            try await server.shutdown()
        }
    }

    /// Runs the daemon on the demo's configuration until Ctrl-C, printing what to try once the API listens.
    private func serve(_ configuration: SyncConfiguration, configPath: String, example: DemoExample) async throws {
        let environment = ProcessInfo.processInfo.environment
        let daemon = Daemon(
            options: try GlobalOptions.parse(["--config", configPath]), configuration: configuration,
            environment: environment, logger: Logger(label: "syncd"),
            notifier: SystemdNotifier(environment: environment),
            onListening: { address in
                Terminal.standardOutput.write(
                    DemoConfiguration.curlSteps(address: "\(address)", example: example))
            },
            onReport: { report in
                Terminal.standardOutput.write(
                    "  poll: " + (ReportText.line(report).split(separator: "\n").first ?? "") + "\n")
            })
        try await daemon.run()
    }

    private func pass(_ configuration: SyncConfiguration, cache: SyncCache) async throws {
        let reports = try await SyncRunner.run(configuration.endpointNames, in: cache, progress: false)
        for report in reports {
            Terminal.standardOutput.write(
                "  " + ReportText.line(report).replacing("\n  ", with: "\n    "))
        }
    }

    private func makeFolder() throws -> String {
        if let directory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return FilePathText.standardized(directory)
        }
        var template = Array(
            FilePathText.appending("syncd-demo-XXXXXX", to: FilePathText.temporaryDirectory).utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let made else {
            throw CLIError("cannot create a folder for the demo in \(FilePathText.temporaryDirectory)")
        }
        return made
    }

    /// The running binary, so that the printed commands work as they are.
    static var binaryPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

enum DemoConfiguration {
    static func text(baseURL: String, listen: String) -> String {
        """
        # Written by `syncd demo`. The upstream it names ran only while the demo did;
        # the cache below stays readable offline.
        database = "cache.db"

        [server]
        listen = "\(listen)"

        [defaults]
        interval = "30s"
        timeout = "10s"

        [[endpoint]]
        name = "users"
        url = "\(baseURL)/users"
        records = "$"
        primary_key = ["id"]
        pagination = { type = "link" }

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        username = "username"
        email = { path = "email", required = true }
        city = "address.city"
        lat = { path = "address.geo.lat", type = "real" }
        lng = { path = "address.geo.lng", type = "real" }
        company = "company.name"

        [[endpoint]]
        name = "flags"
        url = "\(baseURL)/flags.json"

        """
    }

    /// How the upstream pages `/users`, for the demo's first line: nothing when one page holds every user.
    static func paging(pages: Int, size: Int) -> String {
        pages > 1 ? ", \(pages) pages of \(size) (each page's Link header names the next)" : ""
    }

    static func nextSteps(binary: String, config: String, example: DemoExample) -> String {
        let syncd = binary.contains(" ") ? "\"\(binary)\"" : binary
        let city = example.city
        let key = example.key
        let options = "--config \(config)"
        return """
            Try next:
              \(syncd) query users --where city=\(city.contains(" ") ? "'\(city)'" : city) \(options)
              \(syncd) query users --order name --limit 5 --format json \(options)
              \(syncd) get users \(key) \(options)
              \(syncd) get users \(key) --if-none-match "$(\(syncd) get users \(key) \(options) 2>&1 >/dev/null | sed 's/^ETag: //')" \(options); echo "exit $?"
              \(syncd) get flags \(options)
              \(syncd) sql "SELECT city, count(*) AS users FROM users GROUP BY city ORDER BY 2 DESC LIMIT 5" \(options)
              \(syncd) sql "SELECT endpoint, outcome, http_status, pages, inserted, updated, deleted FROM syncd_runs" \(options)
              \(syncd) status \(options)

            """
    }

    /// The read API's routes as curl commands, a 304 revalidation among them.
    static func curlSteps(address: String, example: DemoExample) -> String {
        let base = "http://\(address)"
        let city = example.city
        let key = example.key
        let etag = example.etag
        let encodedCity = PercentEncoding.encode(city) { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        return """

            The daemon now keeps the cache fresh (every 30s) and serves it at \(base) until Ctrl-C.
            Try, in another terminal:
              curl -s \(base)/v1/endpoints
              curl -s '\(base)/v1/endpoints/users/records?city=eq.\(encodedCity)&select=id,name,email&order=name'
              curl -si \(base)/v1/endpoints/users/records/\(key)
              curl -si -H 'If-None-Match: \(etag)' \(base)/v1/endpoints/users/records/\(key)    # 304 Not Modified
              curl -s '\(base)/rest/users?select=name,city&order=name.desc&limit=3'
              curl -s '\(base)/v1/endpoints/users/changes?since=1'
              curl -s \(base)/v1/endpoints/flags/document
              curl -s \(base)/metrics

            """
    }
}
