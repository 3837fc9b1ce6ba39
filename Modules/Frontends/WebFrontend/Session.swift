import AppFeature
import ComposableArchitecture
import Foundation
import SearchFeature

/// A state of a session with its revision: the revision grows by one with every change, so a page
/// that gets snapshots from two channels (responses and events) keeps the newest.
public struct Snapshot: Codable, Equatable, Sendable {
  /// 1 for the state a session starts with, then one more per change.
  public var revision: Int
  /// The state.
  public var state: StateView
}

/// What a session pushes to the page's event stream.
public enum SessionEvent: Equatable, Sendable {
  /// The state changed (an action, a timer tick, a response).
  case state(Snapshot)
  /// Nothing changed for a while; sent so that dead connections are noticed.
  case keepAlive
}

/// One visitor's running app: a root `Store<AppFeature>` with its own effects, its search
/// debouncer, and the event streams open on it.
///
/// Isolated on the main actor, like the store. ``end()`` releases the store, which cancels every
/// effect it started (a running timer stops, requests in flight are cancelled).
@MainActor
final class Session {
  let id: SessionID
  /// The session's name in logs: a serial number, because the id is a secret.
  let logName: String
  private(set) var lastActivity: ContinuousClock.Instant
  private var store: StoreOf<AppFeature>?
  private var debouncer: SearchDebouncer?
  private var submittedSearch: StoreTask?
  private var isSearchInFlight = false
  private var searchGeneration = 0
  private var subscribers: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
  private var nextSubscriberID = 0
  private var observation: Task<Void, Never>?
  private var lastBroadcast: Snapshot?

  init(
    id: SessionID,
    serial: Int,
    now: ContinuousClock.Instant,
    dependencies: @escaping @Sendable (inout DependencyValues) -> Void
  ) {
    self.id = id
    self.logName = "#\(serial)"
    self.lastActivity = now
    let store = Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      dependencies(&$0)
    }
    // The debounce waits on the session's own clock, so a test clock drives it too.
    let clock = withDependencies(dependencies) {
      @Dependency(\.continuousClock) var clock
      return clock
    }
    self.store = store
    self.debouncer = SearchDebouncer(
      store: store.scope(state: \.search, action: \.search), clock: clock)
    let states = store.states(bufferingNewest: 1)
    self.observation = Task { [weak self] in
      for await _ in states {
        self?.broadcast()
      }
    }
  }

  /// Whether ``end()`` was called.
  var isEnded: Bool { store == nil }

  /// The number of event streams open on this session.
  var subscriberCount: Int { subscribers.count }

  /// Records a request from the visitor, for the idle timeout.
  func touch(_ now: ContinuousClock.Instant) {
    if now > lastActivity { lastActivity = now }
  }

  /// What the page shows now; `nil` once the session has ended.
  var view: StateView? {
    store.map { StateView($0.state, isSearchInFlight: isSearchInFlight) }
  }

  /// Sends a user action to the store, after checking it against the current state.
  ///
  /// - Throws: ``APIError`` (422/409) when the action names something that does not exist;
  ///   nothing is sent then.
  func perform(_ action: UserAction) throws(APIError) {
    guard let store, let debouncer else {
      throw APIError.unknownSession
    }
    switch action {
    case .changeSearchQuery(let query):
      submittedSearch?.cancel()
      debouncer.queryChanged(query)
      if query.isEmpty {
        trackSearch(nil)
      } else {
        trackSearch { await debouncer.settle() }
      }

    case .submitSearch:
      debouncer.cancel()
      submittedSearch?.cancel()
      let task = store.send(.search(.searchQueryChangeDebounced))
      submittedSearch = task
      if store.state.search.searchQuery.isEmpty {
        trackSearch(nil)
      } else {
        trackSearch { await task.finish() }
      }

    default:
      store.send(try action.appAction(validatingAgainst: store.state))
    }
    broadcast()
  }

  /// Opens an event stream: the current state first, then every change.
  func subscribe() -> AsyncStream<SessionEvent> {
    let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(
      bufferingPolicy: .bufferingNewest(64))
    guard let snapshot = snapshot() else {
      continuation.finish()
      return stream
    }
    let subscriberID = nextSubscriberID
    nextSubscriberID += 1
    subscribers[subscriberID] = continuation
    continuation.yield(.state(snapshot))
    continuation.onTermination = { [weak self] _ in
      Task { @MainActor in self?.subscribers[subscriberID] = nil }
    }
    return stream
  }

  /// Sends ``SessionEvent/keepAlive`` to every open event stream.
  func sendKeepAlive() {
    for subscriber in subscribers.values {
      subscriber.yield(.keepAlive)
    }
  }

  /// Ends the session: closes its event streams and releases its store, which cancels all of its
  /// effects. Idempotent.
  func end() {
    observation?.cancel()
    observation = nil
    debouncer?.cancel()
    debouncer = nil
    submittedSearch?.cancel()
    submittedSearch = nil
    store = nil
    for subscriber in subscribers.values {
      subscriber.finish()
    }
    subscribers = [:]
  }

  // MARK: Private

  /// The current state and its revision; `nil` once the session has ended.
  func snapshot() -> Snapshot? {
    broadcast()
    return store == nil ? nil : lastBroadcast
  }

  /// Gives the current state a new revision and sends it to every event stream, if it changed.
  private func broadcast() {
    guard let view, view != lastBroadcast?.state else { return }
    let snapshot = Snapshot(revision: (lastBroadcast?.revision ?? 0) + 1, state: view)
    lastBroadcast = snapshot
    for subscriber in subscribers.values {
      subscriber.yield(.state(snapshot))
    }
  }

  /// Shows the search as in flight until `wait` returns, unless a newer search replaced it.
  private func trackSearch(_ wait: (@MainActor @Sendable () async -> Void)?) {
    searchGeneration += 1
    let generation = searchGeneration
    guard let wait else {
      isSearchInFlight = false
      return
    }
    isSearchInFlight = true
    Task { [weak self] in
      await wait()
      guard let self, self.searchGeneration == generation else { return }
      self.isSearchInFlight = false
      self.broadcast()
    }
  }
}
