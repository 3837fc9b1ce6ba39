import AppFeature
import ComposableArchitecture
import Foundation
import SearchFeature
import Synchronization

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

/// One visitor's running app: a root store of `AppFeature` on an actor of its own
/// (`StoreActor`), so that sessions reduce in parallel on every core and a slow one stalls no
/// other; and the event streams open on it.
///
/// Every change of the store's state is published on the store's actor, in order: it gets the
/// next revision and goes to every event stream. The session's own bookkeeping (last activity,
/// streams, the last snapshot) is behind a lock, so reading it needs no hop to the actor.
/// ``end()`` releases the store, which cancels every effect it started (a running timer stops,
/// requests in flight are cancelled).
final class Session: Sendable {
  let id: SessionID
  /// The session's name in logs: a serial number, because the id is a secret.
  let logName: String
  private let bookkeeping: Mutex<Bookkeeping>

  private struct Bookkeeping {
    var store: StoreActorOf<AppFeature>?
    var observation: StoreActorObserveToken?
    var lastActivity: ContinuousClock.Instant
    var subscribers: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
    var nextSubscriberID = 0
    var lastSnapshot: Snapshot?
  }

  init(
    id: SessionID,
    serial: Int,
    now: ContinuousClock.Instant,
    dependencies: @escaping @Sendable (inout DependencyValues) -> Void
  ) {
    self.id = id
    self.logName = "#\(serial)"
    let store = StoreActor(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      dependencies(&$0)
    }
    self.bookkeeping = Mutex(Bookkeeping(store: store, lastActivity: now))
  }

  /// Loads what the visitor kept (favorites, settings), then publishes the state and starts
  /// publishing every change; returns the first snapshot.
  func start() async throws(APIError) -> Snapshot {
    guard let store = bookkeeping.withLock({ $0.store }) else { throw APIError.unknownSession }
    await Self.loadKeptData(store)
    let observation = await Self.attach(self, to: store)
    bookkeeping.withLock { $0.observation = observation }
    guard let snapshot else { throw APIError.unknownSession }
    return snapshot
  }

  /// A failed load is in the state (and shown); the session starts either way.
  private static func loadKeptData(_ store: isolated StoreActorOf<AppFeature>) async {
    await store.send(.task).finish()
  }

  private static func attach(
    _ session: Session, to store: isolated StoreActorOf<AppFeature>
  ) -> StoreActorObserveToken {
    session.publish(store.state)
    return store.observeSends { [weak session] state in session?.publish(state) }
  }

  /// The number of event streams open on this session.
  var subscriberCount: Int { bookkeeping.withLock { $0.subscribers.count } }

  /// When the visitor last made a request.
  var lastActivity: ContinuousClock.Instant { bookkeeping.withLock { $0.lastActivity } }

  /// Records a request from the visitor, for the idle timeout.
  func touch(_ now: ContinuousClock.Instant) {
    bookkeeping.withLock { if now > $0.lastActivity { $0.lastActivity = now } }
  }

  /// The current state and its revision; `nil` once the session has ended.
  var snapshot: Snapshot? {
    bookkeeping.withLock { $0.store == nil ? nil : $0.lastSnapshot }
  }

  /// Sends a user action to the store, after checking it against the current state, and returns
  /// the state after it.
  ///
  /// - Throws: ``APIError`` (422/409) when the action names something that does not exist;
  ///   nothing is sent then.
  func perform(_ action: UserAction) async throws(APIError) -> Snapshot {
    guard let store = bookkeeping.withLock({ $0.store }) else { throw APIError.unknownSession }
    try await Self.apply(action, to: store)
    guard let snapshot else { throw APIError.unknownSession }
    return snapshot
  }

  /// Checks the action against the state and sends it, in one step on the store's actor.
  private static func apply(
    _ action: UserAction, to store: isolated StoreActorOf<AppFeature>
  ) throws(APIError) {
    store.send(try action.appAction(validatingAgainst: store.state))
  }

  /// Opens an event stream: the current state first, then every change.
  func subscribe() -> AsyncStream<SessionEvent> {
    let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(
      bufferingPolicy: .bufferingNewest(64))
    let subscriberID = bookkeeping.withLock { state -> Int? in
      guard state.store != nil, let snapshot = state.lastSnapshot else { return nil }
      let subscriberID = state.nextSubscriberID
      state.nextSubscriberID += 1
      state.subscribers[subscriberID] = continuation
      continuation.yield(.state(snapshot))
      return subscriberID
    }
    guard let subscriberID else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.bookkeeping.withLock { _ = $0.subscribers.removeValue(forKey: subscriberID) }
    }
    return stream
  }

  /// Sends ``SessionEvent/keepAlive`` to every open event stream.
  func sendKeepAlive() {
    bookkeeping.withLock { state in
      for subscriber in state.subscribers.values {
        subscriber.yield(.keepAlive)
      }
    }
  }

  /// Ends the session: closes its event streams and releases its store, which cancels all of its
  /// effects. Idempotent.
  func end() {
    // The store leaves with the last reference to it (a request still on its way through it
    // holds one until it is done); its effects are cancelled then.
    let (subscribers, observation) = bookkeeping.withLock { state in
      defer {
        state.subscribers = [:]
        state.observation = nil
        state.store = nil
      }
      return (state.subscribers, state.observation)
    }
    observation?.cancel()
    for subscriber in subscribers.values {
      subscriber.finish()
    }
  }

  /// Gives `state` the next revision and sends it to every event stream, if its view changed.
  /// Called on the store's actor, so revisions follow the order of changes.
  private func publish(_ state: AppFeature.State) {
    let view = StateView(state)
    bookkeeping.withLock { bookkeeping in
      guard bookkeeping.store != nil, view != bookkeeping.lastSnapshot?.state else { return }
      let snapshot = Snapshot(
        revision: (bookkeeping.lastSnapshot?.revision ?? 0) + 1, state: view)
      bookkeeping.lastSnapshot = snapshot
      for subscriber in bookkeeping.subscribers.values {
        subscriber.yield(.state(snapshot))
      }
    }
  }
}
