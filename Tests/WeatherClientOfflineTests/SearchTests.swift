import Foundation
import Testing
import WeatherClient

@testable import WeatherClientOffline

struct SearchTests {
  @Test func seoFindsSeoulFirst() throws {
    let results = try bundled().search("seo")
    let seoul = try #require(results.first)
    #expect(seoul.name == "Seoul")
    #expect(seoul.country == "South Korea")
    #expect(seoul.id == 1_835_848)
    #expect(seoul.latitude == 37.566)
    #expect(seoul.longitude == 126.9784)
    #expect(seoul.admin1 == "Seoul")
    #expect(results.map(\.name).prefix(3) == ["Seoul", "Seongnam-si", "Seogwipo"])
  }

  @Test func hangulFindsSeoul() throws {
    #expect(try firstPlace("서울").id == 1_835_848)
    #expect(try firstPlace("서").name == "Seoul")
  }

  @Test func wholeNameFindsThePlace() throws {
    #expect(try firstPlace("Seoul").id == 1_835_848)
    #expect(try firstPlace("Oslo").name == "Oslo")
    #expect(try firstPlace("Los Angeles").admin1 == "California")
  }

  @Test func accentsAndCaseAreIgnored() throws {
    for query in ["São Paulo", "sao paulo", "SAO PAULO", "são", "Sao Paulo  "] {
      let first = try firstPlace(query)
      #expect(first.name == "São Paulo", "query \"\(query)\"")
      #expect(first.country == "Brazil", "query \"\(query)\"")
    }
    for query in ["Zürich", "zurich", "ZUERICH", "zür"] {
      let first = try firstPlace(query)
      #expect(first.name == "Zürich", "query \"\(query)\"")
      #expect(first.country == "Switzerland", "query \"\(query)\"")
    }
  }

  @Test func lettersWithoutDecompositionMatchTheirASCIISpelling() throws {
    #expect(try firstPlace("giessen").name == "Gießen")
    #expect(try firstPlace("Gießen").name == "Gießen")
    #expect(try firstPlace("lodz").name == "Łódź")
    #expect(try firstPlace("ŁÓDŹ").name == "Łódź")
  }

  @Test func hyphensAndSpacesAreTheSame() throws {
    #expect(try firstPlace("winston salem").name == "Winston-Salem")
    #expect(try firstPlace("Winston-Sal").name == "Winston-Salem")
  }

  @Test func otherScriptsFindTheirPlaces() throws {
    #expect(try firstPlace("東京").name == "Tokyo")
    #expect(try firstPlace("Москва").name == "Moscow")
    #expect(try firstPlace("Αθήνα").name == "Athens")
    #expect(try firstPlace("αθηνα").name == "Athens")
  }

  @Test func resultsAreRankedByPopulation() throws {
    let gazetteer = try Gazetteer(tsv: Data(smallGazetteerText.utf8))
    // 11 (169,176) > 10 (114,394) > 14 (33,000) > 12 (29,000) > 15 (28,000, via "Springtown").
    #expect(gazetteer.search("spring").map(\.id) == [11, 10, 14, 12, 15])
    #expect(gazetteer.search("springf").map(\.id) == [11, 10])
  }

  /// A place whose own name matches comes before one matched by an alternate name (some
  /// language's spelling), and a whole name before a longer one; population orders the rest.
  @Test func ownNamesAndWholeNamesComeFirst() throws {
    let gazetteer = try bundled()
    for query in ["x", "new york", "sao paulo", "lon", "sp", "paris", "san"] {
      let key = SearchKey.fold(query)
      let ownName = gazetteer.search(query).map { SearchKey.fold($0.name).starts(with: key) }
      // No place matched by another name before one matched by its own.
      #expect(ownName == ownName.sorted { $0 && !$1 }, "\(query): \(ownName)")
    }
    #expect(try firstPlace("x").name.hasPrefix("X"))
    #expect(try firstPlace("new york").name == "New York City")
    #expect(try firstPlace("paris").name == "Paris")
  }

  /// A place matched only by another of its names says which one, as the file spells it — an
  /// equal one before a longer one; a place matched by its own name says nothing.
  @Test func aPlaceFoundByAnotherNameSaysWhich() throws {
    let gazetteer = try Gazetteer(tsv: Data(smallGazetteerText.utf8))
    #expect(gazetteer.search("zurigo").map(\.matchedName) == ["Zurigo"])
    #expect(gazetteer.search("zuerich").map(\.matchedName) == ["Zuerich"])
    #expect(gazetteer.search("zurichb").map(\.matchedName) == ["Zürichberg"])
    #expect(gazetteer.search("zu").map(\.matchedName) == [nil])
    #expect(gazetteer.search("Zürich").map(\.matchedName) == [nil])
    #expect(gazetteer.search("spring").map(\.matchedName) == [nil, nil, nil, nil, "Springtown"])

    // The bundled gazetteer (read with its prepared index): every result is explained.
    for query in ["x", "new york", "sao paulo", "서울", "東京", "pek", "s"] {
      let key = SearchKey.fold(query)
      for result in try bundled().search(query) {
        if let matched = result.matchedName {
          #expect(!SearchKey.fold(result.name).starts(with: key), "\(query): \(result.name)")
          #expect(SearchKey.fold(matched).starts(with: key), "\(query): \(matched)")
        } else {
          #expect(SearchKey.fold(result.name).starts(with: key), "\(query): \(result.name)")
        }
      }
    }
    // "new york" lists Jakarta: once called "New York Van Java".
    let jakarta = try #require(try bundled().search("new york").first { $0.name == "Jakarta" })
    #expect(jakarta.matchedName == "New York Van Java")
  }

  @Test func bundledResultsComeInPopulationOrder() throws {
    // Portland, Oregon (652,503) before Portland, Maine (66,881).
    let results = try bundled().search("portland")
    #expect(results.prefix(2).map(\.admin1) == ["Oregon", "Maine"])
    #expect(results.allSatisfy { $0.country == "United States" })
  }

  /// Places name their first-level division, in the US and elsewhere (29,788 of 34,003 do;
  /// the rest have none rather than a guess).
  @Test func placesNameTheirFirstLevelDivision() throws {
    let portland = try firstPlace("Portland")
    #expect(portland.admin1 == "Oregon")
    #expect(portland.country == "United States")
    #expect(try firstPlace("Zürich").admin1 == "Zurich")
    #expect(try firstPlace("Munich").admin1 == "Bavaria")
    let londons = try bundled().search("london").filter { $0.name == "London" }
    #expect(
      londons.map(\.displayName).prefix(2) == [
        "London, England, United Kingdom", "London, Ontario, Canada",
      ])
    // A division with the place's own name is not said twice.
    let seoul = try firstPlace("seoul")
    #expect(seoul.admin1 == "Seoul")
    #expect(seoul.displayName == "Seoul, South Korea")
  }

  @Test func aPlaceMatchedByManyNamesAppearsOnce() throws {
    let gazetteer = try Gazetteer(tsv: Data(smallGazetteerText.utf8))
    #expect(gazetteer.search("zu").map(\.id) == [13])
    #expect(gazetteer.search("Zürichb").map(\.id) == [13])
    let ids = try bundled().search("zurich").map(\.id)
    #expect(Set(ids).count == ids.count)
  }

  @Test func atMostTenResults() throws {
    let results = try bundled().search("s")
    #expect(results.count == 10)
    #expect(Set(results.map(\.id)).count == 10)
    #expect(results.first?.name == "Shanghai")
    #expect(try bundled().search("s", limit: 3).count == 3)
  }

  @Test func noMatchGivesNoResults() throws {
    #expect(try bundled().search("xqzvw").isEmpty)
    #expect(try bundled().search("Seoulx").isEmpty)
  }

  @Test func emptyOrBlankQueryGivesNoResults() throws {
    for query in ["", " ", "   ", "\t\n", "-"] {
      #expect(try bundled().search(query).isEmpty, "query \"\(query)\"")
    }
  }

  @Test func clientSearchesTheBundledGazetteer() async throws {
    let client = WeatherClient.offline()
    let search = try await client.search(query: "seo")
    #expect(search.results.first?.name == "Seoul")
    #expect(search.results.count <= 10)
    #expect(try await client.search(query: "  ").results.isEmpty)
  }
}
