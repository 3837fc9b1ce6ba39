import ComposableArchitecture
import Testing

// Three `@Reducer` enums beside a struct feature, in a private namespace: Swift 6.3.1 crashed
// (signal 11) type-checking such a file while the generated `State` got its observability from
// `@ObservableState`'s conformance extension. `@Reducer` now writes it into the enum itself.
private enum Namespace {
  @Reducer struct Feature {
    struct State {}
    enum Action {}
    var body: some ReducerOf<Self> { EmptyReducer() }
  }
  @Reducer enum Destination { case feature(Feature) }
  @Reducer public enum Dialog { case alert(AlertState<Never>) }
  @Reducer public enum Nothing {}
}

@MainActor
struct ReducerEnumStateTests {
  @Test func aGeneratedEnumStateIsObservableByCase() {
    var state = Namespace.Destination.State.feature(.init())
    // A payload that is not observable has no identity of its own: every read is a change.
    #expect(state._$id != state._$id)
    state._$willModify()
    let alert = Namespace.Dialog.State.alert(AlertState { TextState("Hi") })
    #expect(alert._$id != state._$id)
    #expect((state as Any) is any ObservableState)
    #expect((alert as Any) is any Observable)
  }

  @Test func aFeatureCaseOfAGeneratedEnumIsScoped() {
    let store = Store(initialState: Namespace.Destination.State.feature(.init())) {
      Namespace.Destination.body
    }
    guard case .feature = store.case else {
      Issue.record("expected the feature's case")
      return
    }
  }
}
