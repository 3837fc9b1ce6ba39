import Foundation
import Testing
import WeatherClient
import WeatherClientOffline

struct GazetteerTests {
  @Test func bundledGazetteerHasEveryPlace() throws {
    let gazetteer = try bundled()
    #expect(gazetteer.count == 34_003)
    #expect(gazetteer.nameCount > gazetteer.count)
    #expect(gazetteer.timeZoneIdentifier(ofPlace: 1_835_848) == "Asia/Seoul")
    #expect(gazetteer.place(id: 5_368_361)?.name == "Los Angeles")
    #expect(gazetteer.place(id: 5_368_361)?.admin1 == "California")
    #expect(gazetteer.place(id: 1) == nil)
    #expect(gazetteer.timeZoneIdentifier(ofPlace: 1) == nil)
  }

  @Test func attributionIsBundledWithTheCreditLine() throws {
    let url = try #require(Gazetteer.attributionURL)
    let attribution = try String(contentsOf: url, encoding: .utf8)
    #expect(attribution.contains(Gazetteer.credit))
    #expect(attribution.contains("CC BY 4.0"))
  }

  @Test func textInTheDerivedFormatLoads() throws {
    let gazetteer = try Gazetteer(tsv: Data(smallGazetteerText.utf8))
    #expect(gazetteer.count == 6)
    #expect(
      gazetteer.place(id: 13)
        == GeocodingSearch.Result(
          country: "Switzerland", latitude: 47.3667, longitude: 8.55, id: 13, name: "Zürich"))
    #expect(gazetteer.place(id: 10)?.admin1 == "Illinois")
    #expect(gazetteer.timeZoneIdentifier(ofPlace: 14) == "America/New_York")
  }

  @Test func aLineWithMissingFieldsIsNamed() throws {
    let text = "# header\n1\tA\t1\t2\tX\tXX\t\t5\tUTC\t\n2\tB\t1\t2\tX\tXX\t5\tUTC\n"
    let error = #expect(throws: GazetteerError.self) {
      try Gazetteer(tsv: Data(text.utf8), source: "test.tsv")
    }
    #expect(
      error?.cause == .malformedLine(number: 3, reason: "expected 10 tab-separated fields, found 8")
    )
    #expect(
      error?.description
        == "Offline gazetteer (test.tsv): line 3: expected 10 tab-separated fields, found 8; "
        + "regenerate it with python3 Tools/gazetteer/derive.py")
  }

  @Test func aBadNumberIsNamed() throws {
    let text = "1\tA\t95.5\t2\tX\tXX\t\t5\tUTC\t\n"
    let error = #expect(throws: GazetteerError.self) { try Gazetteer(tsv: Data(text.utf8)) }
    #expect(
      error?.cause
        == .malformedLine(
          number: 1, reason: "latitude \"95.5\" is not a number of degrees from -90 to 90"))
  }

  @Test func anEmptyFileIsRefused() throws {
    let error = #expect(throws: GazetteerError.self) { try Gazetteer(tsv: Data("# only\n".utf8)) }
    #expect(error?.cause == .malformedLine(number: 1, reason: "no place in the file"))
  }

  @Test func aMissingFileNamesItsPath() throws {
    let url = URL(fileURLWithPath: "/nonexistent/gazetteer.tsv")
    let error = #expect(throws: GazetteerError.self) { try Gazetteer(contentsOf: url) }
    #expect(error?.source == "/nonexistent/gazetteer.tsv")
    #expect(
      error?.description.hasPrefix("Offline gazetteer (/nonexistent/gazetteer.tsv): cannot be read")
        == true)
  }

  @Test func clientOverAGivenGazetteerUsesItsPlacesAndTimeZones() async throws {
    let gazetteer = try Gazetteer(tsv: Data(smallGazetteerText.utf8))
    let now = try instant("2026-01-15T23:30:00Z")
    let client = WeatherClient.offline(gazetteer: gazetteer, now: { now })
    let results = try await client.search(query: "zuerich").results
    #expect(results.map(\.id) == [13])
    // 23:30 UTC is 00:30 on the 16th in Zürich and 17:30 on the 15th in Springfield.
    let zurich = try await client.forecast(location: try #require(results.first))
    #expect(zurich.daily.time.first == (try day("2026-01-16")))
    let springfield = try #require(gazetteer.place(id: 10))
    #expect(
      try await client.forecast(location: springfield).daily.time.first == (try day("2026-01-15")))
  }
}
