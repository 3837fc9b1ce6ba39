import Dependencies

extension RandomNumberClient: TestDependencyKey {
  /// A random number from the system's generator, offline, so previews behave like the app.
  public static let previewValue = Self(fetch: { min, max in
    Int.random(in: try RandomNumberRangeError.validatedRange(min: min, max: max))
  })

  /// ``fetch`` is unimplemented: calling it records a test failure and throws.
  public static let testValue = Self()
}

extension DependencyValues {
  /// The client that produces random integers.
  public var randomNumberClient: RandomNumberClient {
    get { self[RandomNumberClient.self] }
    set { self[RandomNumberClient.self] = newValue }
  }
}
