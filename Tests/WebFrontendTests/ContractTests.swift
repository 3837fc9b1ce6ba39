import AppFeature
import AppWeb
import ComposableArchitecture
import FactClient
import FavoriteClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend
import WebSessions

/// The page and the server agree on the names of actions: every action type the page's modules
/// can send is one the server's catalogue (`GET /api/actions`) accepts.
@MainActor
struct ContractTests {
  /// The action types a script sends: `type: "…"` literals and `data-do="…"` buttons (whose
  /// value the script sends as the type).
  nonisolated static func actionTypes(in script: String) -> Set<String> {
    let pattern = #/(?:type:\s*"|data-do=")([A-Za-z]+\.[A-Za-z]+)"/#
    return Set(script.matches(of: pattern).map { String($0.output.1) })
  }

  @Test func theExtractorFindsWhatItShould() {
    let sample = #"send({ type: "counter.explode" }); '<button data-do="x.y">'"#
    #expect(Self.actionTypes(in: sample) == ["counter.explode", "x.y"])
  }

  @Test func everyActionThePageSendsIsInTheServersCatalogue() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      // Every module of the page.
      var script = ""
      for path in WebApp.app.page.files.keys where path.hasSuffix(".js") {
        script += String(buffer: try await client.call(.get, path).body)
      }
      let catalogue = try decodeBody(
        try await client.call(.get, "/api/actions"), as: [ActionDescription].self)
      let accepted = Set(catalogue.map(\.type))
      let used = Self.actionTypes(in: script)
      #expect(used.count >= 20, "the script's actions were not found: \(used.sorted())")
      #expect(
        used.subtracting(accepted).isEmpty,
        "unknown to the server: \(used.subtracting(accepted).sorted())")
      // And the page offers every action the server accepts.
      #expect(
        accepted.subtracting(used).isEmpty,
        "no control on the page: \(accepted.subtracting(used).sorted())")
    }
  }
}

/// The page and the server agree on the form of the state: `GET /api/state-schema` is read off
/// `StateView`, and states the API really answers with validate against it.
@MainActor
struct StateSchemaTests {
  /// Every way `value` breaks `schema` (the subset of JSON Schema the server publishes: object,
  /// array, string with uuid format, integer, number, boolean; required; closed objects).
  nonisolated static func violations(of value: Any, _ schema: [String: Any], at path: String = "$")
    -> [String]
  {
    switch schema["type"] as? String {
    case "object":
      guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
      let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
      var found = ((schema["required"] as? [String]) ?? []).filter { object[$0] == nil }.map {
        "\(path).\($0): missing"
      }
      for (key, child) in object.sorted(by: { $0.key < $1.key }) {
        guard let property = properties[key] else {
          found.append("\(path).\(key): not in the schema")
          continue
        }
        found += violations(of: child, property, at: "\(path).\(key)")
      }
      return found
    case "array":
      guard let array = value as? [Any] else { return ["\(path): not an array"] }
      let items = schema["items"] as? [String: Any] ?? [:]
      return array.enumerated().flatMap { violations(of: $1, items, at: "\(path)[\($0)]") }
    case "string":
      guard let string = value as? String else { return ["\(path): not a string"] }
      if schema["format"] as? String == "uuid", UUID(uuidString: string) == nil {
        return ["\(path): not a UUID"]
      }
      return []
    case "integer":
      return (value as? Int) == nil || isBoolean(value) ? ["\(path): not an integer"] : []
    case "number":
      return (value as? Double) == nil || isBoolean(value) ? ["\(path): not a number"] : []
    case "boolean":
      return isBoolean(value) ? [] : ["\(path): not a boolean"]
    default:
      return ["\(path): the schema has no type"]
    }
  }

  /// JSONSerialization gives numbers and booleans as `NSNumber`, which also casts to `Bool` for 0
  /// and 1: a boolean is the one whose type code is a char.
  nonisolated static func isBoolean(_ value: Any) -> Bool {
    guard let number = value as? NSNumber else { return value is Bool }
    return String(cString: number.objCType) == "c"
  }

  @Test func theValidatorFindsWhatItShould() throws {
    let schema = try #require(
      try JSONSerialization.jsonObject(with: AppFeature.webAPI.schema) as? [String: Any])
    let broken = try JSONSerialization.jsonObject(
      with: Data(
        #"{"header": 1, "extra": true, "counters": [{"count": true, "isTimerOn": 1}]}"#.utf8))
    let found = Self.violations(of: broken, schema)
    #expect(found.contains("$.header: not a string"))
    #expect(found.contains("$.extra: not in the schema"))
    #expect(found.contains("$.selectedTab: missing"))
    #expect(found.contains("$.counters[0].count: not an integer"))
    #expect(found.contains("$.counters[0].isTimerOn: not a boolean"))
    #expect(found.contains("$.counters[0].id: missing"))
    #expect(!found.contains("$.counters[0].fact: missing"), "an optional field may be absent")
  }

  @Test func theSchemaIsTheStateViewsShape() throws {
    let schema = try #require(
      try JSONSerialization.jsonObject(with: AppFeature.webAPI.schema) as? [String: Any])
    let properties = try #require(schema["properties"] as? [String: [String: Any]])
    // The frame's keys and every feature's; a feature added to the table adds its own, and what
    // the API answers is checked against the schema below (statesTheAPIAnswersWithFollowTheSchema).
    #expect(
      Set(properties.keys).isSuperset(of: [
        "header", "selectedTab", "counters", "removalConfirmation", "search", "settings",
        "episodes", "favoritesOnly", "episodeCount", "episodesError", "episodeScreens",
      ]))
    let required = Set(schema["required"] as? [String] ?? [])
    #expect(!required.contains("removalConfirmation") && required.contains("counters"))
    let counter = try #require(properties["counters"]?["items"] as? [String: Any])
    let counterProperties = try #require(counter["properties"] as? [String: [String: Any]])
    #expect(counterProperties["id"]?["format"] as? String == "uuid")
    #expect(counterProperties["isTimerOn"]?["type"] as? String == "boolean")
    #expect(counterProperties["count"]?["type"] as? String == "integer")
  }

  @Test func statesTheAPIAnswersWithFollowTheSchema() async throws {
    let registry = makeRegistry {
      $0.factClient.fetch = { "\($0) is a number." }
      $0.favoriteClient.favorite = { _, _ in throw FavoriteError() }
    }
    try await makeApplication(registry).test(.router) { client in
      let published = try await client.call(.get, "/api/state-schema")
      #expect(published.headers[.contentType] == "application/schema+json")
      let schema = try #require(
        try JSONSerialization.jsonObject(with: Data(buffer: published.body)) as? [String: Any])
      let id = try await client.createSession().id
      var states: [Any] = []
      func record() async throws {
        let response = try await client.call(.get, "/api/session/state", session: id)
        let snapshot = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
        states.append(try #require((snapshot as? [String: Any])?["state"]))
      }
      try await record()
      try await client.send(.requestFact(id: firstCounter), to: id)
      _ = try await client.waitForState(of: id) { $0.counters[0].fact != nil }
      try await record()
      try await client.send(.removeCounter(id: firstCounter), to: id)
      try await client.send(.resetSettings, to: id)
      try await client.send(.toggleFavorite(episodeID: UUID(0)), to: id)
      _ = try await client.waitForState(of: id) { $0.episodes[0].alert != nil }
      try await client.send(.openEpisode(id: UUID(1)), to: id)
      try await record()
      for (index, state) in states.enumerated() {
        #expect(Self.violations(of: state, schema) == [], "state \(index)")
      }
      // The optional parts were there to check.
      let last = try #require(states.last as? [String: Any])
      #expect(last["removalConfirmation"] != nil && last["episodeScreens"] as? [Any] != nil)
    }
  }
}

/// The state JSON is written feature by feature, and only the features a change touched are
/// written again: what comes out must be what a fresh encoding gives.
struct StateJSONTests {
  /// The app's initial state, with counter ids counted from 0.
  static func freshState() -> AppFeature.State {
    withDependencies {
      $0.uuid = .incrementing
    } operation: {
      AppFeature.State()
    }
  }

  /// The JSON object, compared by content (the encoder's key order is not fixed).
  static func object(_ data: Data) throws -> NSDictionary? {
    try JSONSerialization.jsonObject(with: data) as? NSDictionary
  }

  @Test func aChangeRewritesOnlyWhatChangedAndEqualsAFreshEncoding() throws {
    let api = AppFeature.webAPI
    var state = Self.freshState()
    let first = try #require(api.stateJSON(state, after: nil))
    #expect(api.stateJSON(state, after: first) == nil, "nothing changed")

    state.selectedTab = .search
    let second = try #require(api.stateJSON(state, after: first))
    #expect(try Self.object(second.data) == Self.object(api.stateJSON(state)))
    #expect(try StateView(json: second.data).selectedTab == "search")

    state.settings.displayName = "Blob"
    let third = try #require(api.stateJSON(state, after: second))
    #expect(try Self.object(third.data) == Self.object(api.stateJSON(state)))
    let view = try StateView(json: third.data)
    #expect(view.settings.displayName == "Blob")
    #expect(view.selectedTab == "search", "the part that did not change is kept")
    #expect(view.counters == (try StateView(json: first.data)).counters)
  }

  /// Written between a prefix and a suffix, the JSON is one buffer of exactly its size, and the
  /// next state copies its unchanged features from it.
  @Test func aFramedStateIsOneBufferAndTheNextReadsFromIt() throws {
    let api = AppFeature.webAPI
    var state = Self.freshState()
    let prefix = Data(#"{"revision":1,"state":"#.utf8)
    let suffix = Data(#","generation":"g"}"#.utf8)
    let first = try #require(api.stateJSON(state, after: nil, prefix: prefix, suffix: suffix))
    #expect(first.data.prefix(prefix.count) == prefix)
    #expect(first.data.suffix(suffix.count) == suffix)
    #expect(first.object == prefix.count..<(first.data.count - suffix.count))
    #expect(
      try Self.object(first.data.subdata(in: first.object)) == Self.object(api.stateJSON(state)))
    let envelope = try #require(
      try JSONSerialization.jsonObject(with: first.data) as? [String: Any])
    #expect(envelope["revision"] as? Int == 1)

    state.selectedTab = .episodes
    let second = try #require(api.stateJSON(state, after: first))
    #expect(try Self.object(second.data) == Self.object(api.stateJSON(state)))
    #expect(second.object == 0..<second.data.count, "no frame: the data is the object")
  }

  /// Compacted, the JSON keeps its bytes and forgets its views: the same state is still no
  /// change, and a changed one is written as a fresh encoding would.
  @Test func aCompactedStateJSONComparesByBytes() throws {
    let api = AppFeature.webAPI
    var state = Self.freshState()
    let first = try #require(api.stateJSON(state, after: nil))
    let compacted = first.compacted()
    #expect(compacted.data == first.data)
    #expect(api.stateJSON(state, after: compacted) == nil, "same bytes: nothing changed")

    state.settings.displayName = "Blob"
    let second = try #require(api.stateJSON(state, after: compacted))
    #expect(try Self.object(second.data) == Self.object(api.stateJSON(state)))
    #expect(api.stateJSON(state, after: second) == nil)
    #expect(try StateView(json: second.data).settings.displayName == "Blob")
  }
}
