import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Bytes on a TCP connection to the server under test, for what an HTTP client library will not
/// send: a forged or missing `Host`, a request that arrives one byte at a time.
enum RawHTTP {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// A connected socket to 127.0.0.1:`port`, closed when released.
  final class Connection: @unchecked Sendable {
    let descriptor: Int32

    init(port: Int) throws {
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      // Every stored property is set, so `deinit` runs even when this initializer throws and
      // closes the socket: closing it here too would close whatever descriptor the process
      // opened meanwhile under the same number (the server's, in a test).
      guard connected == 0 else { throw Failure(description: "connect() failed") }
      var timeout = timeval(tv_sec: 30, tv_usec: 0)
      setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Closes the sending side only (a FIN, as a browser that leaves sends, or a balancer passing
    /// that on), keeping the socket open: no reset tells the server.
    func finishSending() {
      shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Sends `text`; `false` if the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
      let bytes = Array(text.utf8)
      return bytes.withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      } == bytes.count
    }

    /// Everything the server sends until it closes the connection or `limit` bytes arrived.
    func readAll(limit: Int = 1 << 20) -> String {
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while received.count < limit {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        received += buffer[0..<count]
        // One complete response with a Content-Length is enough.
        if let text = String(bytes: received, encoding: .utf8), Self.isComplete(text) { break }
      }
      return String(decoding: received, as: UTF8.self)
    }

    /// What the server sends until `text` has arrived (or the connection closes, or 30 s pass).
    func read(until text: String) -> String {
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while !String(decoding: received, as: UTF8.self).contains(text) {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        received += buffer[0..<count]
      }
      return String(decoding: received, as: UTF8.self)
    }

    /// The head of the answer (status line and headers), without waiting for its body.
    func readHead() -> String {
      var received: [UInt8] = []
      var byte: UInt8 = 0
      while recv(descriptor, &byte, 1, 0) == 1 {
        received.append(byte)
        if received.count >= 4, received.suffix(4) == [13, 10, 13, 10] { break }
      }
      return String(decoding: received, as: UTF8.self)
    }

    /// Whether the server closed the connection (a read returns end of file).
    func isClosedByServer() -> Bool {
      var byte: UInt8 = 0
      return recv(descriptor, &byte, 1, 0) == 0
    }

    private static func isComplete(_ text: String) -> Bool {
      guard let end = text.range(of: "\r\n\r\n") else { return false }
      let head = text[..<end.lowerBound].lowercased()
      guard
        let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
        let length = Int(
          line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
      else { return false }
      return text.utf8.count - text[..<end.upperBound].utf8.count >= length
    }
  }

  /// Sends one request and returns the answer.
  static func exchange(port: Int, _ request: String) async throws -> String {
    try await blocking {
      let connection = try Connection(port: port)
      connection.send(request)
      return connection.readAll()
    }
  }

  /// Runs blocking socket calls on a thread of their own: blocking the few threads of Swift's
  /// cooperative pool would stall the server under test too.
  static func blocking<Value: Sendable>(
    _ work: @escaping @Sendable () throws -> Value
  ) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result { try work() })
      }
    }
  }
}
