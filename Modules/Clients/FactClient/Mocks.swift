extension FactClient {
  /// A client that answers ``mockFact(for:)`` at once.
  public static let mock = Self(fetch: { number in Self.mockFact(for: number) })

  /// The text of the fact that ``mock`` gives for `number`.
  ///
  /// ```swift
  /// FactClient.mockFact(for: 3)  // "3 is a good number."
  /// ```
  public static func mockFact(for number: Int) -> String {
    "\(number) is a good number."
  }
}
