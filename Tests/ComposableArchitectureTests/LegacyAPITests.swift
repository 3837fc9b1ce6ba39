import ComposableArchitecture
import Foundation
import Testing

// Code written against TCA's deprecated spellings compiles and behaves as the modern spelling.
// Swift Testing refuses deprecated tests, so the deprecation warnings of this file are expected:
// each one is a deprecated API under test.

@Reducer
struct LegacyParent {
  struct State: Equatable {
    var counter = Counter.State()
    var optional: Counter.State?
    var rows: IdentifiedArrayOf<Counter.State> = []
    var path = StackState<Counter.State>()
    var mode = Mode.idle
    var changes = 0
  }

  @CasePathable
  enum Mode: Equatable {
    case idle
    case counting(Counter.State)
  }

  enum Action: Equatable {
    case counter(Counter.Action)
    case optional(Counter.Action)
    case row(id: Int, action: Counter.Action)
    case path(StackAction<Counter.State, Counter.Action>)
    case mode(Counter.Action)
  }

  /// Counts 0 and 1 are one pair, 2 and 3 the next…
  static func isSamePair(_ lhs: Int, _ rhs: Int) -> Bool { lhs / 2 == rhs / 2 }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: /Action.counter) {
      Counter()
    }
    // Sees only the changes of the scope it is attached to.
    .onChange(of: \.counter.count, removeDuplicates: Self.isSamePair) { _, _ in
      Reduce { state, _ in
        state.changes += 1
        return .none
      }
    }
    Scope(state: \.mode, action: \.self) {
      Scope(state: /Mode.counting, action: /Action.mode) {
        Counter()
      }
    }
    EmptyReducer()
      .ifLet(\.optional, action: /Action.optional) { Counter() }
      .forEach(\.rows, action: /Action.row) { Counter() }
      .forEach(\.path, action: /Action.path) { Counter() }
  }
}

@MainActor
struct LegacyReducerTests {
  @Test func scopeThroughATypeErasedCasePath() async {
    let store = TestStore(initialState: LegacyParent.State()) { LegacyParent() }
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.count = 1
    }
  }

  @Test func scopeIntoAnEnumCaseThroughTypeErasedCasePaths() async {
    let store = TestStore(
      initialState: LegacyParent.State(mode: .counting(Counter.State()))
    ) { LegacyParent() }
    await store.send(.mode(.incrementButtonTapped)) {
      $0.mode = .counting(Counter.State(count: 1))
    }
    let idle = TestStore(initialState: LegacyParent.State()) { LegacyParent() }
    await withKnownIssue {
      await idle.send(.mode(.incrementButtonTapped))
    } matching: { issue in
      message(of: issue).contains("A \"Scope\" at")
    }
  }

  @Test func ifLetForEachAndStacksThroughTypeErasedCasePaths() async {
    var path = StackState<Counter.State>()
    path.append(Counter.State())
    let store = TestStore(
      initialState: LegacyParent.State(
        optional: Counter.State(), rows: [Counter.State(id: 7)], path: path)
    ) { LegacyParent() }
    await store.send(.optional(.incrementButtonTapped)) {
      $0.optional?.count = 1
    }
    await store.send(.row(id: 7, action: .incrementButtonTapped)) {
      $0.rows[id: 7]?.count = 1
    }
    await store.send(.path(.element(id: 0, action: .incrementButtonTapped))) {
      $0.path[id: 0]?.count = 1
    }
    await withKnownIssue {
      await store.send(.row(id: 8, action: .incrementButtonTapped))
    } matching: { issue in
      message(of: issue).contains("received an action for a missing element")
    }
  }

  @Test func onChangeWithRemoveDuplicatesRunsWhenTheTestSaysDifferent() async {
    let store = TestStore(initialState: LegacyParent.State()) { LegacyParent() }
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.count = 1
    }
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.count = 2
      $0.changes = 1
    }
  }

  @Test func ifCaseLetThroughTypeErasedCasePaths() async {
    let store = TestStore(initialState: LegacyParent.Mode.counting(Counter.State())) {
      Reduce<LegacyParent.Mode, Counter.Action> { _, _ in .none }
        .ifCaseLet(/LegacyParent.Mode.counting, action: /Counter.Action.self) { Counter() }
    }
    await store.send(.incrementButtonTapped) {
      $0 = .counting(Counter.State(count: 1))
    }
  }

  @Test func stackElementsOfACaseThroughATypeErasedCasePath() {
    var path = StackState<LegacyParent.Mode>()
    path.append(.counting(Counter.State()))
    path[id: 0, case: /LegacyParent.Mode.counting]?.count = 3
    #expect(path[id: 0] == .counting(Counter.State(count: 3)))
    withKnownIssue {
      path[id: 0, case: /LegacyParent.Mode.idle] = ()
    } matching: { issue in
      message(of: issue) == "Can't modify unrelated case \"counting\""
    }
    #expect(path[id: 0] == .counting(Counter.State(count: 3)))
  }

  @Test func receiveThroughATypeErasedCasePath() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.factButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(/Counter.Action.factResponse, timeout: .seconds(30)) {
      $0.fact = "0 is a number"
    }
  }

  @Test func timeoutsInNanoseconds() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.factButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.factResponse("0 is a number"), timeout: 1_000_000_000) {
      $0.fact = "0 is a number"
    }
    await task.finish(timeout: 1_000_000_000)
    await store.finish(timeout: 1_000_000_000)
  }
}

/// A dependency that is its own key.
struct Greeting: TestDependencyKey, Equatable {
  var text: String
  static let testValue = Greeting(text: "hello")
}

@Reducer
struct Greeter {
  struct State: Equatable { var text = "" }
  enum Action { case greet }
  @Dependency(Greeting.self) var greeting

  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.text = greeting.text
      return .none
    }
  }
}

@MainActor
struct DependencyOverrideTests {
  @Test func aDependencyThatIsItsOwnKeyIsOverriddenByValue() async {
    let store = TestStore(initialState: Greeter.State()) {
      Greeter()
        .dependency(Greeting(text: "far"))
        .dependency(Greeting(text: "near"))
    }
    await store.send(.greet) {
      $0.text = "far"
    }
  }
}

@MainActor
struct LegacyStoreTests {
  @Test func withStateReadsTheCurrentState() {
    let store = Store(initialState: Counter.State(count: 4)) { Counter() }
    #expect(store.withState(\.count) == 4)
  }

  @Test func scopingWithClosuresReadsAndSendsThroughThem() {
    let store = Store(initialState: LegacyParent.State()) { LegacyParent() }
    let child = store.scope(
      state: { $0.counter.count }, action: { LegacyParent.Action.counter($0) })
    #expect(child.state == 0)
    child.send(.incrementButtonTapped)
    #expect(child.state == 1)
    #expect(
      store.scope(state: { $0.counter }, action: { .counter($0) })
        !== store.scope(state: { $0.counter }, action: { .counter($0) }))
  }

  @Test func ifLetCallsThenAndElseAsTheStateComesAndGoes() {
    let store = Store(initialState: Counter.State?.none) {
      Reduce<Counter.State?, Bool> { state, present in
        state = present ? Counter.State(count: 5) : nil
        return .none
      }
    }
    var events: [String] = []
    var unwrapped: Store<Counter.State, Bool>?
    let token = store.ifLet(
      then: { store in
        events.append("then \(store.state.count)")
        unwrapped = store
      },
      else: {
        events.append("else")
      })
    store.send(true)
    store.send(true)
    store.send(false)
    #expect(events == ["else", "then 5", "else"])
    #expect(unwrapped?.state.count == 5)
    token.cancel()
    store.send(true)
    #expect(events.count == 3)
  }

  @Test func aViewStoreSeesItsViewStateWithDuplicatesRemoved() {
    let store = Store(initialState: Counter.State()) { Counter() }
    let viewStore = ViewStore(store, observe: { $0.count > 1 })
    #expect(viewStore.state == false)
    viewStore.send(.incrementButtonTapped)
    #expect(viewStore.state == false)
    viewStore.send(.incrementButtonTapped)
    #expect(viewStore.state == true)
    let counts = ViewStore(store, observe: { $0 }, send: { (_: Void) in .incrementButtonTapped })
    counts.send(())
    #expect(counts.count == 3)
  }

  /// A deliberate difference from TCA: making a view store of a scoped store runs each scoping
  /// closure above it once (TCA: twice), and a send runs each once per view store below it, as
  /// TCA's does. How often a scoping closure runs is not behaviour a feature can rely on.
  @Test func scopingClosuresRunOncePerViewStoreAndPerSend() {
    var calls = [0, 0, 0]
    let root = Store<Int, Void>(initialState: 0) {}
    let level1 = root.scope(
      state: { (count: Int) -> Int in
        calls[0] += 1
        return count
      }, action: { $0 })
    let level2 = level1.scope(
      state: { (count: Int) -> Int in
        calls[1] += 1
        return count
      }, action: { $0 })
    let level3 = level2.scope(
      state: { (count: Int) -> Int in
        calls[2] += 1
        return count
      }, action: { $0 })
    #expect(calls == [0, 0, 0], "scoping alone runs nothing")
    let viewStores = [
      ViewStore(root, observe: { $0 }), ViewStore(level1, observe: { $0 }),
      ViewStore(level2, observe: { $0 }), ViewStore(level3, observe: { $0 }),
    ]
    #expect(calls == [3, 2, 1])
    for sent in 1...3 {
      viewStores[3].send(())
      #expect(calls == [3 + 3 * sent, 2 + 2 * sent, 1 + sent])
    }
    #expect(viewStores.map(\.state) == [0, 0, 0, 0])
  }

  @Test func sendWhileSuspendsUntilThePredicateFails() async {
    let clock = TestClock()
    let store = Store(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let viewStore = ViewStore(store, observe: { $0 })
    let sent = Task { await viewStore.send(.factButtonTapped, while: { $0.fact == nil }) }
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(1))
    await sent.value
    #expect(viewStore.fact == "0 is a number")
  }

  @Test func taskCancelOutsideAnEffectCancelsInEveryStore() async {
    let clock = TestClock()
    let stores = (0..<2).map { _ in
      Store(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = clock
      }
    }
    let tasks = stores.map { $0.send(.delayedIncrement) }
    Task.cancel(id: Counter.CancelID.delay)
    for task in tasks { await task.finish() }
    await clock.advance(by: .seconds(2))
    #expect(stores.map(\.count) == [0, 0])
  }
}

@Reducer
struct LegacyForm {
  struct State: Equatable {
    @BindingState var name = ""
    var submitted = false
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case submit
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.$name):
        state.submitted = false
        return .none
      case .binding:
        return .none
      case .submit:
        state.submitted = true
        return .none
      }
    }
  }
}

/// A login form whose actions are a plain enum (no `@Reducer`, so not case-pathable), its
/// bindable actions nested in `view`.
enum PlainLogin {
  struct State: Equatable {
    @BindingState var email = ""
  }
  enum Action {
    case view(View)
    enum View: BindableAction {
      case binding(BindingAction<State>)
    }
  }
}

@MainActor
struct LegacyBindingTests {
  @Test func testStoreBindingsThroughACasePathOfAPlainAction() {
    let store = TestStore(initialState: PlainLogin.State(email: "blob@example.com")) {
      Reduce<PlainLogin.State, PlainLogin.Action> { _, _ in .none }
    }
    let bindings = store.bindings(action: /PlainLogin.Action.view)
    #expect(bindings.email == "blob@example.com")
    bindings.$email.wrappedValue = "other@example.com"
    #expect(store.state.email == "blob@example.com")
  }

  @Test func bindingStateFieldsAreSetThroughTheirProjection() async {
    let store = TestStore(initialState: LegacyForm.State(submitted: true)) { LegacyForm() }
    await store.send(.set(\.$name, "Blob")) {
      $0.name = "Blob"
      $0.submitted = false
    }
    await store.send(\.binding.$name, "Blob Jr.") {
      $0.name = "Blob Jr."
    }
  }

  @Test func testStoreBindingsSnapshotTheState() async {
    let store = TestStore(initialState: LegacyForm.State()) { LegacyForm() }
    await store.send(.set(\.$name, "Blob")) {
      $0.name = "Blob"
    }
    let bindings = store.bindings
    #expect(bindings.name == "Blob")
    #expect(bindings.$name.wrappedValue == "Blob")
    bindings.$name.wrappedValue = "Changed"
    #expect(store.state.name == "Blob")
  }

  @Test func bindingViewStoreWritesSendBindingActions() {
    let store = Store(initialState: LegacyForm.State()) { LegacyForm() }
    let bindings = BindingViewStore(store: store)
    bindings.$name.wrappedValue = "Blob"
    #expect(store.state.name == "Blob")
  }

  @Test func bindingReducerWithAClosure() async {
    let store = TestStore(initialState: LegacyForm.State()) {
      BindingReducer(action: { (action: LegacyForm.Action) in action })
    }
    await store.send(.set(\.$name, "Blob")) {
      $0.name = "Blob"
    }
  }
}

struct Unequal: Error {}
struct Coded: Error, Equatable { var code: Int }

struct TaskResultTests {
  @Test func successesAndEquatableFailuresCompare() async throws {
    let success = await TaskResult { 1 }
    #expect(success == .success(1))
    let failure = await TaskResult<Int> { throw Coded(code: 2) }
    #expect(failure == .failure(Coded(code: 2)))
    #expect(failure != .failure(Coded(code: 3)))
    #expect(failure != .failure(Unequal()))
    #expect(try success.value == 1)
    #expect(success.map { $0 + 1 } == .success(2))
    #expect(
      success.flatMap { _ in TaskResult<Int>.failure(Coded(code: 1)) } == .failure(Coded(code: 1)))
    #expect((try? Result(success).get()) == 1)
  }

  @Test func failuresOfANonEquatableTypeAreReported() {
    withKnownIssue {
      #expect(TaskResult<Int>.failure(Unequal()) != .failure(Unequal()))
    } matching: { issue in
      message(of: issue).hasPrefix("\"") && message(of: issue).contains("is not equatable.")
    }
  }

  @Test func taskResultsAreCasePathable() {
    let result = TaskResult<Int>.success(3)
    #expect(result[case: \.success] == 3)
    #expect(result[case: \.failure] == nil)
  }
}

struct LegacySharingTests {
  struct Flag: PersistenceKey, Hashable {
    typealias Value = Bool
    func load(context: LoadContext<Bool>, continuation: LoadContinuation<Bool>) {
      continuation.resume(returning: true)
    }
    func subscribe(context: LoadContext<Bool>, subscriber: SharedSubscriber<Bool>)
      -> SharedSubscription
    { SharedSubscription {} }
    func save(_ value: Bool, context: SaveContext, continuation: SaveContinuation) {
      continuation.resume()
    }
  }

  @Test func oldSpellingsStillWork() {
    let count = Shared(0)
    count.withLock { $0 += 1 }
    #expect(count.reader.wrappedValue == 1)
    #expect(SharedReader.constant(1) == count.reader)
    @Shared(Flag()) var flag = false
    #expect(flag, "a key written against the old protocol name loads")
  }
}
