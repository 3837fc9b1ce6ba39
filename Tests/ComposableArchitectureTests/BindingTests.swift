import ComposableArchitecture
import Testing

@Reducer
struct Form {
  @ObservableState
  struct State: Equatable {
    var sliderValue = 5.0
    var stepCount = 10
    var text = ""
    var toggleIsOn = false
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case resetButtonTapped
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.stepCount):
        state.sliderValue = .minimum(state.sliderValue, Double(state.stepCount))
        return .none
      case .binding:
        return .none
      case .resetButtonTapped:
        state = State()
        return .none
      }
    }
  }
}

@MainActor
struct BindingTests {
  @Test func bindingActionsWriteFieldsAndLaterReducersSeeTheNewValue() async {
    let store = TestStore(initialState: Form.State()) { Form() }
    await store.send(\.binding.sliderValue, 2) { $0.sliderValue = 2 }
    await store.send(\.binding.stepCount, 1) {
      $0.sliderValue = 1
      $0.stepCount = 1
    }
    await store.send(\.binding.text, "Blob") { $0.text = "Blob" }
    await store.send(\.binding.toggleIsOn, true) { $0.toggleIsOn = true }
    await store.send(.resetButtonTapped) {
      $0 = Form.State(sliderValue: 5, stepCount: 10, text: "", toggleIsOn: false)
    }
  }

  @Test func setShortcutAndEquality() async {
    let store = TestStore(initialState: Form.State()) { Form() }
    await store.send(.set(\.text, "Hi")) { $0.text = "Hi" }
    #expect(Form.Action.set(\.text, "a") == .binding(.set(\.text, "a")))
    #expect(Form.Action.set(\.text, "a") != .binding(.set(\.text, "b")))
    #expect(Form.Action.set(\.stepCount, 1) != .binding(.set(\.text, "1")))
  }

  @Test func bindingPatternMatchesOnTheFieldOnly() {
    let action = BindingAction<Form.State>.set(\.stepCount, 3)
    switch action {
    case \.text: Issue.record("matched the wrong field")
    case \.stepCount: break
    default: Issue.record("did not match")
    }
    #expect(Form.Action.binding(action).binding == action)
    #expect(Form.Action.resetButtonTapped.binding == nil)
  }
}
