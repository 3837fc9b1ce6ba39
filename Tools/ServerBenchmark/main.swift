import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

// The baseline of the server benchmark (Tools/server-benchmark): a bare Hummingbird router that
// does the JSON work of `app-server`'s action route and nothing else — no store, no reducer, no
// middleware, no limits. It reads the body, decodes the action with `JSONDecoder`, changes the
// visitor's counter in a table behind one lock, and encodes a state of the same shape and size
// as `app-server`'s answer (the initial state below, as `app-server --offline` answers it). The
// ratio of the two servers' throughput is the cost of everything `app-server` adds around that
// work. Tools may not depend on the front ends, so this builds on Hummingbird alone.
//
//   baseline-server PORT

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8090

/// A JSON document, decoded and encoded generically.
enum JSON: Codable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSON])
  case object([String: JSON])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSON].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

/// `{"revision": n, "state": {…}}` with the first counter's count and the revision raised by one.
func incremented(_ snapshot: JSON) -> JSON {
  guard case .object(var root) = snapshot, case .number(let revision) = root["revision"],
    case .object(var state) = root["state"], case .array(var counters) = state["counters"],
    case .object(var counter) = counters.first, case .number(let count) = counter["count"]
  else { return snapshot }
  counter["count"] = .number(count + 1)
  counters[0] = .object(counter)
  state["counters"] = .array(counters)
  root["state"] = .object(state)
  root["revision"] = .number(revision + 1)
  return .object(root)
}

/// The action of the benchmark: `{"type": "counter.increment", "id": "<uuid>"}`.
struct Action: Decodable {
  var type: String
  var id: UUID?
}

let initialJSON = #"""
  {"state":{"episodes":[{"title":"Functions","id":"00000000-0000-0000-0000-000000000000","isFavorite":false},{"title":"Side Effects","id":"00000000-0000-0000-0000-000000000001","isFavorite":false},{"title":"Algebraic Data Types","id":"00000000-0000-0000-0000-000000000002","isFavorite":false},{"title":"DSLs","id":"00000000-0000-0000-0000-000000000003","isFavorite":false},{"title":"Parsers","id":"00000000-0000-0000-0000-000000000004","isFavorite":false},{"title":"Composable Architecture","id":"00000000-0000-0000-0000-000000000005","isFavorite":false}],"search":{"isSearchInFlight":false,"results":[],"query":"","temperatureUnit":"celsius"},"header":"Composable App","counters":[{"count":0,"id":"E32E7B11-814E-4FF5-B39F-202A5D01451C","isRandomNumberRequestInFlight":false,"isTimerOn":false,"isFactRequestInFlight":false}],"selectedTab":"counters","episodeScreens":[],"settings":{"isHapticFeedbackEnabled":true,"enableNotifications":false,"displayName":"","protectMyPosts":false,"sendEmailNotifications":false,"digest":"daily","sendMobileNotifications":false,"temperatureUnit":"celsius"}},"revision":1}
  """#
let initial = try JSONDecoder().decode(JSON.self, from: Data(initialJSON.utf8))

/// Every visitor's snapshot, by cookie value.
let snapshots = Mutex<[String: JSON]>([:])

func json(_ snapshot: JSON, status: HTTPResponse.Status = .ok) throws -> Response {
  let data = try JSONEncoder().encode(snapshot)
  return Response(
    status: status,
    headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}

let router = Router()
router.post("/api/session") { _, _ in
  let id = UUID().uuidString
  snapshots.withLock { $0[id] = initial }
  var response = try json(initial, status: .created)
  response.setCookie(Cookie(name: "session", value: id, path: "/api/session"))
  return response
}
router.post("/api/session/actions") { request, _ -> Response in
  guard let id = request.cookies["session"]?.value else { throw HTTPError(.unauthorized) }
  let body = try await request.body.collect(upTo: 64 * 1024)
  let action: Action
  do {
    action = try JSONDecoder().decode(Action.self, from: Data(buffer: body))
  } catch {
    throw HTTPError(.badRequest, message: "not an action")
  }
  let snapshot = try snapshots.withLock { table throws(HTTPError) -> JSON in
    guard var snapshot = table[id] else { throw HTTPError(.notFound) }
    if action.type == "counter.increment" {
      snapshot = incremented(snapshot)
    }
    table[id] = snapshot
    return snapshot
  }
  return try json(snapshot)
}

var logger = Logger(label: "baseline-server")
logger.logLevel = .warning
let app = Application(
  router: router,
  configuration: .init(address: .hostname("127.0.0.1", port: port)),
  logger: logger)
print("baseline-server: listening on http://127.0.0.1:\(port)/")
try await app.runService()
