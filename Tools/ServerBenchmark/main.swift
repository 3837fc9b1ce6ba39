import AppFeature
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import WebFrontend

// The baseline of the server benchmark (Tools/server-benchmark): a bare Hummingbird router that
// does the JSON work of `app-server`'s action route and nothing else — no store, no reducer, no
// middleware, no limits. It reads the body, parses it with the same strict decoder
// (`UserAction.decode`), changes the visitor's counter in a table behind one lock, and encodes
// the same `Snapshot` the real server answers with. The ratio of the two servers' throughput is
// the cost of everything `app-server` adds around that work.
//
//   baseline-server PORT

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8090

/// Every visitor's snapshot, by cookie value.
let snapshots = Mutex<[String: Snapshot]>([:])
let initial = Snapshot(revision: 1, state: StateView(AppFeature.State()))

func json(_ snapshot: Snapshot, status: HTTPResponse.Status = .ok) throws -> Response {
  let data = try JSONEncoder().encode(snapshot)
  return Response(
    status: status,
    headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}

func session(of request: Request) -> String? {
  request.cookies["session"]?.value
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
  guard let id = session(of: request) else { throw HTTPError(.unauthorized) }
  let body = try await request.body.collect(upTo: 64 * 1024)
  let action: UserAction
  do {
    action = try UserAction.decode(body.readableBytesView)
  } catch {
    throw HTTPError(.badRequest, message: "\(error)")
  }
  let snapshot = try snapshots.withLock { table throws(HTTPError) -> Snapshot in
    guard var snapshot = table[id] else { throw HTTPError(.notFound) }
    if case .incrementCounter(let counter) = action,
      let index = snapshot.state.counters.firstIndex(where: { $0.id == counter })
    {
      snapshot.state.counters[index].count += 1
      snapshot.revision += 1
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
