import Foundation

/// What the server accepts from whom: the names it answers to, where state-changing requests may
/// come from, how cookies are marked, and how fast one client may go.
public struct WebSecurity: Equatable, Sendable {
  /// Host names (without port) the server answers to besides `localhost`, `127.0.0.1` and `[::1]`,
  /// which it always answers to. A request whose `Host` is none of them is refused with 421, so a
  /// page on another name cannot reach the API through DNS rebinding.
  public var allowedHosts: Set<String>
  /// Marks the session cookie `Secure`: set it when the server is served over TLS, directly or
  /// behind a proxy that terminates TLS.
  public var secureCookies: Bool
  /// Addresses of proxies whose `X-Forwarded-For` names the client for the per-client limits.
  public var trustedProxies: Set<String>
  /// How fast one client may create sessions.
  public var sessionCreation: RateLimiter.Rate
  /// How fast one client may send actions (over all its sessions).
  public var actions: RateLimiter.Rate
  /// How fast one client may read session states (`GET /api/session/state`).
  public var reads: RateLimiter.Rate
  /// How many clients' budgets a network (an IPv4 /24, an IPv6 /48) has together: the
  /// addresses of one network share that, whatever their number (``ClientNetwork``).
  public var networkShare: Double
  /// The prefix of an IPv6 address that counts as one client: 64 by default (one end site).
  public var ipv6ClientPrefix: Int
  /// The most event streams one client may hold open at once.
  public var maximumEventStreamsPerClient: Int

  /// Creates a policy; the defaults suit a server on the public internet.
  public init(
    allowedHosts: Set<String> = [],
    secureCookies: Bool = false,
    trustedProxies: Set<String> = [],
    sessionCreation: RateLimiter.Rate = .init(burst: 20, perSecond: 0.5),
    actions: RateLimiter.Rate = .init(burst: 100, perSecond: 50),
    reads: RateLimiter.Rate = .init(burst: 100, perSecond: 50),
    networkShare: Double = 4,
    ipv6ClientPrefix: Int = 64,
    maximumEventStreamsPerClient: Int = 32
  ) {
    self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    self.secureCookies = secureCookies
    self.trustedProxies = trustedProxies
    self.sessionCreation = sessionCreation
    self.actions = actions
    self.reads = reads
    self.networkShare = networkShare
    self.ipv6ClientPrefix = ipv6ClientPrefix
    self.maximumEventStreamsPerClient = maximumEventStreamsPerClient
  }

  package static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1"]

  /// Whether `authority` (`name[:port]`, `[v6]:port`) names this server. The whole value is
  /// read: anything but a host name or address and an optional port of 1 to 65535 (`@`, a path,
  /// a second colon, spaces) names no server, so `127.0.0.1:8080@evil.example` is refused.
  package func allows(authority: String) -> Bool {
    guard let host = Self.host(ofAuthority: authority) else { return false }
    let name = host.lowercased()
    return Self.loopbackHosts.contains(name) || allowedHosts.contains(name)
  }

  /// The host of an authority (`name[:port]`, `[v6][:port]`), or `nil` when it is not one.
  ///
  /// Read byte by byte: every request's Host goes through here, and `Character`'s Unicode
  /// properties cost more than the whole check needs. Only ASCII is allowed anyway.
  package static func host(ofAuthority authority: String) -> Substring? {
    let bytes = authority.utf8
    let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    let isHexDigit = { (byte: UInt8) in
      isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
    let isLetter = { (byte: UInt8) in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
    var rest = bytes[...]
    let host: Substring.UTF8View
    if rest.first == UInt8(ascii: "[") {
      guard let end = rest.firstIndex(of: UInt8(ascii: "]")) else { return nil }
      host = Substring(authority)[bytes.index(after: rest.startIndex)..<end].utf8
      guard !host.isEmpty,
        host.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
      else { return nil }
      rest = rest[bytes.index(after: end)...]
    } else {
      let colon = rest.firstIndex(of: UInt8(ascii: ":")) ?? rest.endIndex
      host = Substring(authority)[rest.startIndex..<colon].utf8
      guard !host.isEmpty,
        host.allSatisfy({
          isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        })
      else { return nil }
      rest = rest[colon...]
    }
    guard !rest.isEmpty else { return Substring(host) }
    let port = rest.dropFirst()
    guard rest.first == UInt8(ascii: ":"), (1...5).contains(port.count), port.allSatisfy(isDigit),
      let number = Int(Substring(port)), (1...65_535).contains(number)
    else { return nil }
    return Substring(host)
  }
}
