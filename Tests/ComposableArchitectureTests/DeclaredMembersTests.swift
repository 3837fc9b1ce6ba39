import ComposableArchitecture
import Foundation
import Testing

// What a feature declares itself and the runtime must take as TCA does: an action whose view
// cases live in `case view(View)` (`ViewAction`), an enum of features with its own `Action`,
// and an enum of features with its own `body`.

/// A sign-in form whose view sends only `View` actions, bindings among them.
@Reducer
struct SignIn {
  @ObservableState
  struct State: Equatable {
    var email = ""
    var password = ""
    var isFormValid = false
    var isSubmitting = false
  }

  enum Action: Equatable, ViewAction {
    case signInResponse(Bool)
    case view(View)

    @CasePathable
    enum View: Equatable, BindableAction {
      case binding(BindingAction<State>)
      case submitTapped
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .view(.binding):
        state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
        return .none
      case .view(.submitTapped):
        state.isSubmitting = true
        return .send(.signInResponse(state.email.hasSuffix("@example.com")))
      case .signInResponse:
        state.isSubmitting = false
        return .none
      }
    }
  }
}

/// What a view of `SignIn` is, without the view: it holds the store and sends `View` actions.
@MainActor
struct SignInScreen: ViewActionSending {
  let store: StoreOf<SignIn>
}

/// An editor and an alert kept as data, with the action the enum declares for both: the alert's
/// buttons are the `alert` case's action.
@Reducer
struct Editor {
  @ObservableState
  struct State: Equatable { var title = "" }
  enum Action: Equatable { case titleChanged(String) }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .titleChanged(let title):
        state.title = title
        return .none
      }
    }
  }
}

@Reducer
enum Sheet {
  @ReducerCaseIgnored case alert(AlertState<Alert>)
  case edit(Editor)

  @CasePathable
  enum Action: Equatable {
    case alert(Alert)
    case edit(Editor.Action)
  }

  @CasePathable
  enum Alert: Equatable { case confirmDeletion }
}

extension Sheet.State: Equatable {}

@Reducer
struct Document {
  @ObservableState
  struct State: Equatable {
    @Presents var sheet: Sheet.State?
    var isDeleted = false
  }

  enum Action: Equatable {
    case deleteTapped
    case editTapped
    case sheet(PresentationAction<Sheet.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteTapped:
        state.sheet = .alert(
          AlertState {
            TextState("Delete?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
          })
        return .none
      case .editTapped:
        state.sheet = .edit(Editor.State())
        return .none
      case .sheet(.presented(.alert(.confirmDeletion))):
        state.isDeleted = true
        return .none
      case .sheet:
        return .none
      }
    }
    .ifLet(\.$sheet, action: \.sheet)
  }
}

/// An enum of features that writes its own `body`: signing in leads to the home screen.
@Reducer
struct Home {
  @ObservableState
  struct State: Equatable { var visits = 1 }
  enum Action: Equatable { case signOutTapped }
  var body: some ReducerOf<Self> { EmptyReducer() }
}

@Reducer
enum Flow {
  case signIn(SignIn)
  case home(Home)

  static var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .signIn(.signInResponse(true)):
        state = .home(Home.State())
        return .none
      case .home(.signOutTapped):
        state = .signIn(SignIn.State())
        return .none
      case .signIn, .home:
        return .none
      }
    }
    .ifCaseLet(\.signIn, action: \.signIn) { SignIn() }
    .ifCaseLet(\.home, action: \.home) { Home() }
  }
}

extension Flow.State: Equatable {}

@MainActor
@Suite struct DeclaredMembersTests {
  @Test func aViewActionFeatureSendsItsBindingsAndViewActionsByKeyPath() async {
    let store = TestStore(initialState: SignIn.State()) { SignIn() }
    await store.send(\.view.binding.email, "blob@example.com") {
      $0.email = "blob@example.com"
    }
    await store.send(\.view.binding.password, "secret") {
      $0.password = "secret"
      $0.isFormValid = true
    }
    await store.send(\.view.submitTapped) {
      $0.isSubmitting = true
    }
    await store.receive(\.signInResponse) {
      $0.isSubmitting = false
    }
  }

  @Test func aViewWritesFieldsAndSendsViewActionsThroughTheStore() {
    let store = Store(initialState: SignIn.State()) { SignIn() }
    store.email = "blob@example.com"
    store.password = "secret"
    #expect(store.state.email == "blob@example.com")
    #expect(store.state.isFormValid)
    let screen = SignInScreen(store: store)
    screen.send(.submitTapped)
    // The response came back at once and ended the submission.
    #expect(store.state.isSubmitting == false)
  }

  @Test func anEnumOfFeaturesKeepsTheActionItDeclares() async {
    let store = TestStore(initialState: Document.State()) { Document() }
    await store.send(.editTapped) {
      $0.sheet = .edit(Editor.State())
    }
    await store.send(\.sheet.edit.titleChanged, "Notes") {
      $0.sheet?.modify(\.edit) { $0.title = "Notes" }
    }
    await store.send(\.sheet.dismiss) {
      $0.sheet = nil
    }
    await store.send(.deleteTapped) {
      $0.sheet = .alert(
        AlertState {
          TextState("Delete?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
        })
    }
    await store.send(\.sheet.alert.confirmDeletion) {
      $0.sheet = nil
      $0.isDeleted = true
    }
  }

  @Test func aCaseKeptAsDataScopesToAStoreOfItsDeclaredAction() throws {
    let store = Store(initialState: Document.State()) { Document() }
    store.send(.deleteTapped)
    let sheet = try #require(store.scope(state: \.sheet, action: \.sheet.presented))
    guard case .alert(let alert) = Sheet.scope(sheet) else {
      Issue.record("the sheet is not the alert")
      return
    }
    #expect(alert.state.title == TextState("Delete?"))
    alert.send(.confirmDeletion)
    #expect(store.state.isDeleted)
    #expect(store.state.sheet == nil)
  }

  @Test func anEnumOfFeaturesRunsTheBodyItWrites() async {
    let store = TestStore(initialState: Flow.State.signIn(SignIn.State())) {
      Flow.body
    }
    await store.send(\.signIn.view.binding.email, "blob@example.com") {
      $0.modify(\.signIn) { $0.email = "blob@example.com" }
    }
    await store.send(\.signIn.view.submitTapped) {
      $0.modify(\.signIn) { $0.isSubmitting = true }
    }
    await store.receive(\.signIn.signInResponse) {
      $0 = .home(Home.State())
    }
    await store.send(\.home.signOutTapped) {
      $0 = .signIn(SignIn.State())
    }
  }
}
