import Dependencies
import RandomNumberClient
import Testing

struct RandomNumberClientTests {
  @Test func validatedRangeAcceptsOrderedBounds() throws {
    #expect(try RandomNumberRangeError.validatedRange(min: 1, max: 6) == 1...6)
    #expect(try RandomNumberRangeError.validatedRange(min: 3, max: 3) == 3...3)
  }

  @Test func validatedRangeRejectsReversedBounds() {
    #expect(throws: RandomNumberRangeError(min: 7, max: 2)) {
      try RandomNumberRangeError.validatedRange(min: 7, max: 2)
    }
    #expect(
      RandomNumberRangeError(min: 7, max: 2).description
        == "Random number: invalid range, min (7) is greater than max (2)")
  }

  @Test func constantAnswersItsValueAndChecksTheRange() async throws {
    let client = RandomNumberClient.constant(4)
    #expect(try await client.fetch(min: 1, max: 6) == 4)
    await #expect(throws: RandomNumberRangeError.self) {
      try await client.fetch(min: 6, max: 1)
    }
  }

  @Test func previewValueStaysInRange() async throws {
    for _ in 0..<50 {
      #expect((1...6).contains(try await RandomNumberClient.previewValue.fetch(min: 1, max: 6)))
    }
  }

  @Test func testValueIsUnimplemented() async {
    await withKnownIssue {
      _ = try await RandomNumberClient.testValue.fetch(min: 1, max: 6)
    }
  }

  @Test func dependencyValuesExposeTheClient() async throws {
    try await withDependencies {
      $0.randomNumberClient = .constant(5)
    } operation: { () async throws -> Void in
      @Dependency(\.randomNumberClient) var randomNumberClient
      #expect(try await randomNumberClient.fetch(min: 1, max: 10) == 5)
    }
  }
}
