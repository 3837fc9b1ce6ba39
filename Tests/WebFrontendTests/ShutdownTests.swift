import Foundation
import Hummingbird
import Synchronization
import Testing
import WebFrontend
import WebRoutes

#if canImport(Glibc)
  import Glibc
#endif

/// A server stopped while clients keep connecting: a connection accepted in the last moment,
/// which the server never gets to serve, must be closed, not crash the process. (NIO hands
/// accepted connections to the server through an async stream; when the server's task is
/// cancelled, those still in the stream are dropped unserved, which traps unless each is closed.)
@MainActor
struct ShutdownTests {
  @Test func aServerCancelledWhileClientsConnectClosesWhatItDidNotServe() async throws {
    for _ in 0..<50 {
      let stop = Atomic(false)
      let port = Atomic(0)
      let connects = Atomic(0)
      // Clients that connect, send a request and close, without pause, on threads of their own.
      let clients = (0..<6).map { _ in
        Thread {
          while !stop.load(ordering: .relaxed) {
            let target = port.load(ordering: .relaxed)
            guard target != 0, let connection = try? RawHTTP.Connection(port: target) else {
              // No server yet, or it is gone: wait a little instead of spinning, which would
              // starve the rest of the suite.
              usleep(1_000)
              continue
            }
            connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            connects.add(1, ordering: .relaxed)
          }
        }
      }
      for client in clients { client.start() }
      let application = WebServer.application(
        registry: makeRegistry(), configuration: .init(port: 0, security: relaxedSecurity),
        logger: quietLogger, onServerRunning: { port.store($0, ordering: .relaxed) })
      let server = Task { try await application.runService(gracefulShutdownSignals: []) }
      // Cancel (not a graceful stop) once the clients are busy connecting.
      while connects.load(ordering: .relaxed) < 20 { try await Task.sleep(for: .milliseconds(1)) }
      server.cancel()
      _ = await server.result
      stop.store(true, ordering: .relaxed)
    }
  }
}
