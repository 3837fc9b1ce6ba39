import FixtureServer
import Foundation
import LiveHTTP
import Testing
import WeatherClient
import WeatherClientLive

struct SearchTests {
  @Test func searchDecodesResultsFromTheGeocodingAPI() async throws {
    try await withFixtureServer(routes: ["/v1/search": try fixture("geocoding-london")]) { server in
      let search = try await liveClient(server).search(query: "London")
      #expect(
        search.results == [
          GeocodingSearch.Result(
            country: "United Kingdom", latitude: 51.50853, longitude: -0.12574, id: 2_643_743,
            name: "London", admin1: "England"),
          GeocodingSearch.Result(
            country: "Canada", latitude: 42.98339, longitude: -81.23304, id: 6_058_560,
            name: "London", admin1: "Ontario"),
        ])
      #expect(server.requests.map(\.target) == ["/v1/search?name=London"])
      #expect(server.requests.first?.method == "GET")
    }
  }

  @Test func searchIgnoresOptionalKeysOfAResult() async throws {
    try await withFixtureServer(routes: ["/v1/search": try fixture("geocoding-berlin-single")]) {
      server in
      let search = try await liveClient(server).search(query: "Berlin")
      #expect(search.results == [berlin])
    }
  }

  @Test func searchWithNoMatchGivesNoResults() async throws {
    try await withFixtureServer(routes: ["/v1/search": try fixture("geocoding-no-match")]) {
      server in
      let search = try await liveClient(server).search(query: "Qwxzv")
      #expect(search.results == [])
    }
  }

  @Test(
    arguments: [
      ("서울", "/v1/search?name=%EC%84%9C%EC%9A%B8"),
      ("Zürich", "/v1/search?name=Z%C3%BCrich"),
      ("San Francisco & co+1", "/v1/search?name=San%20Francisco%20%26%20co%2B1"),
      ("a=b?c#d", "/v1/search?name=a%3Db%3Fc%23d"),
    ])
  func searchPercentEncodesTheQuery(query: String, target: String) async throws {
    try await withFixtureServer(routes: ["/v1/search": try fixture("geocoding-no-match")]) {
      server in
      _ = try await liveClient(server).search(query: query)
      #expect(server.requests.map(\.target) == [target])
    }
  }

  @Test func searchKeepsThePathOfTheBaseURL() async throws {
    try await withFixtureServer(routes: ["/proxy/v1/search": try fixture("geocoding-no-match")]) {
      server in
      let client = liveClient(baseURL: server.baseURL.appending(path: "proxy"))
      _ = try await client.search(query: "Oslo")
      #expect(server.requests.map(\.target) == ["/proxy/v1/search?name=Oslo"])
    }
  }

  @Test func searchSurfacesHTTPStatus() async throws {
    try await withFixtureServer(routes: ["/v1/search": .status(503, body: "overloaded")]) {
      server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(server).search(query: "London")
      }
      #expect(error?.cause == .httpStatus(503))
      #expect(error?.description == "Open-Meteo geocoding: HTTP 503")
      #expect(error?.errorDescription == "Open-Meteo geocoding: HTTP 503")
    }
  }

  @Test func searchSurfacesAnUndecodableBody() async throws {
    try await withFixtureServer(routes: ["/v1/search": .text("<html>oops</html>")]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(server).search(query: "London")
      }
      guard case .undecodableBody(let path, _) = error?.cause else {
        Issue.record("expected an undecodable body, got \(String(describing: error))")
        return
      }
      #expect(path == "")
      #expect(
        error?.description.hasPrefix(
          "Open-Meteo geocoding: response body does not decode at the top level") == true)
    }
  }

  @Test func searchNamesTheMissingKeyOfAResult() async throws {
    let body = #"{"results":[{"id":1,"name":"X","latitude":1,"longitude":2}]}"#
    try await withFixtureServer(routes: ["/v1/search": .json(body)]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(server).search(query: "X")
      }
      guard case .undecodableBody(let path, let detail) = error?.cause else {
        Issue.record("expected an undecodable body, got \(String(describing: error))")
        return
      }
      #expect(path == "results[0].country")
      #expect(detail == #"missing key "country""#)
    }
  }

  @Test func searchSurfacesOpenMeteoErrorReason() async throws {
    try await withFixtureServer(routes: [
      "/v1/search": try fixture("forecast-error-400", status: 400)
    ]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(server).search(query: "London")
      }
      #expect(
        error?.cause
          == .rejected(
            status: 400, reason: "Latitude must be in range of -90 to 90°. Given: 123.0."))
    }
  }
}
