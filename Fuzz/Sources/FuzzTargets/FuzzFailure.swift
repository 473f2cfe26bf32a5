/// A property a fuzz target checks did not hold: the one sentence saying which, and with what.
package struct FuzzFailure: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// Fails with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
    guard condition else { throw FuzzFailure(message()) }
}
