import FixtureServer
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Fetches `url` with a fresh ephemeral session.
private func get(_ url: URL) async throws -> (status: Int, body: String, echo: String?) {
  let session = URLSession(configuration: .ephemeral)
  defer { session.finishTasksAndInvalidate() }
  let (data, response) = try await fetch(url, in: session)
  let http = try #require(response as? HTTPURLResponse)
  return (
    http.statusCode, String(decoding: data, as: UTF8.self), http.value(forHTTPHeaderField: "X-Echo")
  )
}

/// `session.data(from:)`, but cancelled without waiting. Foundation's own async `data(from:)`
/// on Linux cancels its data task from the task's cancellation handler with a `sync` onto the
/// session's queue, while the runtime holds the task's status lock; when that queue is at that
/// moment resuming the same task (which needs the lock), both wait forever. A thread dump of a
/// hung run of this suite showed exactly that in `stopWithAResponseStillDelayedReturns`. Here the
/// handler only dispatches the cancel.
private func fetch(_ url: URL, in session: URLSession) async throws -> (Data, URLResponse) {
  let started = Mutex<URLSessionDataTask?>(nil)
  let cancel: @Sendable (URLSessionDataTask?) -> Void = { task in
    DispatchQueue.global().async { task?.cancel() }
  }
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      let task = session.dataTask(with: url) { data, response, error in
        if let error {
          continuation.resume(throwing: error)
        } else if let data, let response {
          continuation.resume(returning: (data, response))
        } else {
          continuation.resume(throwing: URLError(.badServerResponse))
        }
      }
      started.withLock { $0 = task }
      task.resume()
      if Task.isCancelled { cancel(task) }
    }
  } onCancel: {
    cancel(started.withLock { $0 })
  }
}

struct FixtureServerTests {
  @Test func servesRoutesAnd404sEverythingElse() async throws {
    try await withFixtureServer(routes: ["/hello": .text("world")]) { server in
      let hello = try await get(server.baseURL.appending(path: "hello"))
      #expect(hello.status == 200)
      #expect(hello.body == "world")
      let missing = try await get(server.baseURL.appending(path: "nope"))
      #expect(missing.status == 404)
      #expect(missing.body == "not found")
    }
  }

  @Test func recordsTheExactRequestTarget() async throws {
    try await withFixtureServer { _ in
      .json("{}")
    } operation: { server in
      let url = try #require(URL(string: "\(server.baseURL)/v1/search?name=Z%C3%BCrich&x=a%2Bb"))
      _ = try await get(url)
      let request = try #require(server.requests.first)
      #expect(request.target == "/v1/search?name=Z%C3%BCrich&x=a%2Bb")
      #expect(request.path == "/v1/search")
      #expect(request.query == "name=Z%C3%BCrich&x=a%2Bb")
      #expect(request.method == "GET")
      #expect(request.header("host") == "127.0.0.1:\(server.port)")
    }
  }

  @Test func handlerChoosesStatusHeadersAndBody() async throws {
    let handler: FixtureServer.Handler = { request in
      FixtureServer.Response(
        status: 418, headers: [.init("X-Echo", request.path)], body: Data("teapot".utf8))
    }
    try await withFixtureServer(handler: handler) { server in
      let response = try await get(server.baseURL.appending(path: "brew"))
      #expect(response.status == 418)
      #expect(response.body == "teapot")
      #expect(response.echo == "/brew")
    }
  }

  @Test func recordsRequestsInArrivalOrder() async throws {
    try await withFixtureServer { _ in
      .text("ok")
    } operation: { server in
      for index in 0..<3 {
        _ = try await get(server.baseURL.appending(path: "n\(index)"))
      }
      #expect(server.requests.map(\.target) == ["/n0", "/n1", "/n2"])
      #expect(try await server.waitForRequests(count: 3).count == 3)
    }
  }

  @Test func delayedResponseIsDelivered() async throws {
    try await withFixtureServer { _ in
      .text("late").delayed(by: .milliseconds(50))
    } operation: { server in
      let response = try await get(server.baseURL.appending(path: "slow"))
      #expect(response.body == "late")
    }
  }

  @Test func stopWithAResponseStillDelayedReturns() async throws {
    let server = try await FixtureServer.start { _ in .text("never").delayed(by: .seconds(600)) }
    let url = server.baseURL.appending(path: "hang")
    let call = Task { try await get(url) }
    try await server.waitForRequests(count: 1)
    await server.stop()
    call.cancel()
    _ = await call.result
  }

  @Test func closedPortRefusesConnections() async throws {
    let url = try await FixtureServer.closedPortURL()
    await #expect(throws: (any Error).self) { try await get(url) }
  }

  @Test func waitForRequestsGivesUpWhenNothingArrives() async throws {
    try await withFixtureServer { _ in
      .notFound
    } operation: { server in
      await #expect(throws: FixtureServerError.requestsDidNotArrive(expected: 1, received: 0)) {
        try await server.waitForRequests(count: 1, timeout: .milliseconds(20))
      }
    }
  }

  /// Clients connecting while the server stops: the connections accepted last, which the server
  /// never serves, are closed (released unclosed, NIO would trap and end the test process).
  @Test func stoppingWhileClientsConnectClosesEveryConnection() async throws {
    for _ in 0..<50 {
      let server = try await FixtureServer.start(routes: ["/": .text("ok")])
      let stop = Atomic(false)
      let connects = Atomic(0)
      let clients = (0..<6).map { _ in
        Thread {
          while !stop.load(ordering: .relaxed) {
            if connectAndSend(port: server.port) {
              connects.add(1, ordering: .relaxed)
            } else {
              usleep(1_000)  // refused: wait a little instead of spinning
            }
          }
        }
      }
      for client in clients { client.start() }
      while connects.load(ordering: .relaxed) < 20 { try await Task.sleep(for: .milliseconds(1)) }
      await server.stop()
      stop.store(true, ordering: .relaxed)
    }
  }
}

/// Opens a TCP connection to 127.0.0.1:`port`, sends a request and closes it; whether it
/// connected.
private func connectAndSend(port: Int) -> Bool {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else { return false }
  let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
  _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  return true
}
