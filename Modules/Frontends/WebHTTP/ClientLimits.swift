import Hummingbird
import Synchronization

/// The per-client limits of ``WebSecurity``, applied by the routes: token buckets for session
/// creation, actions and reads (429 with `Retry-After`), and a count of open event streams.
///
/// Every budget is taken twice: from the client's own (an IPv4 address, an IPv6 /64) and from
/// the one its network shares (an IPv4 /24, an IPv6 /48, ``WebSecurity/networkShare`` times as
/// large) — so many addresses of one network get no more than the network's budget.
package final class ClientLimits: Sendable {
  package let security: WebSecurity
  private let sessionCreation: Budget
  private let actions: Budget
  private let reads: Budget
  private let streams = Mutex<[String: Int]>([:])

  /// One kind of request's buckets: per client and per network.
  private struct Budget: Sendable {
    let client: RateLimiter
    let network: RateLimiter

    init(_ rate: RateLimiter.Rate, networkShare: Double) {
      client = RateLimiter(rate: rate)
      network = RateLimiter(
        rate: .init(burst: rate.burst * networkShare, perSecond: rate.perSecond * networkShare))
    }
  }

  package init(security: WebSecurity) {
    self.security = security
    self.sessionCreation = Budget(security.sessionCreation, networkShare: security.networkShare)
    self.actions = Budget(security.actions, networkShare: security.networkShare)
    self.reads = Budget(security.reads, networkShare: security.networkShare)
  }

  /// Who the request counts against.
  private func network(of request: Request, context: WebRequestContext) -> ClientNetwork {
    ClientNetwork(
      address: context.client(of: request, trustedProxies: security.trustedProxies),
      ipv6ClientPrefix: security.ipv6ClientPrefix)
  }

  /// Admits a new session; returns who it counted against (the registry shares its table out
  /// by network).
  package func admitSessionCreation(
    _ request: Request, context: WebRequestContext
  ) throws(APIError) -> ClientNetwork {
    try admit(request, context: context, budget: sessionCreation, what: "new sessions")
  }

  package func admitAction(_ request: Request, context: WebRequestContext) throws(APIError) {
    _ = try admit(request, context: context, budget: actions, what: "actions")
  }

  package func admitRead(_ request: Request, context: WebRequestContext) throws(APIError) {
    _ = try admit(request, context: context, budget: reads, what: "reads")
  }

  /// Counts an event stream against its client until the returned ticket is closed.
  package func openEventStream(_ request: Request, context: WebRequestContext) throws(APIError)
    -> Ticket
  {
    let client = network(of: request, context: context).client
    let limit = security.maximumEventStreamsPerClient
    let opened = streams.withLock { streams in
      guard streams[client, default: 0] < limit else { return false }
      streams[client, default: 0] += 1
      return true
    }
    guard opened else {
      throw APIError(
        .tooManyRequests, "too many event streams open from this client (the limit is \(limit))",
        headers: [.retryAfter: "30"])
    }
    return Ticket { [self] in
      self.streams.withLock { streams in
        let remaining = streams[client, default: 1] - 1
        streams[client] = remaining > 0 ? remaining : nil
      }
    }
  }

  /// The number of event streams open from all clients.
  package var openEventStreams: Int { streams.withLock { $0.values.reduce(0, +) } }

  private func admit(
    _ request: Request, context: WebRequestContext, budget: Budget, what: String
  ) throws(APIError) -> ClientNetwork {
    let keys = network(of: request, context: context)
    for (limiter, key, whose) in [
      (budget.client, keys.client, "this client"), (budget.network, keys.network, "this network"),
    ] {
      if case .refused(let retryAfter) = limiter.take(for: key) {
        context.logger.notice("Rate limited", metadata: ["limit": "\(what)", "per": "\(whose)"])
        throw APIError(
          .tooManyRequests, "too many \(what) from \(whose); retry in \(retryAfter) s",
          headers: [.retryAfter: "\(retryAfter)"])
      }
    }
    return keys
  }

  /// Something counted until it is closed; closing twice counts once.
  package final class Ticket: Sendable {
    private let release: Mutex<(@Sendable () -> Void)?>

    init(release: @escaping @Sendable () -> Void) {
      self.release = Mutex(release)
    }

    package func close() {
      release.withLock { release in
        release?()
        release = nil
      }
    }

    deinit { close() }
  }
}
