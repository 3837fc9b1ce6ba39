import AppFeature
import ComposableArchitecture
import Foundation
import Testing

@testable import AppWeb
@testable import CounterWeb
@testable import EpisodesWeb
@testable import SearchWeb
@testable import SettingsWeb
@testable import WebFrontend

/// The streaming writer of the state JSON writes what `JSONEncoder` writes (compared by
/// content), and hands what it cannot stream to `JSONEncoder`.
struct JSONWriterTests {
  /// Both encodings of `value`, parsed.
  func bothEncodings<Value: Encodable>(_ value: Value) throws -> (
    written: NSObject, reference: NSObject
  ) {
    let written = try JSONWriter.encode(value)
    let reference = try JSONEncoder().encode(value)
    let options: JSONSerialization.ReadingOptions = [.fragmentsAllowed]
    return (
      try #require(try JSONSerialization.jsonObject(with: written, options: options) as? NSObject),
      try #require(try JSONSerialization.jsonObject(with: reference, options: options) as? NSObject)
    )
  }

  func expectSameContent<Value: Encodable>(
    _ value: Value, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let (written, reference) = try bothEncodings(value)
    #expect(written == reference, sourceLocation: sourceLocation)
  }

  static let awkwardText = "a \"quote\", a \\ backslash, /slash, \n\r\t, \u{01}\u{1F}, é, 한국어, 🌦"

  @Test func everyFeatureViewOfAChangedStateEncodesAsJSONEncoderDoes() throws {
    var state = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      AppFeature.State()
    }
    state.counterList.counters[0].count = -42
    state.counterList.counters[0].fact = Self.awkwardText
    state.settings.displayName = Self.awkwardText
    state.selectedTab = .search
    try expectSameContent(CounterListPage.view(of: state.counterList))
    try expectSameContent(SearchPage.view(of: state.search))
    try expectSameContent(SettingsPage.view(of: state.settings))
    try expectSameContent(EpisodesPage.view(of: state.episodes))
    try expectSameContent(TabsPage.view(of: state))
    try expectSameContent(state.kept)
  }

  @Test func numbersOptionalsAndNestingEncodeAsJSONEncoderDoes() throws {
    let search = SearchPage.SearchView(
      query: Self.awkwardText, isSearchInFlight: false,
      results: [
        .init(
          id: 1, name: "Seoul", admin1: nil, country: "South Korea", latitude: 37.566,
          longitude: 126.9784),
        .init(id: 2, name: "Null Island", admin1: "", country: "", latitude: 0, longitude: -0.5),
      ],
      forecastRequestInFlightID: nil,
      weather: .init(
        id: 1,
        days: [
          .init(date: "2026-11-24", min: -3.25, max: 1e20, unit: "°C"),
          .init(date: "2026-11-25", min: 1e-7, max: 12, unit: "°C"),
        ], isEstimate: true),
      errorMessage: nil, temperatureUnit: "celsius")
    try expectSameContent(search)
    try expectSameContent([[Int]]([[], [1, 2], [Int.min, Int.max]]))
    try expectSameContent(["b": [1.5], "a": [], "c": [0.1]])
    try expectSameContent([String?]([nil, "x"]))
    try expectSameContent([Nothing(), Nothing()])
    try expectSameContent(Shape.circle(radius: 2))
    try expectSameContent([Shape.square, .rectangle(width: 1, height: 2), .circle(radius: 0.5)])
    try expectSameContent(Small(byte: 255, small: -8, flag: false, ratio: 0.25))
    // Whole numbers are written without a fraction, as JSONEncoder writes them.
    #expect(
      String(decoding: try JSONWriter.encode([1.0, -2.0, 0.5]), as: UTF8.self) == "[1,-2,0.5]")
    #expect(
      String(
        decoding: try JSONWriter.encode(Small(byte: 1, small: 2, flag: true, ratio: 3)),
        as: UTF8.self) == #"{"byte":1,"small":2,"flag":true,"ratio":3}"#)
  }

  @Test func uuidsAreWrittenAsTheirUUIDString() throws {
    for uuid in [
      UUID(), UUID(), UUID(0), UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!,
    ] {
      let written = String(decoding: try JSONWriter.encode([uuid]), as: UTF8.self)
      #expect(written == #"[""# + uuid.uuidString + #""]"#)
    }
  }

  @Test func whatCannotBeStreamedIsLeftToJSONEncoder() throws {
    try expectSameContent(Dated(date: Date(timeIntervalSince1970: 1_000), data: Data([1, 2, 3])))
    try expectSameContent(OutOfOrder())
    try expectSameContent(WithSuper(name: "x"))
  }

  @Test func aNumberJSONCannotHoldIsRefused() {
    #expect(throws: EncodingError.self) { try JSONWriter.encode([Double.nan]) }
    #expect(throws: EncodingError.self) {
      try JSONWriter.encode(Small(byte: 0, small: 0, flag: true, ratio: .infinity))
    }
  }

  struct Nothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  /// Synthesised conformance of an enum with associated values: nested containers.
  enum Shape: Encodable {
    case square
    case rectangle(width: Double, height: Double)
    case circle(radius: Double)
  }

  struct Small: Encodable {
    var byte: UInt8
    var small: Int16
    var flag: Bool
    var ratio: Float
  }

  struct Dated: Encodable {
    var date: Date
    var data: Data
  }

  /// Writes to an inner container after its outer one wrote again.
  struct OutOfOrder: Encodable {
    enum Keys: String, CodingKey { case inner, after, late }
    func encode(to encoder: any Encoder) throws {
      var outer = encoder.container(keyedBy: Keys.self)
      var inner = outer.nestedContainer(keyedBy: Keys.self, forKey: .inner)
      try inner.encode(1, forKey: .after)
      try outer.encode(2, forKey: .after)
      try inner.encode(3, forKey: .late)
    }
  }

  struct WithSuper: Encodable {
    enum Keys: String, CodingKey { case name }
    var name: String
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(name, forKey: .name)
      var parent = container.superEncoder().container(keyedBy: Keys.self)
      try parent.encode("parent", forKey: .name)
    }
  }
}
