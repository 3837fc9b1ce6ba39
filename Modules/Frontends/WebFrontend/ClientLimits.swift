import Hummingbird
import Synchronization

/// The per-client limits of ``WebSecurity``, applied by the routes: token buckets for session
/// creation and for actions (429 with `Retry-After`), and a count of open event streams.
final class ClientLimits: Sendable {
  let security: WebSecurity
  private let sessionCreation: RateLimiter
  private let actions: RateLimiter
  private let streams = Mutex<[String: Int]>([:])

  init(security: WebSecurity) {
    self.security = security
    self.sessionCreation = RateLimiter(rate: security.sessionCreation)
    self.actions = RateLimiter(rate: security.actions)
  }

  func admitSessionCreation(_ request: Request, context: WebRequestContext) throws(APIError) {
    try admit(request, context: context, limiter: sessionCreation, what: "new sessions")
  }

  func admitAction(_ request: Request, context: WebRequestContext) throws(APIError) {
    try admit(request, context: context, limiter: actions, what: "actions")
  }

  /// Counts an event stream against its client until the returned ticket is closed.
  func openEventStream(_ request: Request, context: WebRequestContext) throws(APIError) -> Ticket {
    let client = context.client(of: request, trustedProxies: security.trustedProxies)
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
  var openEventStreams: Int { streams.withLock { $0.values.reduce(0, +) } }

  private func admit(
    _ request: Request, context: WebRequestContext, limiter: RateLimiter, what: String
  ) throws(APIError) {
    let client = context.client(of: request, trustedProxies: security.trustedProxies)
    if case .refused(let retryAfter) = limiter.take(for: client) {
      context.logger.notice("Rate limited", metadata: ["limit": "\(what)"])
      throw APIError(
        .tooManyRequests, "too many \(what) from this client; retry in \(retryAfter) s",
        headers: [.retryAfter: "\(retryAfter)"])
    }
  }

  /// Something counted until it is closed; closing twice counts once.
  final class Ticket: Sendable {
    private let release: Mutex<(@Sendable () -> Void)?>

    init(release: @escaping @Sendable () -> Void) {
      self.release = Mutex(release)
    }

    func close() {
      release.withLock { release in
        release?()
        release = nil
      }
    }

    deinit { close() }
  }
}
