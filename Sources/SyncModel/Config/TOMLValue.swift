/// A value of a TOML document (TOML 1.0, https://toml.io/en/v1.0.0), as ``TOMLReader`` reads it.
///
/// The accessors answer nil for a value of another type, so that a reader of the configuration checks each value's
/// type where it uses it and says what was expected.
package enum TOMLValue: Equatable {
    case string(String)
    /// A 64-bit signed integer, in any of TOML's bases.
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// An offset or local date-time, a local date or a local time, as written (validated, not interpreted: syncd's
    /// configuration takes none).
    case dateTime(String)
    case array([TOMLValue])
    case table(TOMLTable)

    package var string: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    package var int: Int? {
        guard case .integer(let value) = self else { return nil }
        return value
    }

    /// A float; an integer is not one (ask ``int`` too where both are accepted).
    package var double: Double? {
        guard case .float(let value) = self else { return nil }
        return value
    }

    package var bool: Bool? {
        guard case .boolean(let value) = self else { return nil }
        return value
    }

    package var array: [TOMLValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    package var table: TOMLTable? {
        guard case .table(let value) = self else { return nil }
        return value
    }
}
