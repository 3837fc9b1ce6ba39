import ComposableArchitecture

/// Drives a ``Search`` store the way the seed's view did: every edit of the query is sent at once
/// (``Search/Action/searchQueryChanged(_:)``), and the search itself
/// (``Search/Action/searchQueryChangeDebounced``) is sent only once the query has been still for
/// `delay` (300 ms by default).
///
/// A new edit cancels the pending search — and, like the seed's `.task(id:)`, the search request
/// that the previous debounced send started. Front ends create one per search screen:
///
/// ```swift
/// let debouncer = SearchDebouncer(store: store.scope(state: \.search, action: \.search))
/// debouncer.queryChanged("Seo")
/// debouncer.queryChanged("Seoul")   // only "Seoul" is searched, 300 ms later
/// ```
@MainActor
public final class SearchDebouncer {
  private let store: StoreOf<Search>
  private let clock: any Clock<Duration>
  private let delay: Duration
  private var pending: Task<Void, Never>?

  /// - Parameters:
  ///   - clock: the clock the delay is measured on; `ContinuousClock()` in apps, a `TestClock` in
  ///     tests.
  public init(
    store: StoreOf<Search>,
    clock: any Clock<Duration> = ContinuousClock(),
    delay: Duration = .milliseconds(300)
  ) {
    self.store = store
    self.clock = clock
    self.delay = delay
  }

  /// Sends the new query and schedules the debounced search.
  public func queryChanged(_ query: String) {
    pending?.cancel()
    store.send(.searchQueryChanged(query))
    let (store, clock, delay) = (self.store, self.clock, self.delay)
    pending = Task { @MainActor in
      do {
        try await clock.sleep(for: delay)
      } catch {
        return
      }
      await store.send(.searchQueryChangeDebounced).finish()
    }
  }

  /// Cancels the pending search and the search request it started, if any.
  public func cancel() {
    pending?.cancel()
    pending = nil
  }

  /// Waits until the pending search, if any, has been sent and has finished.
  public func settle() async {
    await pending?.value
  }

  isolated deinit {
    pending?.cancel()
  }
}
