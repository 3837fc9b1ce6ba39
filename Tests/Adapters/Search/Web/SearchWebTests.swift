import ComposableArchitecture
import Foundation
import SearchFeature
import SearchWeb
import Testing
import WeatherClient
import WebAdapterTesting
import WebFrontend

/// The search section alone, served over HTTP in process: its routes and view on `Search`.
struct SearchWebTests {
  static let seoul = GeocodingSearch.Result(
    country: "South Korea", latitude: 37.566, longitude: 126.9784, id: 1_835_848, name: "Seoul")

  static let dependencies: @Sendable (inout DependencyValues) -> Void = {
    $0.continuousClock = ImmediateClock()
    $0.weatherClient.search = { @Sendable _ in GeocodingSearch(results: [seoul]) }
    $0.weatherClient.forecast = { @Sendable _ in .mock }
  }

  @Test func itKeepsEveryPromiseOfAWebAdapter() async throws {
    let problems = try await AdapterContract.problems(
      of: SearchPage.preview, dependencies: Self.dependencies)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func aQueryFindsAPlaceWhoseForecastIsShown() async throws {
    try await AdapterServer.test(SearchPage.preview, dependencies: Self.dependencies) { client in
      try await client.start()
      #expect(try await client.send("search.query", [("query", .string("seo"))]).status == 200)
      #expect(try await client.send("search.submit").status == 200)
      let found = try await client.state {
        if case .array(let results) = $0["search"]?["results"] { !results.isEmpty } else { false }
      }
      guard case .array(let results) = found?["search"]?["results"] else {
        Issue.record("no results: \(String(describing: found))")
        return
      }
      #expect(results.first?["name"]?.string == "Seoul")
      let selected = try await client.send("search.select", [("id", .number("1835848"))])
      #expect(selected.status == 200, "\(selected)")
      let shown = try await client.state { $0["search"]?["weather"].map { $0 != .null } ?? false }
      #expect(shown?["search"]?["weather"] != nil)
    }
  }

  @Test func aResultThatIsNotListedIs422AndAQueryTooLongIs400() async throws {
    try await AdapterServer.test(SearchPage.preview, dependencies: Self.dependencies) { client in
      let start = try await client.start()
      let unknown = try await client.send("search.select", [("id", .number("7"))])
      #expect(unknown.status == 422, "\(unknown)")
      let long = String(repeating: "a", count: SearchPage.maximumQueryLength + 1)
      let tooLong = try await client.send("search.query", [("query", .string(long))])
      #expect(tooLong.status == 400, "\(tooLong)")
      #expect(try await client.state().revision == start.revision)
    }
  }
}
