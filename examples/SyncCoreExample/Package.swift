// swift-tools-version:6.1
import PackageDescription

// A program that embeds SyncCore, as any other package would: through its public API only. CI builds it, so the
// API it shows cannot rot.
let package = Package(
    name: "SyncCoreExample",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so that the product reference holds whatever the checkout's folder is called.
        .package(name: "syncd", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "syncd-example",
            dependencies: [.product(name: "SyncCore", package: "syncd")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
