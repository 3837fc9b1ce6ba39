import Foundation
import NIOCore
import NIOPosix

/// The address the server was told to listen on could not be bound: named with the reason, so
/// the operator knows which flag to change.
public struct ListenError: LocalizedError, Equatable {
  public var host: String
  public var port: Int
  public var reason: String

  public var errorDescription: String? {
    "cannot listen on \(host):\(port): \(reason). Choose another address or port (--host, --port)."
  }
}

enum ListenAddress {
  /// Binds `host:port` once and lets it go, before anything else starts, so that an address in
  /// use (or one this machine does not have) is reported as such, not as an error of the
  /// running server. Port 0 always binds and is not checked.
  static func check(host: String, port: Int) async throws {
    guard port != 0 else { return }
    do {
      let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .bind(host: host, port: port)
        .get()
      try await channel.close()
    } catch {
      throw ListenError(host: host, port: port, reason: reason(error))
    }
  }

  /// The system's words for a socket error ("Address already in use"), or the error's own.
  static func reason(_ error: any Error) -> String {
    if let error = error as? IOError {
      return String(cString: strerror(error.errnoCode))
    }
    if error is SocketAddressError {
      return "no address of this machine has that name"
    }
    return String(describing: error)
  }
}
