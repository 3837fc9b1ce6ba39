import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A real HTTP/1.1 server on the loopback interface, for tests of HTTP clients.
///
/// It listens on an ephemeral port, answers each request with the ``Response`` its handler
/// returns, and records every ``Request`` (with the exact request target) in ``requests``.
///
/// ```swift
/// let server = try await FixtureServer.start { request in
///   request.path == "/v1/search" ? .json(#"{"results":[]}"#) : .notFound
/// }
/// defer { Task { await server.stop() } }  // or: await server.stop() at the end of the test
///
/// let url = server.baseURL.appending(path: "v1/search")  // http://127.0.0.1:<port>/v1/search
/// // … exercise the client …
/// #expect(server.requests.map(\.target) == ["/v1/search?name=Berlin"])
/// await server.stop()
/// ```
public final class FixtureServer: Sendable {
  /// Computes the answer to one request.
  public typealias Handler = @Sendable (Request) async -> Response

  /// `http://127.0.0.1:<port>`, without a trailing slash.
  public let baseURL: URL
  /// The port the server listens on.
  public let port: Int

  private let channel: NIOAsyncChannel<AcceptedConnection, Never>
  private let serving: Task<Void, Never>
  private let recorded: Recorder

  private init(
    baseURL: URL, port: Int,
    channel: NIOAsyncChannel<AcceptedConnection, Never>,
    serving: Task<Void, Never>, recorded: Recorder
  ) {
    self.baseURL = baseURL
    self.port = port
    self.channel = channel
    self.serving = serving
    self.recorded = recorded
  }

  /// Starts a server whose answers come from `handler`.
  ///
  /// - Parameters:
  ///   - host: the address to listen on; keep the default loopback address in tests.
  ///   - handler: called once per request, after its body has been read.
  public static func start(
    host: String = "127.0.0.1", handler: @escaping Handler
  ) async throws -> FixtureServer {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.backlog, value: 64)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: host, port: 0) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          return AcceptedConnection(
            try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
              wrappingChannelSynchronously: channel))
        }
      }
    guard let port = channel.channel.localAddress?.port,
      let baseURL = URL(string: "http://\(host):\(port)")
    else {
      try? await channel.channel.close()
      throw FixtureServerError.noLocalAddress
    }
    let recorder = Recorder()
    let serving = Task<Void, Never> {
      _ = try? await channel.executeThenClose { connections in
        await withDiscardingTaskGroup { group in
          do {
            for try await connection in connections {
              let connection = connection.served()
              group.addTask {
                await Self.serve(connection, handler: handler, recorder: recorder)
              }
            }
          } catch {
            // The listening socket failed or was closed: stop accepting.
          }
          group.cancelAll()
        }
      }
    }
    return FixtureServer(
      baseURL: baseURL, port: port, channel: channel, serving: serving, recorded: recorder)
  }

  /// Starts a server that answers by path (the target without its query) and 404 otherwise.
  ///
  /// ```swift
  /// let server = try await FixtureServer.start(routes: ["/42/trivia": .text("42 is …")])
  /// ```
  public static func start(
    host: String = "127.0.0.1", routes: [String: Response]
  ) async throws -> FixtureServer {
    try await self.start(host: host) { request in routes[request.path] ?? .notFound }
  }

  /// A URL on the loopback interface where nothing listens: requests to it fail with
  /// "connection refused".
  ///
  /// The port is held by a socket that is bound but never listens, for the whole process: a
  /// port that was merely closed could be given to another test's server a moment later (the
  /// suite's tests run in parallel), which would then answer.
  public static func closedPortURL() async throws -> URL {
    guard let port = reservedPort else { throw FixtureServerError.noLocalAddress }
    return URL(string: "http://127.0.0.1:\(port)")!
  }

  /// A port bound by this process and never listened on; `nil` if no socket could be bound.
  private static let reservedPort: Int? = {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else {
      close(descriptor)
      return nil
    }
    // The descriptor stays open until the process ends.
    return Int(UInt16(bigEndian: address.sin_port))
  }()

  /// Every request received so far, in arrival order.
  public var requests: [Request] {
    self.recorded.requests
  }

  /// Waits until at least `count` requests have arrived, and returns all received so far.
  ///
  /// - Throws: ``FixtureServerError/requestsDidNotArrive(expected:received:)`` after `timeout`.
  @discardableResult
  public func waitForRequests(
    count: Int = 1, timeout: Duration = .seconds(30)
  ) async throws -> [Request] {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      let requests = self.requests
      if requests.count >= count { return requests }
      guard clock.now < deadline else {
        throw FixtureServerError.requestsDidNotArrive(expected: count, received: requests.count)
      }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Stops listening, closes open connections and abandons responses still being delayed.
  ///
  /// Connections accepted as it stops, which it never serves, are closed (``AcceptedConnection``).
  public func stop() async {
    try? await self.channel.channel.close()
    await self.serving.value
  }

  private static func serve(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
    handler: Handler,
    recorder: Recorder
  ) async {
    try? await connection.executeThenClose { inbound, outbound in
      var head: HTTPRequestHead?
      var body = ByteBuffer()
      for try await part in inbound {
        switch part {
        case .head(let requestHead):
          head = requestHead
          body.clear()
        case .body(var chunk):
          body.writeBuffer(&chunk)
        case .end:
          guard let requestHead = head else { continue }
          head = nil
          let request = Request(
            method: requestHead.method.rawValue,
            target: requestHead.uri,
            headers: requestHead.headers.map { Header($0.name, $0.value) },
            body: Data(body.readableBytesView)
          )
          recorder.append(request)
          let response = await handler(request)
          if let delay = response.delay {
            try await Task.sleep(for: delay)
          }
          var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
          headers.replaceOrAdd(name: "Content-Length", value: "\(response.body.count)")
          if !requestHead.isKeepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
          }
          try await outbound.write(
            .head(
              HTTPResponseHead(
                version: requestHead.version,
                status: HTTPResponseStatus(statusCode: response.status),
                headers: headers)))
          try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
          try await outbound.write(.end(nil))
          if !requestHead.isKeepAlive { return }
        }
      }
    }
  }
}

/// A failure of the fixture server itself.
public enum FixtureServerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The listening socket has no local address (should not happen on 127.0.0.1).
  case noLocalAddress
  /// ``FixtureServer/waitForRequests(count:timeout:)`` gave up.
  case requestsDidNotArrive(expected: Int, received: Int)

  public var description: String {
    switch self {
    case .noLocalAddress:
      "FixtureServer: the listening socket has no local address"
    case .requestsDidNotArrive(let expected, let received):
      "FixtureServer: expected \(expected) request(s), received \(received)"
    }
  }
}

/// The requests received, shared between connections.
private final class Recorder: Sendable {
  private let storage = Mutex<[FixtureServer.Request]>([])

  var requests: [FixtureServer.Request] {
    self.storage.withLock { $0 }
  }

  func append(_ request: FixtureServer.Request) {
    self.storage.withLock { $0.append(request) }
  }
}

/// An accepted connection on its way from the listening socket to the accepting loop. NIO hands
/// accepted connections over through an async stream; one accepted as the server stops is
/// dropped from that stream unserved, and a `NIOAsyncChannel` released without
/// `executeThenClose` traps ("Deinited NIOAsyncWriter without calling finish()"), ending the
/// whole test process — a run of the suite crashed that way. This box closes such a connection.
private final class AcceptedConnection: Sendable {
  typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
  private let connection: Connection
  private let isServed = Atomic(false)

  init(_ connection: Connection) {
    self.connection = connection
  }

  /// The connection, for the loop to serve (which closes it when done).
  func served() -> Connection {
    isServed.store(true, ordering: .relaxed)
    return connection
  }

  deinit {
    guard !isServed.load(ordering: .relaxed) else { return }
    let connection = self.connection
    Task { try? await connection.executeThenClose { _, _ in } }
  }
}
