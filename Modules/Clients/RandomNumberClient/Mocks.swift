extension RandomNumberClient {
  /// A client that always returns `value`, after checking the range it is asked for.
  ///
  /// ```swift
  /// store.dependencies.randomNumberClient = .constant(42)
  /// ```
  public static func constant(_ value: Int) -> Self {
    Self(fetch: { min, max in
      _ = try RandomNumberRangeError.validatedRange(min: min, max: max)
      return value
    })
  }
}
