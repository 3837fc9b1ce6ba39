import Dependencies
import Testing
import WeatherClient

struct TestKeyTests {
  @Test func testValueSearchIsUnimplemented() async {
    await withKnownIssue {
      _ = try await WeatherClient.testValue.search(query: "Berlin")
    }
  }

  @Test func testValueForecastIsUnimplemented() async {
    await withKnownIssue {
      _ = try await WeatherClient.testValue.forecast(location: GeocodingSearch.mock.results[0])
    }
  }

  @Test func testValueForecastInUnitIsUnimplemented() async {
    await withKnownIssue {
      _ = try await WeatherClient.testValue.forecast(
        location: GeocodingSearch.mock.results[0], unit: .fahrenheit)
    }
  }

  @Test func previewValueAnswersWithMocks() async throws {
    let client = WeatherClient.previewValue
    #expect(try await client.search(query: "anything") == .mock)
    #expect(try await client.forecast(location: GeocodingSearch.mock.results[0]) == .mock)
    #expect(
      try await client.forecast(location: GeocodingSearch.mock.results[0], unit: .celsius)
        == .mock(in: .celsius))
  }

  @Test func dependencyValuesExposeTheClient() async throws {
    let location = GeocodingSearch.mock.results[1]
    try await withDependencies {
      $0.weatherClient.search = { @Sendable _ in GeocodingSearch(results: [location]) }
    } operation: { () async throws -> Void in
      @Dependency(\.weatherClient) var weatherClient
      #expect(try await weatherClient.search(query: "LA").results == [location])
    }
  }
}
