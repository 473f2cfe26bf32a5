// swift-tools-version:6.1
import PackageDescription

/// `SYNCD_FUZZ_BUILD=1 swift build -c release --product syncd-fuzz` (Fuzz/run.sh): this package's Swift code compiled
/// for libFuzzer, with coverage and AddressSanitizer, and `FUZZING` defined. Only this package's targets: the
/// dependencies are the plain release build's, so in a scratch path that already holds a release build (CI's) only
/// syncd's own modules are compiled again.
let fuzzing = Context.environment["SYNCD_FUZZ_BUILD"] == "1"
let fuzzingFlags = ["-sanitize=fuzzer,address"]

/// The build tool's settings: it runs during the build, so it is never compiled for libFuzzer.
let toolSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
/// One settings array for every other target (STYLE.md §11).
let swiftSettings: [SwiftSetting] =
    toolSwiftSettings + (fuzzing ? [.unsafeFlags(fuzzingFlags), .define("FUZZING")] : [])

let package = Package(
    name: "syncd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SyncCore", targets: ["SyncCore"]),
        .library(name: "SyncPostgres", targets: ["SyncPostgres"]),
        .executable(name: "syncd", targets: ["syncd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The read API. Its default traits pull in swift-configuration and full Foundation, which syncd does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // SHA-256 for SyncCache.fetch's keys of URLs that hold a secret; already in the graph through AsyncHTTPClient.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        // PostgreSQL as a shared store (SyncPostgres).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Whether a tracer was bootstrapped, so that AsyncHTTPClient makes no spans for the no-op one; already in the
        // graph through AsyncHTTPClient.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // glibc's mallopt, for the syncd binary's allocator settings.
        .systemLibrary(name: "CMalloc"),
        // The lowest rank: helpers every layer uses — calendar and HTTP dates, durations, entity tags, percent-decoding,
        // text escaping, byte counts — in a module of its own, which imports nothing of syncd's.
        .target(name: "SyncSupport", swiftSettings: swiftSettings),
        // SQLite through its C API, knowing SQLite values only: connections, the writer's queue, the readers' pool,
        // statements, migrations. A module of its own, which names nothing of syncd's records, endpoints or HTTP.
        .target(
            name: "SyncSQLite",
            dependencies: [
                "SyncSupport",
                "CSQLite",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The record decoders: a streamed JSON scanner, records paths, columns and their conversions, the schema
        // tally, and the public resilient decoding (JSONValue, ResilientArray…). A module of its own above
        // SyncSupport, which names nothing of endpoints, HTTP or storage; SyncCore re-exports it.
        .target(
            name: "SyncDecoding",
            dependencies: ["SyncSupport"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SyncModel",
            dependencies: [
                "SyncSupport",
                "SyncSQLite",
                "SyncDecoding",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SyncHTTP",
            dependencies: [
                "SyncSupport",
                "SyncDecoding",
                "SyncModel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SyncIngest",
            dependencies: [
                "SyncSupport",
                "SyncDecoding",
                "SyncModel",
                "SyncHTTP",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SyncPersistence",
            dependencies: [
                "SyncSupport",
                "SyncSQLite",
                "SyncDecoding",
                "SyncModel",
                "SyncHTTP",
                "SyncIngest",
                "CSQLite",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings,
            plugins: ["EmbedMigrations"]
        ),
        // The engine: one endpoint's run (pages, retries, fan-out, OAuth2 renewals, the on_status hooks) and the
        // scheduler that paces all of them, above the store it applies to. SyncCore re-exports it for SyncProgress.
        .target(
            name: "SyncRuntime",
            dependencies: [
                "SyncSupport",
                "SyncSQLite",
                "SyncDecoding",
                "SyncModel",
                "SyncHTTP",
                "SyncIngest",
                "SyncPersistence",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SyncCore",
            dependencies: [
                "SyncSupport",
                "SyncSQLite",
                "SyncDecoding",
                "SyncModel",
                "SyncHTTP",
                "SyncIngest",
                "SyncPersistence",
                "SyncRuntime",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // What only the daemon needs from its host: journald-aware log lines and systemd's notify protocol. A target
        // of its own, so that a program embedding SyncCore does not compile them.
        .target(
            name: "SyncSystemd",
            dependencies: [
                "SyncCore", "SyncSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // `syncd infer`: an [[endpoint]] stanza or Codable models from a sample response. A tool for writing a
        // configuration, not for running one: a target of its own, so that a program embedding SyncCore does not
        // compile it.
        .target(
            name: "SyncInfer",
            dependencies: ["SyncCore", "SyncSQLite", "SyncSupport", "SyncHTTP"],
            swiftSettings: swiftSettings
        ),
        // The local HTTP read API over SyncCore's reads. A target of its own, so that a program embedding
        // SyncCore does not compile an HTTP server it does not run.
        .target(
            name: "SyncServe",
            dependencies: [
                "SyncCore", "SyncSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Webhooks' HMAC-SHA256 signatures.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // PostgreSQL as the store, for more than one machine: a target of its own, so that a program embedding
        // SyncCore with SQLite does not compile a PostgreSQL client.
        .target(
            name: "SyncPostgres",
            dependencies: [
                "SyncCore", "SyncSupport", "SyncIngest", "SyncPersistence",
                // SQL identifiers, validated and quoted, and the shape of a numbered migration: SQL's, not SQLite's.
                "SyncSQLite",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings,
            plugins: ["EmbedMigrations"]
        ),
        // The loopback upstream behind `syncd demo`, the tests and the benchmarks.
        .target(
            name: "SampleUpstream",
            dependencies: [
                "SyncCore", "SyncSupport", "SyncHTTP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "syncd",
            dependencies: [
                "CMalloc",
                "SyncCore", "SyncSupport",
                "SyncServe",
                "SyncSystemd",
                "SyncInfer",
                "SyncPostgres",
                .product(name: "Prometheus", package: "swift-prometheus"),
                "SampleUpstream",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings,
            // The Swift runtime's static linking exports every symbol of the executable for dlopen, which syncd never
            // does; the dynamic symbol table of 53,000 names was searched on every start (the runtime's backtrace
            // setup calls dladdr): 0.7 ms of each short command (issue 45).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))]
        ),
        // The sample upstream as a program: `sample-upstream serve|write`, used by Benchmarks/.
        .executableTarget(
            name: "sample-upstream",
            dependencies: [
                "SampleUpstream",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Turns migrations/*.sql into Swift source at build time, so an installed binary needs no file beside it.
        .executableTarget(
            name: "MigrationEmbedder",
            swiftSettings: toolSwiftSettings
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["MigrationEmbedder"]
        ),
        // Fuzzing (README "Fuzzing"): the targets, which the tests replay on the committed corpus, and `syncd-fuzz`,
        // which replays files in a normal build and is libFuzzer's driver when Fuzz/run.sh builds it with
        // `-sanitize=fuzzer,address -DFUZZING`.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "SyncCore", "SyncSupport", "SyncSQLite", "SyncDecoding", "SyncModel", "SyncHTTP", "SyncIngest",
                "SyncPersistence", "SyncRuntime",
                "SyncServe",
                "SyncPostgres",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Fuzz/Sources/FuzzTargets",
            swiftSettings: swiftSettings
        ),
        .target(name: "CLibFuzzer", path: "Fuzz/Sources/CLibFuzzer"),
        .executableTarget(
            name: "syncd-fuzz",
            dependencies: ["FuzzTargets", "CLibFuzzer"],
            path: "Fuzz/Sources/syncd-fuzz",
            swiftSettings: swiftSettings,
            linkerSettings: fuzzing ? [.unsafeFlags(fuzzingFlags)] : []
        ),
        // What the test targets share, as HummingbirdTesting is Hummingbird's: temporary folders, a manual clock, loopback
        // upstreams (TestUpstream, PagedUpstream), a raw HTTP connection, the sync fixture and the read API's harness, record
        // helpers, and a throwaway PostgreSQL cluster. Package API only: it imports no module @testable.
        .target(
            name: "SyncTesting",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncSQLite",
                "SyncHTTP",
                "SyncIngest",
                "SyncRuntime",
                "SyncServe",
                "SampleUpstream",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/SyncTesting",
            swiftSettings: swiftSettings
        ),
        // SyncSupport's tests.
        .testTarget(
            name: "SyncSupportTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // SyncSQLite's tests.
        .testTarget(
            name: "SyncSQLiteTests",
            dependencies: [
                "SyncCore",
                "SyncSQLite",
                "SyncTesting",
            ],
            swiftSettings: swiftSettings
        ),
        // SyncDecoding's tests.
        .testTarget(
            name: "SyncDecodingTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncDecoding",
                "SyncHTTP",
                "SyncTesting",
            ],
            swiftSettings: swiftSettings
        ),
        // SyncModel's tests.
        .testTarget(
            name: "SyncModelTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncSQLite",
                "SyncModel",
                "SyncHTTP",
                "SampleUpstream",
                "SyncTesting",
            ],
            swiftSettings: swiftSettings
        ),
        // SyncHTTP's tests.
        .testTarget(
            name: "SyncHTTPTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncHTTP",
                "SampleUpstream",
                "SyncTesting",
            ],
            swiftSettings: swiftSettings
        ),
        // SyncIngest's tests.
        .testTarget(
            name: "SyncIngestTests",
            dependencies: [
                "SyncCore",
                "SyncHTTP",
                "SyncIngest",
                "SyncTesting",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // SyncPersistence's tests.
        .testTarget(
            name: "SyncPersistenceTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncSQLite",
                "SyncIngest",
                "SyncPersistence",
                "SyncPostgres",
                "SampleUpstream",
                "SyncTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // SyncRuntime's tests.
        .testTarget(
            name: "SyncRuntimeTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncSQLite",
                "SyncHTTP",
                "SyncIngest",
                "SyncPersistence",
                "SyncRuntime",
                "SyncSystemd",
                "SyncPostgres",
                "SampleUpstream",
                "SyncTesting",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // SyncCore's tests: the front door, the typed client, the layering and the fuzz corpus.
        .testTarget(
            name: "SyncCoreTests",
            dependencies: [
                "SyncCore",
                "SyncSQLite",
                "SyncHTTP",
                "SyncPostgres",
                "SampleUpstream",
                "FuzzTargets",
                "SyncTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // SyncServe's tests.
        .testTarget(
            name: "SyncServeTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncSQLite",
                "SyncIngest",
                "SyncServe",
                "SampleUpstream",
                "SyncTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        // SyncSystemd's tests.
        .testTarget(
            name: "SyncSystemdTests",
            dependencies: [
                "SyncSystemd",
                "SyncTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // SyncInfer's tests.
        .testTarget(
            name: "SyncInferTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncHTTP",
                "SyncInfer",
                "SampleUpstream",
                "SyncTesting",
            ],
            swiftSettings: swiftSettings
        ),
        // SyncPostgres's tests.
        .testTarget(
            name: "SyncPostgresTests",
            dependencies: [
                "SyncCore",
                "SyncSupport",
                "SyncSQLite",
                "SyncIngest",
                "SyncPostgres",
                "SyncTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // SampleUpstream's tests.
        .testTarget(
            name: "SampleUpstreamTests",
            dependencies: [
                "SyncCore",
                "SyncHTTP",
                "SampleUpstream",
                "SyncTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The binary's tests: `syncd` run as a process.
        .testTarget(
            name: "syncdTests",
            dependencies: [
                "syncd",
                "SampleUpstream",
                "SyncSupport",
                "SyncTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
