// A MemoryStore's part of a child endpoint's run: its parent's rows and its state per parent, read before the
// fetch, and the one transaction that applies the whole fan-out.

import SyncDecoding
package import SyncIngest
package import SyncModel
internal import SyncSQLite

extension MemoryStore {
    package func fanOutInputs(for endpoint: EndpointConfiguration) async throws -> FanOutInputs {
        let data = snapshot
        let children = data.children[endpoint.name.name] ?? [:]
        guard let plan = endpoint.fanOut, let table = data.tables[plan.parent.name] else {
            return FanOutInputs(parents: [], children: children)
        }
        let keyPositions = table.positions(of: plan.parentKey)
        let positions = table.positions(of: plan.parentColumns)
        let parents = table.rows.sorted { $0.value.rowID < $1.value.rowID }.map { _, row in
            ParentRow(
                key: ColumnValue.keyJSON(keyPositions.map { $0.map { row.values[$0] } ?? .null }),
                values: positions.map { $0.map { row.values[$0] } ?? .null }, version: row.version)
        }
        return FanOutInputs(parents: parents, children: children)
    }

    package func applyFanOut(
        _ body: FanOutBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        // A transaction that waits for the walks gives way to every other write.
        if body.streams { body.run.giveWay { [self] in hasWaitingWrites } }
        return try await apply(run) { try $0.applyFanOut(body, facts: facts(), in: &$1) }
    }
}

extension MemoryTable {
    /// Each of the columns named `names`' position in the stored ones; nil for one the table does not hold.
    func positions(of names: [String]) -> [Int?] {
        names.map { name in columns.firstIndex { $0.name == name } }
    }
}

extension MemoryTransaction {
    func parentedRows(_ shape: TableShape, before version: Int64)
        -> [(row: [ColumnValue], key: [ColumnValue], parent: String?)]
    {
        guard let table = working.data.tables[name] else { return [] }
        let position = table.positions(of: [TableShape.parentColumn])[0]
        let rows = table.rows.filter { $0.value.version < version }
        return rows.sorted { $0.value.rowID < $1.value.rowID }.map { key, row in
            guard let position, case .text(let parent) = row.values[position] else { return (key, key, nil) }
            return (key, key, parent)
        }
    }

    func replaceChildStates(_ states: [ChildState], keeping parents: Set<String>) {
        var stored = (working.data.children[name] ?? [:]).filter { parents.contains($0.key) }
        for state in states { stored[state.parentKey] = state }
        working.data.children[name] = stored
    }
}
