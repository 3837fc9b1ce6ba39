import AppFeature
import AppWeb
import ComposableArchitecture
import FactClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RandomNumberClient
import Testing
import WeatherClient
import WebFrontend
import WebHTTP

/// Generated requests against every route: nesting, sizes, encodings, JSON types, unknown and
/// internal actions, methods, headers and cookies. Whatever arrives, the server answers with a
/// status below 500, every refusal is the JSON error form, and a refused request changes no
/// session.
///
/// The generator is deterministic (a seeded SplitMix64; `FUZZ_SEED` picks another seed), so a
/// failure names the case that reproduces it.
@MainActor
struct FuzzTests {
  nonisolated static let caseCount =
    ProcessInfo.processInfo.environment["FUZZ_CASES"].flatMap(Int.init) ?? 10_000

  @Test func generatedRequestsNeverCrashNever5xxAndRefusalsChangeNothing() async throws {
    let seed = ProcessInfo.processInfo.environment["FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED
    // Clients that never answer: a valid action can start an effect, but no response can arrive
    // later and change a session between two checks.
    let registry = makeRegistry(configuration: .init(maximumSessionCount: 20_000)) {
      $0.factClient.fetch = { _ in try await Task.never() }
      $0.randomNumberClient.fetch = { _, _ in try await Task.never() }
      $0.weatherClient.search = { _ in try await Task.never() }
      $0.weatherClient.forecast = { _ in try await Task.never() }
    }
    try await makeApplication(registry).test(.router) { client in
      let session = try await client.createSession()
      var generator = Generator(seed: seed, sessionID: session.id)
      var statuses: [Int: Int] = [:]
      for index in 0..<Self.caseCount {
        let request = generator.request()
        let before = registry.view(of: session.id)
        let response = try await client.execute(
          uri: request.path, method: request.method, headers: request.headers,
          body: request.body.map { ByteBuffer(bytes: $0) })
        statuses[response.status.code, default: 0] += 1
        let context = "case \(index) (seed \(seed)): \(request)"
        #expect(response.status.code < 500, "\(response.status) for \(context)")
        guard (200..<300).contains(response.status.code) || response.status == .notModified
        else {
          #expect(
            response.headers[.contentType] == "application/json; charset=utf-8", "\(context)")
          let error = try? JSONDecoder().decode(
            APIError.Body.self, from: Data(response.body.readableBytesView))
          #expect(error?.status == response.status.code, "\(context)")
          #expect((error?.error.count ?? 0) < 600, "an error echoes too much: \(context)")
          #expect(await registry.view(of: session.id) == before, "state changed: \(context)")
          continue
        }
        if registry.view(of: session.id) == nil {
          // A valid DELETE ended the session: start another one, as the page would.
          generator.sessionID = try await client.createSession().id
        }
      }
      #expect(statuses.values.reduce(0, +) == Self.caseCount)
      print(
        "fuzz: \(Self.caseCount) cases (seed \(seed)), statuses: \(statuses.sorted { $0.key < $1.key })"
      )
      // Refusals of every kind were exercised, not only one.
      for code in [400, 403, 404, 405, 413, 415] {
        #expect(
          statuses[code, default: 0] > 0, "no \(code) among \(statuses.sorted { $0.key < $1.key })")
      }
    }
  }
}

/// A request the fuzzer sends.
struct FuzzRequest: CustomStringConvertible {
  var method: HTTPRequest.Method
  var path: String
  var headers: HTTPFields
  var body: [UInt8]?

  var description: String {
    let shown = body.map { String(decoding: $0.prefix(120), as: UTF8.self) } ?? "-"
    return
      "\(method) \(path.prefix(80)) \(headers.map { "\($0.name)=\($0.value.prefix(40))" }) body: \(shown)"
  }
}

/// Deterministic generator of hostile requests.
struct Generator {
  private var random: SeededGenerator
  var sessionID: String

  init(seed: UInt64, sessionID: String) {
    self.random = SeededGenerator(seed: seed)
    self.sessionID = sessionID
  }

  mutating func next() -> UInt64 { random.next() }

  mutating func int(_ range: Range<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }

  mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }

  static let paths = [
    "/api/session/actions", "/api/session/actions", "/api/session/actions",
    "/api/session/actions", "/api/session/actions", "/api/session/actions", "/api/session",
    "/api/session/state", "/api/session/events", "/api/actions", "/", "/app.js", "/healthz",
    "/readyz", "/api/session/actions?x=1",
  ]

  /// Paths the server does not serve, or serves only under another spelling.
  static let oddPaths = [
    "/api/sessions", "/api/session/actions/", "/api/session/../session/actions",
    "/api/session/%61ctions", "/api/", "/favicon.ico", "//api/session", "/API/SESSION",
  ]

  static let routeMethods: [String: [HTTPRequest.Method]] = [
    "/api/session/actions": [.post], "/api/session": [.post, .delete],
    "/api/session/state": [.get], "/api/session/events": [.get], "/api/actions": [.get],
    "/api/session/actions?x=1": [.post], "/": [.get], "/app.js": [.get], "/healthz": [.get],
    "/readyz": [.get],
  ]

  static let methods: [HTTPRequest.Method] = [
    .post, .post, .post, .get, .delete, .put, .patch, .options, HTTPRequest.Method("BREW")!,
  ]

  /// Every `type` the API knows, effect responses it must never accept, and nonsense.
  static let types =
    AppFeature.webAPI.types + [
      "searchResponse", "counter.timerTicked", "factResponse", "counter.factResponse",
      "search.searchResponse", "binding", "destination.presented", "path.element",
      "COUNTER.ADD", "counter.add ", "", "\u{0000}", "counter.", ".add", "🙂",
    ]

  static let fields = ["type", "id", "query", "tab", "field", "value", "x", "__proto__", ""]

  mutating func request() -> FuzzRequest {
    var path = chance(10) ? pick(Self.oddPaths) : pick(Self.paths)
    if chance(2) { path = "/api/" + String(repeating: "a", count: int(1..<9_000)) }
    var headers: HTTPFields = [:]
    switch int(0..<10) {
    case 0: break  // no Origin
    case 1: headers[.origin] = pick(["http://evil.example", "null", "http://localhost:1", ""])
    default: headers[.origin] = "http://localhost"
    }
    if chance(5) {
      headers[HTTPField.Name("Sec-Fetch-Site")!] = pick(["cross-site", "same-site", "none"])
    }
    switch int(0..<10) {
    case 0: break
    case 1:
      headers[.cookie] = pick([
        "session=", "session=\(String(repeating: "f", count: 32))", "session=../../etc",
        "session=\(sessionID.uppercased())", "other=1", "session=\(sessionID); session=x",
      ])
    default: headers[.cookie] = "session=\(sessionID)"
    }
    headers[.contentType] = pick([
      "application/json", "application/json", "application/json", "application/json",
      "application/json", "application/json; charset=utf-8",
      "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1",
      "multipart/form-data; boundary=x", "",
    ])
    if headers[.contentType] == "" { headers[.contentType] = nil }
    if chance(3) {
      headers[.ifNoneMatch] = pick(["*", "\"x\"", String(repeating: "\"", count: 300)])
    }
    // Mostly the method the path takes, so that most requests reach the body checks.
    let method =
      chance(80)
      ? (Self.routeMethods[path].map { pick($0) } ?? pick(Self.methods)) : pick(Self.methods)
    if method == .get, path == "/api/session/events" {
      // A live session's event stream never ends by itself; its refusals are what is fuzzed.
      headers[.cookie] = "session=\(String(repeating: "f", count: 32))"
    }
    return FuzzRequest(method: method, path: path, headers: headers, body: body())
  }

  mutating func body() -> [UInt8]? {
    switch int(0..<20) {
    case 0: return nil
    case 1: return []
    case 2: return Array(repeating: UInt8(ascii: "["), count: int(1..<20_000))
    case 3:
      return Array(String(repeating: #"{"a":"#, count: int(30..<3_000)).utf8)
    case 4: return (0..<int(1..<400)).map { _ in UInt8(truncatingIfNeeded: next()) }
    case 5:
      // UTF-16, with and without a byte-order mark.
      let text = #"{"type":"counter.add"}"#
      let units = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
      return chance(50) ? [0xFF, 0xFE] + units : units
    case 6:
      return Array(
        ("{\"type\":\"search.query\",\"query\":\""
          + String(repeating: "x", count: int(100..<20_000)) + "\"}").utf8)
    default:
      var text = action()
      // Mutations: cut, insert a byte, a trailing comma, a duplicate key, wrap.
      switch int(0..<8) {
      case 0 where !text.isEmpty:
        text = String(text.prefix(int(0..<text.count)))
      case 1:
        let index = text.index(text.startIndex, offsetBy: int(0..<(text.count + 1)))
        text.insert(pick([",", "\"", "\\", "}", "]", "\u{7F}", "\n", "\u{FFFF}"]), at: index)
      case 2: text = text.replacingOccurrences(of: "}", with: ",}")
      case 3: text = text.replacingOccurrences(of: "{", with: #"{"type":"counter.add","#)
      case 4: text = "[" + text + "]"
      default: break
      }
      var bytes = Array(text.utf8)
      if chance(3) {
        bytes.insert(pick([0xC0, 0xED, 0xF5, 0x80, 0x00]), at: int(0..<(bytes.count + 1)))
      }
      return bytes
    }
  }

  /// A JSON object with an action-like shape.
  mutating func action() -> String {
    var members: [String] = []
    members.append(#""type":"# + jsonString(pick(Self.types)))
    for _ in 0..<int(0..<4) {
      members.append(jsonString(pick(Self.fields)) + ":" + value(depth: 0))
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  mutating func value(depth: Int) -> String {
    switch int(0..<12) {
    case 0: return "null"
    case 1: return pick(["true", "false"])
    case 2: return pick(["0", "-1", "1e309", "-0", "1.5", "9223372036854775808", "123"])
    case 3:
      return jsonString(
        UUID(uuidString: "00000000-0000-0000-0000-00000000000\(int(0..<10))")!.uuidString)
    case 4: return jsonString(pick(["counters", "search", "settings", "episodes", "admin"]))
    case 5:
      return jsonString(
        pick(["displayName", "digest", "temperatureUnit", "protectMyPosts", "isAdmin"]))
    case 6:
      return jsonString(String(repeating: pick(["a", "é", "🙂", "\u{202E}"]), count: int(0..<400)))
    case 7 where depth < 40: return "[" + value(depth: depth + 1) + "]"
    case 8 where depth < 40: return #"{"k":"# + value(depth: depth + 1) + "}"
    case 9: return #""\ud83d\ude00""#
    case 10: return #""\u0000\n\t""#
    default: return jsonString("Seoul")
    }
  }

  func jsonString(_ text: String) -> String {
    String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
  }
}
