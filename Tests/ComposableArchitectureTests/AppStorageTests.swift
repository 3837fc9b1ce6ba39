import Foundation
import Testing

@testable import ComposableArchitecture
@testable import Sharing

/// `.appStorage`: shared values kept in user defaults.
struct AppStorageKeyTests {
  enum Tab: String, Sendable { case counter, profile }
  enum Level: Int, Sendable {
    case low = 1
    case high = 2
  }

  /// A store of its own, emptied, so a test sees only what it wrote; removed when released.
  final class FreshStore: UserDefaults, @unchecked Sendable {
    let name = NSTemporaryDirectory() + "app-storage-tests.\(UUID().uuidString)"
    init() {
      super.init(suiteName: name)!
      removePersistentDomain(forName: name)
    }
    deinit { removePersistentDomain(forName: name) }
  }

  static func freshStore() -> UserDefaults { FreshStore() }

  @Test func aMissingKeyGivesTheDefaultAndWritesIt() {
    let store = Self.freshStore()
    @Shared(.appStorage("count", store: store)) var count = 7
    #expect(count == 7)
    #expect(store.object(forKey: "count") as? Int == 7, "the default is written for other readers")
    $count.withLock { $0 += 1 }
    #expect(store.integer(forKey: "count") == 8)
  }

  @Test func aStoredValueWinsOverTheDefault() {
    let store = Self.freshStore()
    store.set(42, forKey: "count")
    @Shared(.appStorage("count", store: store)) var count = 0
    #expect(count == 42)
  }

  @Test func aValueOfAnotherTypeReadsAsNothingStored() {
    let store = Self.freshStore()
    store.set("not a number", forKey: "count")
    @Shared(.appStorage("count", store: store)) var count = 3
    #expect(count == 3)
    #expect(store.object(forKey: "count") as? Int == 3)
  }

  @Test func keysOfOneNameInOneStoreShareAReference() {
    let store = Self.freshStore()
    @Shared(.appStorage("name", store: store)) var first = "Blob"
    @Shared(.appStorage("name", store: store)) var second = "Other"
    #expect(second == "Blob")
    $second.withLock { $0 = "Blob Jr." }
    #expect(first == "Blob Jr.")
    #expect(store.string(forKey: "name") == "Blob Jr.")
  }

  @Test func theSameNameInAnotherStoreIsAnotherValue() {
    let one = Self.freshStore()
    let two = Self.freshStore()
    @Shared(.appStorage("flag", store: one)) var first = false
    @Shared(.appStorage("flag", store: two)) var second = false
    $first.withLock { $0 = true }
    #expect(second == false)
    #expect(one.bool(forKey: "flag"))
    #expect(!two.bool(forKey: "flag"))
  }

  @Test func everySupportedTypeComesBackAsItWasWritten() {
    let store = Self.freshStore()
    let url = URL(string: "https://open-meteo.com/en/docs?latitude=37.56")!
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    do {
      @Shared(.appStorage("bool", store: store)) var bool = false
      @Shared(.appStorage("double", store: store)) var double = 0.0
      @Shared(.appStorage("strings", store: store)) var strings: [String] = []
      @Shared(.appStorage("url", store: store)) var storedURL = URL(string: "https://example.com")!
      @Shared(.appStorage("data", store: store)) var data = Data()
      @Shared(.appStorage("date", store: store)) var storedDate = Date(timeIntervalSince1970: 0)
      @Shared(.appStorage("tab", store: store)) var tab = Tab.counter
      @Shared(.appStorage("level", store: store)) var level = Level.low
      $bool.withLock { $0 = true }
      $double.withLock { $0 = 2.5 }
      $strings.withLock { $0 = ["Seoul", "Busan"] }
      $storedURL.withLock { $0 = url }
      $data.withLock { $0 = Data([1, 2, 3]) }
      $storedDate.withLock { $0 = date }
      $tab.withLock { $0 = .profile }
      $level.withLock { $0 = .high }
    }
    #expect(store.string(forKey: "tab") == "profile")
    #expect(store.integer(forKey: "level") == 2)
    // New references, created after the first ones went away, read the store.
    @SharedReader(.appStorage("bool", store: store)) var bool = false
    @SharedReader(.appStorage("double", store: store)) var double = 0.0
    @SharedReader(.appStorage("strings", store: store)) var strings: [String] = []
    @SharedReader(.appStorage("url", store: store)) var storedURL = URL(
      string: "https://example.com")!
    @SharedReader(.appStorage("data", store: store)) var data = Data()
    @SharedReader(.appStorage("date", store: store)) var storedDate = Date(timeIntervalSince1970: 0)
    @SharedReader(.appStorage("tab", store: store)) var tab = Tab.counter
    @SharedReader(.appStorage("level", store: store)) var level = Level.low
    #expect(bool == true)
    #expect(double == 2.5)
    #expect(strings == ["Seoul", "Busan"])
    #expect(storedURL == url)
    #expect(data == Data([1, 2, 3]))
    #expect(storedDate == date)
    #expect(tab == .profile)
    #expect(level == .high)
  }

  @Test func anUnknownRawValueReadsAsNothingStored() {
    let store = Self.freshStore()
    store.set("settings", forKey: "tab")
    @Shared(.appStorage("tab", store: store)) var tab = Tab.counter
    #expect(tab == .counter)
  }

  @Test func nilRemovesAnOptionalValue() {
    let store = Self.freshStore()
    @Shared(.appStorage("city", store: store)) var city: String? = nil
    #expect(city == nil)
    #expect(store.object(forKey: "city") == nil)
    $city.withLock { $0 = "Seoul" }
    #expect(store.string(forKey: "city") == "Seoul")
    $city.withLock { $0 = nil }
    #expect(store.object(forKey: "city") == nil)
  }

  @Test func anOptionalRawValueIsKeptAsItsRawValue() {
    let store = Self.freshStore()
    @Shared(.appStorage("tab", store: store)) var tab: Tab? = nil
    $tab.withLock { $0 = .profile }
    #expect(store.string(forKey: "tab") == "profile")
  }

  @Test func aChangeTheStoreAnnouncesReachesTheSharedValue() {
    let store = Self.freshStore()
    @Shared(.appStorage("count", store: store)) var count = 0
    store.set(5, forKey: "count")
    NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: store)
    #expect(count == 5)
    store.removeObject(forKey: "count")
    NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: store)
    #expect(count == 0, "a removed value gives the default again")
  }

  @Test func anotherStoresAnnouncementChangesNothing() {
    let store = Self.freshStore()
    let other = Self.freshStore()
    @Shared(.appStorage("count", store: store)) var count = 0
    store.set(5, forKey: "count")
    NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: other)
    #expect(count == 0)
  }

  @Test func eachTestHasADefaultStoreOfItsOwn() {
    @Shared(.appStorage("visits")) var visits = 0
    #expect(visits == 0)
    $visits.withLock { $0 += 1 }
    @Dependency(\.defaultAppStorage) var defaults
    #expect(defaults.integer(forKey: "visits") == 1)
    #expect(defaults !== UserDefaults.standard)
  }

  /// Every test gets a store of its own; none is written to a file, now or at exit.
  @Test func aTestsStoreLeavesNoFileBehind() throws {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory())
    func files() throws -> Set<String> {
      Set(
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
          .filter { $0.hasPrefix("composable-architecture.") })
    }
    let before = try files()
    let store = _TestUserDefaults()
    @Shared(.appStorage("visits", store: store)) var visits = 0
    $visits.withLock { $0 += 1 }
    #expect(store.integer(forKey: "visits") == 1)
    #expect(store.synchronize())
    #expect(try files().subtracting(before).isEmpty)
    store.register(defaults: ["registered": "yes"])
    #expect(store.string(forKey: "registered") == "yes")
    #expect(store.dictionaryRepresentation()["visits"] as? Int == 1)
  }

  @Test func theDefaultStoreIsADependency() {
    let store = Self.freshStore()
    store.set(12, forKey: "visits")
    withDependencies {
      $0.defaultAppStorage = store
    } operation: {
      @Shared(.appStorage("visits")) var visits = 0
      #expect(visits == 12)
    }
  }
}

extension SharedReaderKey where Self == AppStorageKey<Int> {
  fileprivate static var launches: Self { appStorage("launches") }
}

@MainActor
struct AppStorageTestStoreTests {
  @Reducer
  struct Launches {
    @ObservableState
    struct State: Equatable {
      @Shared(.launches) var launches = 0
    }
    enum Action { case launched }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.$launches.withLock { $0 += 1 }
        return .none
      }
    }
  }

  @Test func aTestStoreAssertsAnAppStorageChangeLikeState() async {
    let store = TestStore(initialState: Launches.State()) { Launches() }
    await store.send(.launched) { $0.$launches.withLock { $0 = 1 } }
    @Dependency(\.defaultAppStorage) var defaults
    #expect(defaults.integer(forKey: "launches") == 1)
  }

  @Test func aTestStartsFromAnEmptyStore() async {
    let store = TestStore(initialState: Launches.State()) { Launches() }
    #expect(store.state.launches == 0)
    await store.send(.launched) { $0.$launches.withLock { $0 = 1 } }
  }
}
