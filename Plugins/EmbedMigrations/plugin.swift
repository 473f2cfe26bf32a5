import Foundation
import PackagePlugin

/// Embeds `migrations/NNNN_name.sql` from the package root into SyncPersistence as Swift source, and
/// `migrations/postgres/NNNN_name.sql` into SyncPostgres.
///
/// The SQL files stay the single source of truth for syncd's own tables; the generated
/// `EmbeddedMigrations.swift` is rebuilt whenever one of them changes.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        var directory = context.package.directoryURL.appending(path: "migrations")
        if target.name == "SyncPostgres" { directory = directory.appending(path: "postgres") }
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations",
                executable: try context.tool(named: "MigrationEmbedder").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
