import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of the web front end: Hummingbird's core context plus the peer's address,
/// which the abuse limits key on.
public struct WebRequestContext: RequestContext, RemoteAddressRequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The address of the connection's peer: the client, or the proxy in front of it.
  public let remoteAddress: SocketAddress?

  public init(source: ApplicationRequestContextSource) {
    self.coreContext = .init(source: source)
    self.remoteAddress = source.channel.remoteAddress
  }

  /// Who sent the request, for per-client limits: the peer's IP address, or — when the peer is
  /// one of `trustedProxies` — the last address that proxy appended to `X-Forwarded-For`.
  ///
  /// Only the last entry is used: everything before it was written by the client and can be
  /// anything. Requests without a peer address (in-process tests) share the key `local`.
  package func client(of request: Request, trustedProxies: Set<String>) -> String {
    guard let peer = remoteAddress?.ipAddress else { return "local" }
    guard trustedProxies.contains(peer),
      let forwarded = request.headers[values: .xForwardedFor].last?
        .split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
      !forwarded.isEmpty, forwarded.utf8.count <= 64
    else { return peer }
    return forwarded
  }
}

extension HTTPField.Name {
  package static let xForwardedFor = Self("X-Forwarded-For")!
  package static let secFetchSite = Self("Sec-Fetch-Site")!
  package static let xRequestID = Self("X-Request-ID")!
}
