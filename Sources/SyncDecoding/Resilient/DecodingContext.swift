extension CodingUserInfoKey {
    /// The key under which a decoder carries a context value for models that decode differently by context.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.userInfo[.syncdContext] = AppContext(version: "1.4.0")
    /// ```
    ///
    /// A model reads it back with ``Swift/Decoder/context(_:)``.
    public static let syncdContext: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "syncd.context") else {
            preconditionFailure("a constant raw value is a valid coding user info key")
        }
        return key
    }()
}

extension Decoder {
    /// The context value of this type that the decoder carries under ``Swift/CodingUserInfoKey/syncdContext``.
    ///
    /// ```swift
    /// init(from decoder: any Decoder) throws {
    ///     let version = decoder.context(AppContext.self)?.version
    ///     …
    /// }
    /// ```
    ///
    /// - Parameter type: The context's type.
    /// - Returns: The context, or `nil` when the decoder carries none of this type.
    public func context<Context>(_ type: Context.Type = Context.self) -> Context? {
        userInfo[.syncdContext] as? Context
    }
}
