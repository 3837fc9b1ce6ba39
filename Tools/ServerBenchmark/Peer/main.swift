import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

// The *hand-written peer* of the server benchmark (Tools/server-benchmark): what a team would
// write for the benchmark's action without this project's architecture — Hummingbird, a typed
// `Codable` action and state, the visitors' states in a dictionary behind a lock, and the same
// durability as app-server: every changed state is written to SQLite (GRDB, WAL, an upsert that
// keeps the newest revision) and the action is answered only after the transaction committed.
// Like app-server it groups commits: while one transaction is on its way, the states changed
// meanwhile wait and go out together in the next. Its answer has the same fields and size as
// app-server's.
//
// With `--floor` it is the *durable floor* instead: the same grouped commit of one row per
// action, but no JSON at all — the body is not read, nothing is decoded, the row holds a fixed
// blob and the answer is a fixed body of the same size. No server that answers after its change
// is committed can do less per action; the benchmark reports how much of the limit it keeps.
//
//   peer-server PORT DATABASE-FILE [--floor]

let arguments = Array(CommandLine.arguments.dropFirst())
let port = arguments.first.flatMap(Int.init) ?? 8090
let databasePath = arguments.dropFirst().first ?? NSTemporaryDirectory() + "peer-server.sqlite"
let isFloor = arguments.contains("--floor")

struct Counter: Codable, Sendable {
  var id: UUID
  var name: String
  var count: Int
  var isFactRequestInFlight = false
  var isRandomNumberRequestInFlight = false
  var isTimerOn = false
}

struct Search: Codable, Sendable {
  var query = ""
  var isSearchInFlight = false
  var results: [String] = []
  var temperatureUnit = "celsius"
}

struct Settings: Codable, Sendable {
  var digest = "daily"
  var displayName = ""
  var enableNotifications = false
  var canChooseNotificationChannels = false
  var isHapticFeedbackEnabled = true
  var protectMyPosts = false
  var sendEmailNotifications = false
  var sendMobileNotifications = false
  var temperatureUnit = "celsius"
}

struct Episode: Codable, Sendable {
  var id: UUID
  var title: String
  var isFavorite = false
}

struct State: Codable, Sendable {
  var header = "Composable App"
  var selectedTab = "counters"
  var counters = [Counter(id: UUID(), name: "Counter 1", count: 0)]
  var search = Search()
  var settings = Settings()
  var episodes = [
    "Functions", "Side Effects", "Algebraic Data Types", "DSLs", "Parsers",
    "Composable Architecture",
  ].enumerated().map { index, title in
    Episode(
      id: UUID(uuidString: "00000000-0000-0000-0000-00000000000\(index)")!, title: title)
  }
  var episodeScreens: [String] = []
}

struct Answer: Encodable {
  var revision: Int
  var state: State
  var generation: String
}

struct Action: Decodable {
  var type: String
  var id: UUID
}

struct Visitor: Sendable {
  var revision: Int
  var state: State
}

/// Writes changed states in grouped transactions and tells each writer when its state is in.
actor Saver {
  private let database: DatabasePool
  private var pending: [String: (revision: Int, state: Data)] = [:]
  private var waiting: [CheckedContinuation<Void, any Error>] = []
  private var isWriting = false

  init(path: String) throws {
    database = try DatabasePool(path: path)
    try database.write { db in
      try db.execute(
        sql: """
          CREATE TABLE IF NOT EXISTS session (
            id TEXT PRIMARY KEY, revision INTEGER NOT NULL, state BLOB NOT NULL)
          """)
    }
  }

  /// Returns once `state` (or a newer one of the same visitor) is committed.
  func save(_ id: String, revision: Int, state: Data) async throws {
    if pending[id].map({ $0.revision < revision }) ?? true {
      pending[id] = (revision, state)
    }
    try await withCheckedThrowingContinuation { continuation in
      waiting.append(continuation)
      if !isWriting {
        isWriting = true
        Task { await self.writeAll() }
      }
    }
  }

  private func writeAll() async {
    while !pending.isEmpty {
      let batch = pending
      let waiters = waiting
      pending = [:]
      waiting = []
      do {
        try await database.write { db in
          let statement = try db.cachedStatement(
            sql: """
              INSERT INTO session (id, revision, state) VALUES (?, ?, ?)
              ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, state = excluded.state
              WHERE session.revision < excluded.revision
              """)
          for (id, saved) in batch {
            try statement.execute(arguments: [id, saved.revision, saved.state])
          }
        }
        for waiter in waiters { waiter.resume() }
      } catch {
        for waiter in waiters { waiter.resume(throwing: error) }
      }
    }
    isWriting = false
  }
}

let saver = try Saver(path: databasePath)
let visitors = Mutex<[String: Visitor]>([:])
let generation = String(UUID().uuidString.prefix(12)).lowercased()

func answer(_ visitor: Visitor, status: HTTPResponse.Status = .ok) throws -> Response {
  let data = try JSONEncoder().encode(
    Answer(revision: visitor.revision, state: visitor.state, generation: generation))
  return Response(
    status: status,
    headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}

let router = Router()
router.post("/api/session") { _, _ in
  let id = UUID().uuidString
  let visitor = Visitor(revision: 1, state: State())
  visitors.withLock { $0[id] = visitor }
  try await saver.save(id, revision: 1, state: try JSONEncoder().encode(visitor.state))
  var response = try answer(visitor, status: .created)
  response.setCookie(Cookie(name: "session", value: id, path: "/api/session"))
  return response
}
router.post("/api/session/actions") { request, _ -> Response in
  guard let id = request.cookies["session"]?.value else { throw HTTPError(.unauthorized) }
  if isFloor { return try await floorAnswer(id) }
  let body = try await request.body.collect(upTo: 16 * 1024)
  let action: Action
  do {
    action = try JSONDecoder().decode(Action.self, from: Data(buffer: body))
  } catch {
    throw HTTPError(.badRequest, message: "not an action")
  }
  let delta =
    switch action.type {
    case "counter.increment": 1
    case "counter.decrement": -1
    default: throw HTTPError(.badRequest, message: "unknown action")
    }
  let visitor = try visitors.withLock { table throws(HTTPError) -> Visitor in
    guard var visitor = table[id] else { throw HTTPError(.notFound) }
    guard let index = visitor.state.counters.firstIndex(where: { $0.id == action.id }) else {
      throw HTTPError(.unprocessableContent)
    }
    visitor.state.counters[index].count += delta
    visitor.revision += 1
    table[id] = visitor
    return visitor
  }
  try await saver.save(
    id, revision: visitor.revision, state: try JSONEncoder().encode(visitor.state))
  return try answer(visitor)
}

/// The floor's answer: a fixed body of the peer's answer size, once a fixed row for `id` (with
/// a revision that grows, so that every action writes) is committed.
let floorBody = try ByteBuffer(
  bytes: JSONEncoder().encode(Answer(revision: 2, state: State(), generation: generation)))
let floorRevision = Atomic<Int>(1)
func floorAnswer(_ id: String) async throws -> Response {
  let revision = floorRevision.add(1, ordering: .relaxed).newValue
  try await saver.save(id, revision: revision, state: Data("{}".utf8))
  return Response(
    status: .ok,
    headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
    body: ResponseBody(byteBuffer: floorBody))
}

var logger = Logger(label: "peer-server")
logger.logLevel = .warning
let app = Application(
  router: router,
  configuration: .init(address: .hostname("127.0.0.1", port: port)),
  logger: logger)
print("peer-server: listening on http://127.0.0.1:\(port)/")
try await app.runService()
