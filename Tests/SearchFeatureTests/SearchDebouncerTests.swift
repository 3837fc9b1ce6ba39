import ComposableArchitecture
import SearchFeature
import Testing
import WeatherClient

/// The debouncer runs plain `Store`s, so these tests run their tasks on the main serial executor
/// (as `TestStore` does) to make the order of async work deterministic.
@MainActor
struct SearchDebouncerTests {
  @Test func onlyTheLastQueryOfABurstIsSearched() async {
    await withMainSerialExecutor {
      let clock = TestClock()
      let searched = LockIsolated<[String]>([])
      let store = Store(initialState: Search.State()) {
        Search()
      } withDependencies: {
        $0.weatherClient.search = { @Sendable query in
          searched.withValue { $0.append(query) }
          return .mock
        }
      }
      let debouncer = SearchDebouncer(store: store, clock: clock)
      debouncer.queryChanged("S")
      await clock.advance(by: .milliseconds(100))
      debouncer.queryChanged("Se")
      await clock.advance(by: .milliseconds(299))
      #expect(searched.value == [])
      #expect(store.searchQuery == "Se")
      debouncer.queryChanged("Seoul")
      await clock.advance(by: .milliseconds(300))
      await debouncer.settle()
      #expect(searched.value == ["Seoul"])
      #expect(store.results == GeocodingSearch.mock.results)
    }
  }

  @Test func aNewEditCancelsTheSearchRequestInFlight() async {
    await withMainSerialExecutor {
      let clock = TestClock()
      let searched = LockIsolated<[String]>([])
      let store = Store(initialState: Search.State()) {
        Search()
      } withDependencies: {
        $0.weatherClient.search = { @Sendable query in
          searched.withValue { $0.append(query) }
          try await clock.sleep(for: .seconds(5))
          return GeocodingSearch(results: [])
        }
      }
      let debouncer = SearchDebouncer(store: store, clock: clock)
      debouncer.queryChanged("Lon")
      await clock.advance(by: .milliseconds(300))
      await Task.megaYield()
      #expect(searched.value == ["Lon"])
      debouncer.queryChanged("London")
      await clock.advance(by: .seconds(10))
      await debouncer.settle()
      // The first search was cancelled, so only the second one's (empty) response landed.
      #expect(searched.value == ["Lon", "London"])
      #expect(store.results == [])
    }
  }

  @Test func clearingTheQueryNeverSearches() async {
    await withMainSerialExecutor {
      let clock = TestClock()
      let store = Store(initialState: Search.State(searchQuery: "x")) { Search() }
      let debouncer = SearchDebouncer(store: store, clock: clock)
      debouncer.queryChanged("")
      await clock.advance(by: .seconds(1))
      await debouncer.settle()
      #expect(store.searchQuery == "")
    }
  }
}
