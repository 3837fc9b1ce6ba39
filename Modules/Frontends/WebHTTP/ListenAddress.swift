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

package enum ListenAddress {
  /// Binds `host:port` once and lets it go, before anything else starts, so that an address in
  /// use (or one this machine does not have) is reported as such, not as an error of the
  /// running server. Port 0 always binds and is not checked.
  ///
  /// The socket is bound, never listened on: a client that connects meanwhile (a balancer's
  /// health check) is refused at once and tries again, where a listening probe would take its
  /// connection into a queue that closing the probe leaves hanging (measured: 5 s, until the
  /// client's own timeout, in 2 of 10 starts on a busy machine).
  package static func check(host: String, port: Int) async throws {
    guard port != 0 else { return }
    let address: SocketAddress
    do {
      address = try SocketAddress.makeAddressResolvingHost(host, port: port)
    } catch {
      throw ListenError(host: host, port: port, reason: reason(error))
    }
    let descriptor = socket(address.protocol.rawValue, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else {
      throw ListenError(host: host, port: port, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    // As the server's own socket: an address left in TIME_WAIT by a previous run is free.
    var one: Int32 = 1
    _ = setsockopt(
      descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let bound = address.withSockAddr { pointer, size in
      bind(descriptor, pointer, socklen_t(size))
    }
    guard bound == 0 else {
      throw ListenError(host: host, port: port, reason: String(cString: strerror(errno)))
    }
  }

  /// The system's words for a socket error ("Address already in use"), or the error's own.
  package static func reason(_ error: any Error) -> String {
    if let error = error as? IOError {
      return String(cString: strerror(error.errnoCode))
    }
    if error is SocketAddressError || error is SocketAddressError.UnknownHost {
      return "no address of this machine has that name"
    }
    return String(describing: error)
  }
}
