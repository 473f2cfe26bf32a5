extension SyncEndpoint {
    /// How many of its stored rows one snapshot may delete (`max_delete`): a share of them (`"50%"`) or a number of
    /// rows (`10`). A snapshot that would delete more fails its run and keeps the data.
    ///
    /// A share is rounded up, so that a snapshot may always delete one row when the share is above 0%: deleting 1
    /// of 1 stored row is allowed at `"50%"`, 2 of 2 is not. `"100%"` allows any deletion; `"0%"` and `0` allow
    /// none. An empty snapshot is the limit case, decided by ``SyncEndpoint/allowEmpty`` alone.
    public struct DeletionLimit: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Sendable, Hashable {
            case percent(Int)
            case rows(Int)
        }

        private let kind: Kind

        /// `"50%"`: a snapshot may delete up to half of the stored rows.
        public static let `default` = DeletionLimit(kind: .percent(50))

        private init(kind: Kind) {
            self.kind = kind
        }

        /// A share of the stored rows, from 0 to 100 percent.
        public static func percent(_ percent: Int) -> DeletionLimit { DeletionLimit(kind: .percent(percent)) }

        /// A number of rows, at least 0.
        public static func rows(_ rows: Int) -> DeletionLimit { DeletionLimit(kind: .rows(rows)) }

        /// Reads `"50%"`: whole percents, at most three digits.
        package init?(percentText text: String) {
            guard text.hasSuffix("%"), text.count > 1, text.count <= 4,
                text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }), let percent = Int(text.dropLast())
            else { return nil }
            self.kind = .percent(percent)
        }

        /// Why the limit cannot be used, in the TOML file's words; nil when it can.
        package var problem: String? {
            let isValid =
                switch kind {
                case .percent(let percent): (0...100).contains(percent)
                case .rows(let rows): rows >= 0
                }
            return isValid ? nil : Self.expected
        }

        /// What `max_delete` must be.
        package static let expected =
            #"max_delete must be a share of the stored rows from "0%" to "100%" (such as "50%") "#
            + "or a whole number of rows of at least 0"

        /// The most rows a snapshot may delete when `stored` rows are stored.
        package func allowed(stored: Int) -> Int {
            switch kind {
            case .rows(let rows):
                return max(0, rows)
            case .percent(let percent):
                // Rounded up, without overflow: whole hundreds times the percent, then the rest.
                let percent = min(max(0, percent), 100)
                let (hundreds, rest) = max(0, stored).quotientAndRemainder(dividingBy: 100)
                return hundreds * percent + (rest * percent + 99) / 100
            }
        }

        /// As written in the configuration: `"50%"` or `10`.
        public var description: String {
            switch kind {
            case .percent(let percent): "\"\(percent)%\""
            case .rows(let rows): String(rows)
            }
        }
    }
}
