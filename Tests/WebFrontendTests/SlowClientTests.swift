import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend
import WebRoutes

/// A client must send each request within the request timeout — from connecting, or from the end
/// of the previous answer — however it paces its bytes; connections of prompt clients stay open.
@MainActor
struct SlowClientTests {
  func application() -> some ApplicationProtocol {
    WebServer.application(
      registry: makeRegistry(),
      configuration: .init(port: 0, security: relaxedSecurity, requestTimeout: .seconds(1)),
      logger: quietLogger)
  }

  @Test func aClientThatDribblesItsHeadIsDisconnected() async throws {
    try await application().test(.live) { client in
      let port = try #require(client.port)
      let sent = try await RawHTTP.blocking { () -> Int in
        let connection = try RawHTTP.Connection(port: port)
        // A byte every 50 ms: never silent, and the head would take 10 s to arrive.
        let head = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        let bytes = Array(head + String(repeating: "a", count: 200))
        for (index, byte) in bytes.enumerated() {
          guard connection.send(String(byte)) else { return index }
          Thread.sleep(forTimeInterval: 0.05)
        }
        return bytes.count
      }
      #expect(sent < 200, "the server closed the connection before the head was complete")
    }
  }

  @Test func aPromptClientKeepsItsConnectionAndASilentOneLosesIt() async throws {
    try await application().test(.live) { client in
      let port = try #require(client.port)
      let (answers, closed) = try await RawHTTP.blocking { () -> ([String], Bool) in
        let connection = try RawHTTP.Connection(port: port)
        var answers: [String] = []
        // Eight requests 0.2 s apart: longer than the timeout in all, each within it.
        for _ in 0..<8 {
          connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
          answers.append(String(connection.readAll().prefix(12)))
          Thread.sleep(forTimeInterval: 0.2)
        }
        // Then nothing: the server closes the connection.
        return (answers, connection.isClosedByServer())
      }
      #expect(answers == Array(repeating: "HTTP/1.1 200", count: 8))
      #expect(closed)
    }
  }
}
