import Foundation
import Testing
import WeatherClient

@testable import WeatherClientOffline

/// The prepared name index that the bundled gazetteer loads instead of folding every name.
struct PreparedIndexTests {
  static let resources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Modules/Clients/WeatherClientOffline/Resources")

  static func committed(_ name: String) throws -> Data {
    try Data(contentsOf: resources.appendingPathComponent(name))
  }

  /// The committed index is the one the committed gazetteer makes. When the gazetteer or the
  /// folding changes, this fails and writes the index to use.
  @Test func theCommittedIndexIsTheOneTheGazetteerMakes() throws {
    let made = try PreparedIndex.make(tsv: try Self.committed("gazetteer.tsv"))
    let committed = try Self.committed("gazetteer.index")
    if made != committed {
      let expected = FileManager.default.temporaryDirectory
        .appendingPathComponent("gazetteer.index")
      try made.write(to: expected)
      Issue.record(
        """
        Resources/gazetteer.index is not the index of Resources/gazetteer.tsv; the right one is \
        at \(expected.path): cp \(expected.path) \(Self.resources.path)/gazetteer.index
        """)
    }
  }

  /// With the prepared index, every search answers as with the names folded at load.
  @Test func searchesWithThePreparedIndexAnswerAsWithout() throws {
    let text = try Self.committed("gazetteer.tsv")
    let folded = try Gazetteer(tsv: text)
    let prepared = try Gazetteer(
      tsv: text, source: "test", preparedIndex: try Self.committed("gazetteer.index"))
    #expect(prepared.nameCount == folded.nameCount)
    let queries = [
      "s", "seo", "seoul", "new york", "sao paulo", "x", "zurich", "Kraków", "서울", "東京", "Москва",
      "القاهرة", "port", "b", "xqzv",
    ]
    for query in queries {
      #expect(
        prepared.search(query).map(\.id) == folded.search(query).map(\.id), "query \(query)")
    }
  }

  /// An index made from other text, or a damaged one, is not used: the names are folded.
  @Test func anIndexOfOtherTextOrADamagedOneIsNotUsed() throws {
    let text = try Self.committed("gazetteer.tsv")
    let index = try Self.committed("gazetteer.index")
    let small = Data(
      """
      1835848\tSeoul\t37.566\t126.9784\tSouth Korea\tKR\tSeoul\t10349312\tAsia/Seoul\t서울
      1838524\tBusan\t35.1028\t129.0403\tSouth Korea\tKR\tBusan\t3678555\tAsia/Seoul\t부산

      """.utf8)
    let otherText = try Gazetteer(tsv: small, source: "test", preparedIndex: index)
    #expect(otherText.search("seo").map(\.name) == ["Seoul"])
    #expect(otherText.search("부").map(\.name) == ["Busan"])
    var damaged = index
    damaged.append(contentsOf: "no tab here\n".utf8)
    let withDamaged = try Gazetteer(tsv: text, source: "test", preparedIndex: damaged)
    #expect(withDamaged.search("seoul").first?.name == "Seoul")
  }
}
