import Synchronization

/// Per-client token buckets: each client may spend ``Rate/burst`` tokens at once, and gets
/// ``Rate/perSecond`` back every second up to that burst.
///
/// A refused request costs nothing and learns how long to wait (`Retry-After`). The limiter
/// remembers at most ``maximumClients`` clients; when it is full, the buckets that are full
/// again (clients that stopped sending) are forgotten first, so memory stays bounded whatever
/// addresses requests come from.
///
/// ```swift
/// let limiter = RateLimiter(rate: .init(burst: 20, perSecond: 1))
/// if case .refused(let retryAfter) = limiter.take(for: "203.0.113.9") { … }
/// ```
public final class RateLimiter: Sendable {
  /// How fast a client may go.
  public struct Rate: Equatable, Sendable {
    /// The requests a client may make at once after a pause.
    public var burst: Double
    /// The requests a client may make per second in the long run.
    public var perSecond: Double

    /// Creates a rate; `burst` is at least 1 and `perSecond` above 0.
    public init(burst: Double, perSecond: Double) {
      self.burst = max(1, burst)
      self.perSecond = max(0.001, perSecond)
    }
  }

  /// The answer to one request.
  public enum Decision: Equatable, Sendable {
    case allowed
    /// Refused; a token is back after this many whole seconds.
    case refused(retryAfter: Int)
  }

  /// The rate each client gets.
  public let rate: Rate
  /// The most clients remembered at once.
  public let maximumClients: Int

  private struct Bucket {
    var tokens: Double
    var updated: ContinuousClock.Instant
  }

  private let buckets = Mutex<[String: Bucket]>([:])

  /// Creates a limiter.
  public init(rate: Rate, maximumClients: Int = 100_000) {
    self.rate = rate
    self.maximumClients = max(1, maximumClients)
  }

  /// Takes one token from `client`'s bucket, if there is one.
  public func take(
    for client: String, now: ContinuousClock.Instant = .now
  ) -> Decision {
    buckets.withLock { buckets in
      var bucket = buckets[client] ?? Bucket(tokens: rate.burst, updated: now)
      let elapsed = Self.seconds(bucket.updated.duration(to: now))
      bucket.tokens = min(rate.burst, bucket.tokens + max(0, elapsed) * rate.perSecond)
      bucket.updated = max(bucket.updated, now)
      guard bucket.tokens >= 1 else {
        buckets[client] = bucket
        let wait = (1 - bucket.tokens) / rate.perSecond
        return .refused(retryAfter: max(1, Int(wait.rounded(.up))))
      }
      bucket.tokens -= 1
      if buckets[client] == nil, buckets.count >= maximumClients {
        forgetRested(&buckets, now: now)
      }
      buckets[client] = bucket
      return .allowed
    }
  }

  /// The number of clients remembered.
  public var clientCount: Int { buckets.withLock { $0.count } }

  /// Forgets the clients whose buckets have filled up again; if none has, half of them, the
  /// ones with the most tokens first (they are the least likely to be refused anyway).
  private func forgetRested(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
    let rested = buckets.filter { _, bucket in
      bucket.tokens + Self.seconds(bucket.updated.duration(to: now)) * rate.perSecond >= rate.burst
    }
    if !rested.isEmpty {
      for client in rested.keys { buckets[client] = nil }
      return
    }
    let fullest = buckets.sorted { $0.value.tokens > $1.value.tokens }.prefix(buckets.count / 2 + 1)
    for (client, _) in fullest { buckets[client] = nil }
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
