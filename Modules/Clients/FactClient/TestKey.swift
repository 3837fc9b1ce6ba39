import Dependencies

extension FactClient: TestDependencyKey {
  /// Mock facts (``mock``), without the network.
  public static let previewValue = Self.mock

  /// ``fetch`` is unimplemented: calling it records a test failure and throws.
  public static let testValue = Self()
}

extension DependencyValues {
  /// The client that fetches facts about numbers.
  public var factClient: FactClient {
    get { self[FactClient.self] }
    set { self[FactClient.self] = newValue }
  }
}
