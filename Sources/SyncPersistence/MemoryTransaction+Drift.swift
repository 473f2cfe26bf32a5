internal import FoundationEssentials

/// The schema-drift journal in a ``MemoryStore`` (``SyncApply/journalDrift(_:now:in:)`` decides what it holds).
extension MemoryTransaction {
    private var journal: MemoryDrift {
        get { working.data.drift[name] ?? MemoryDrift() }
        nonmutating set { working.data.drift[name] = newValue }
    }

    func driftPathTypes() -> [String: Int] {
        working.data.drift[name]?.pathTypes ?? [:]
    }

    func storeDriftPathTypes(_ types: [(path: String, types: Int)]) {
        for (path, bits) in types { working.data.drift[name, default: MemoryDrift()].pathTypes[path] = bits }
    }

    func hasDriftEntries() -> Bool {
        !(working.data.drift[name]?.entries.isEmpty ?? true)
    }

    /// - Throws: `DecodingError` when `pathsJSON` is not a JSON array of texts (never: ``SyncApply`` writes it).
    func driftEntries(readingBack pathsJSON: String) throws -> [(kind: String, path: String)] {
        let readBack = try JSONDecoder().decode([String].self, from: Data(pathsJSON.utf8))
        let paths = Set(readBack)
        return journal.entries.keys.filter { $0.kind != SchemaDrift.Kind.newField.rawValue || paths.contains($0.path) }
            .map { (kind: $0.kind, path: $0.path) }
    }

    func deleteDriftEntry(kind: String, path: String) {
        working.data.drift[name]?.entries[MemoryDrift.Key(kind: kind, path: path)] = nil
    }

    /// A new entry, or one more sighting of a known one: its detail replaced, its first example kept.
    func noteDrift(_ observations: [DriftObservations.Observation], now: String) {
        var journal = self.journal
        for observation in observations {
            let key = MemoryDrift.Key(kind: observation.kind.rawValue, path: observation.path)
            guard var entry = journal.entries[key] else {
                journal.entries[key] = MemoryDrift.Entry(
                    detail: observation.detail, firstSeen: now, lastSeen: now, count: 1, example: observation.example)
                continue
            }
            entry.lastSeen = now
            entry.count += 1
            entry.detail = observation.detail
            entry.example = entry.example ?? observation.example
            journal.entries[key] = entry
        }
        self.journal = journal
    }

    /// Keeps the `limit` new fields first in ``DriftObservations/newFieldOrder(collation:)``'s order: the most
    /// recently seen, then by path byte by byte.
    func trimNewFields(to limit: Int) {
        let newFields = journal.entries.filter { $0.key.kind == SchemaDrift.Kind.newField.rawValue }
        guard newFields.count > limit else { return }
        let ordered = newFields.sorted { first, second in
            first.value.lastSeen != second.value.lastSeen
                ? second.value.lastSeen.precedesBytewise(first.value.lastSeen)
                : first.key.path.precedesBytewise(second.key.path)
        }
        var journal = self.journal
        for (key, _) in ordered.dropFirst(max(0, limit)) { journal.entries[key] = nil }
        self.journal = journal
    }
}
