import Dependencies
import FactClient
import Testing

struct FactClientTests {
  @Test func mockAnswersAGoodNumber() async throws {
    #expect(try await FactClient.mock.fetch(3) == "3 is a good number.")
    #expect(try await FactClient.previewValue.fetch(-1) == FactClient.mockFact(for: -1))
  }

  @Test func testValueIsUnimplemented() async {
    await withKnownIssue {
      _ = try await FactClient.testValue.fetch(42)
    }
  }

  @Test func dependencyValuesExposeTheClient() async throws {
    try await withDependencies {
      $0.factClient.fetch = { @Sendable in "\($0) is a good number Brent" }
    } operation: { () async throws -> Void in
      @Dependency(\.factClient) var factClient
      #expect(try await factClient.fetch(1) == "1 is a good number Brent")
    }
  }
}
