import Prometheus
import Synchronization
import WebFrontend
import WebHTTP
import WebSessions

/// The server's metrics, in a Prometheus registry that `GET /metrics` exposes in the text format.
///
/// | metric | type | labels |
/// |---|---|---|
/// | `app_sessions_live` | gauge | — |
/// | `app_sessions_asleep` | gauge | — (live sessions whose store is asleep: only their state is kept) |
/// | `app_sessions_asleep_whole` | gauge | — (of those, the ones whose state is kept as a value, not as its changes from the app's baseline) |
/// | `app_sessions_created_total` | counter | — |
/// | `app_actions_total` | counter | `type` (a catalogue name, or `invalid`), `result` (`ok` or a refusal) |
/// | `app_requests_refused_total` | counter | `reason` (`host`, `origin`, `method`, `rate_limited`, …) |
/// | `app_http_request_duration_seconds` | histogram | `route`, `method` (from the route table, else both `other`) |
/// | `app_event_streams_open` | gauge | — |
/// | `app_session_saves_failed_total`, `app_session_saves_retried_total` | counter | — (a session's state whose write failed; tried again) |
/// | `app_session_oldest_unsaved_seconds` | gauge | — (how long the oldest state not yet saved has waited; 0 when all are saved) |
/// | `app_sessions_quarantined_total` | counter | — (saved sessions whose state could not be read, set aside in `session_quarantine`) |
/// | `upstream_requests_total` | counter | `client`, `outcome` — recorded by the live clients through swift-metrics once the executable bootstraps it with ``registry`` |
///
/// Every label value comes from a fixed set, so no request can grow the registry.
public final class ServerMetrics: Sendable {
  /// The registry the metrics live in; the executable points swift-metrics at it too
  /// (`PrometheusMetricsFactory(registry:)`), so the live clients' metrics are exposed with these.
  public let registry: PrometheusCollectorRegistry
  package let sessionsLive: Gauge
  package let sessionsAsleep: Gauge
  package let sessionsAsleepWhole: Gauge
  package let sessionsCreated: Counter
  package let eventStreamsOpen: Gauge
  package let savesFailed: Counter
  package let savesRetried: Counter
  package let oldestUnsavedAge: Gauge
  package let sessionsQuarantined: Counter
  package let sessionsSuperseded: Counter
  /// The registry's and the writer's counts already added to the counters.
  private let reported = Mutex<Reported>(Reported())
  private struct Reported {
    var created = 0
    var quarantined = 0
    var superseded = 0
    var failed = 0
    var retried = 0
  }
  /// The action counters made so far, by type and result: the registry makes a counter by
  /// building its full name and taking its lock, and every action counts one (the label values
  /// come from fixed sets, so this stays as small as the registry).
  private let actionCounters = Mutex<[ActionKey: Counter]>([:])
  private struct ActionKey: Hashable {
    let type: String
    let result: String
  }
  /// The duration histogram of every known route and method, and of `other`, made once: a
  /// request records into its histogram without a look-up in the registry.
  private let durationHistograms: [String: [String: DurationHistogram]]
  private let otherDurations: DurationHistogram

  /// Creates the metrics in `registry` (a new one by default), with a duration series for every
  /// route of a server of `page` (``WebApp/page``): its files and addresses, and the routes every
  /// server has; a path outside the routes counts as `other`.
  public init(
    registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    page: WebPage? = nil
  ) {
    self.registry = registry
    sessionsLive = registry.makeGauge(
      descriptor: .init(
        namespace: "app", metricName: "sessions", unitName: "live",
        helpText: "Sessions alive now."))
    sessionsAsleep = registry.makeGauge(
      descriptor: .init(
        namespace: "app", metricName: "sessions", unitName: "asleep",
        helpText: "Live sessions whose store is asleep, only their state kept."))
    sessionsAsleepWhole = registry.makeGauge(
      descriptor: .init(
        namespace: "app", metricName: "sessions_asleep", unitName: "whole",
        helpText: "Sleeping sessions whose state is kept whole, not as changes from a baseline."))
    sessionsCreated = registry.makeCounter(
      descriptor: .init(
        namespace: "app", metricName: "sessions_created", unitName: "total",
        helpText: "Sessions created since the server started."))
    eventStreamsOpen = registry.makeGauge(
      descriptor: .init(
        namespace: "app", metricName: "event_streams", unitName: "open",
        helpText: "Event streams open now."))
    savesFailed = registry.makeCounter(
      descriptor: .init(
        namespace: "app", metricName: "session_saves_failed", unitName: "total",
        helpText: "Writes of a session's state that failed."))
    savesRetried = registry.makeCounter(
      descriptor: .init(
        namespace: "app", metricName: "session_saves_retried", unitName: "total",
        helpText: "Writes of a session's state tried again after a failure."))
    oldestUnsavedAge = registry.makeGauge(
      descriptor: .init(
        namespace: "app", metricName: "session_oldest_unsaved", unitName: "seconds",
        helpText: "How long the oldest session state not yet saved has waited."))
    sessionsQuarantined = registry.makeCounter(
      descriptor: .init(
        namespace: "app", metricName: "sessions_quarantined", unitName: "total",
        helpText: "Saved sessions whose state could not be read, set aside for an operator."))
    sessionsSuperseded = registry.makeCounter(
      descriptor: .init(
        namespace: "app", metricName: "sessions_superseded", unitName: "total",
        helpText:
          "Stale copies of sessions dropped because another copy (another instance) had taken them over."
      ))
    var durationHistograms: [String: [String: DurationHistogram]] = [:]
    for (route, methods) in WebRouter.routes(page: page) {
      for method in methods.map(\.rawValue) {
        durationHistograms[route, default: [:]][method] = registry.makeDurationHistogram(
          descriptor: Self.durations, labels: [("route", route), ("method", method)],
          buckets: Self.buckets)
      }
    }
    self.durationHistograms = durationHistograms
    otherDurations = registry.makeDurationHistogram(
      descriptor: Self.durations, labels: [("route", "other"), ("method", "other")],
      buckets: Self.buckets)
  }

  /// Counts an action request by its type and what became of it.
  package func action(_ type: String, result: String) {
    let key = ActionKey(type: type, result: result)
    if let counter = actionCounters.withLock({ $0[key] }) {
      counter.increment()
      return
    }
    let counter = registry.makeCounter(
      descriptor: Self.actions, labels: [("type", type), ("result", result)])
    actionCounters.withLock { $0[key] = counter }
    counter.increment()
  }

  /// Counts a refused request by the reason its status stands for.
  package func refused(status: Int) {
    registry.makeCounter(descriptor: Self.refusals, labels: [("reason", Self.reason(status))])
      .increment()
  }

  /// Records how long a request took to answer (until its head is ready, for a stream), under
  /// its route and method, or under `other` when the route table does not know them.
  package func requestDuration(_ duration: Duration, path: String, method: String) {
    (durationHistograms[path]?[method] ?? otherDurations).record(duration)
  }

  /// The registry in the Prometheus text format, with the sessions' gauges set and their
  /// counters brought up to the registry's counts at the moment of the scrape (sessions come
  /// and go in several places; only their counts matter here).
  package func exposition(of counts: SessionCounts) -> String {
    sessionsLive.set(to: Double(counts.live))
    sessionsAsleep.set(to: Double(counts.asleep))
    sessionsAsleepWhole.set(to: Double(counts.asleepWhole))
    reported.withLock { reported in
      sessionsCreated.increment(by: Int64(counts.created - reported.created))
      sessionsQuarantined.increment(by: Int64(counts.quarantined - reported.quarantined))
      sessionsSuperseded.increment(by: Int64(counts.superseded - reported.superseded))
      reported.created = counts.created
      reported.quarantined = counts.quarantined
      reported.superseded = counts.superseded
      if let saves = counts.saves {
        savesFailed.increment(by: Int64(saves.failedSaves - reported.failed))
        savesRetried.increment(by: Int64(saves.retriedSaves - reported.retried))
        reported.failed = saves.failedSaves
        reported.retried = saves.retriedSaves
      }
    }
    if let saves = counts.saves {
      oldestUnsavedAge.set(to: saves.oldestUnsaved.map { Self.seconds($0.duration(to: .now)) } ?? 0)
    }
    return registry.emitToString()
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// The reason a refusal's status stands for.
  package static func reason(_ status: Int) -> String {
    switch status {
    case 400: "bad_request"
    case 403: "origin"
    case 404: "not_found"
    case 405: "method"
    case 409: "conflict"
    case 413: "too_large"
    case 415: "media_type"
    case 421: "host"
    case 422: "invalid"
    case 429: "rate_limited"
    case 503: "unavailable"
    default: "status_\(status)"
    }
  }

  private static var actions: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "app", metricName: "actions", unitName: "total",
      helpText: "Action requests by type and result.")
  }
  private static var refusals: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "app", metricName: "requests_refused", unitName: "total",
      helpText: "Requests answered with an error, by reason.")
  }
  private static var durations: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "app", metricName: "http_request_duration", unitName: "seconds",
      helpText: "Time to answer a request, by route and method.")
  }
  private static let buckets: [Duration] = [
    .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
    .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25),
    .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
    .seconds(2.5), .seconds(5), .seconds(10),
  ]
}

extension ServerMetrics: RequestObserver {
  package func answered(path: String, method: String, status: Int, after duration: Duration) {
    requestDuration(duration, path: path, method: method)
    if status >= 400 { refused(status: status) }
  }
}
