import ComposableArchitectureMacros
import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing

/// Every macro of the runtime, under the name a feature writes and with the conformances its
/// declaration lists, so that an expansion shows what the compiler adds.
let runtimeMacros: [String: MacroSpec] = [
  "Reducer": MacroSpec(type: ReducerMacro.self, conformances: ["Reducer", "CaseReducer"]),
  "_CasePathResolving": MacroSpec(
    type: CasePathResolvingMacro.self, conformances: ["_CasePathResolving"]),
  "ObservableState": MacroSpec(
    type: ObservableStateMacro.self,
    conformances: ["Observable", "ObservableState", "RecordDecodable", "_RecordPatchable"]),
  "ObservationStateTracked": MacroSpec(type: ObservationStateTrackedMacro.self),
  "ObservationStateIgnored": MacroSpec(type: ObservationStateIgnoredMacro.self),
  "Presents": MacroSpec(type: PresentsMacro.self),
  "ReducerCaseEphemeral": MacroSpec(type: ReducerCaseEphemeralMacro.self),
  "ReducerCaseIgnored": MacroSpec(type: ReducerCaseIgnoredMacro.self),
  "RecordDecodable": MacroSpec(
    type: RecordDecodableMacro.self, conformances: ["RecordDecodable", "_RecordPatchable"]),
]

/// What `@Reducer` writes: `Action` (and an enum `State`) made case-pathable with the runtime's
/// typed case paths, `body` built with `ReducerBuilder`, and the `Reducer` conformance.
@Suite(.macros(runtimeMacros, record: .missing))
struct ReducerMacroTests {
  @Test func aStructFeature() {
    assertMacro {
      """
      @Reducer
      struct Counter {
        struct State: Equatable {
          var count = 0
        }
        enum Action {
          case incrementButtonTapped
          case child(Child.Action)
        }
        var body: some ReducerOf<Self> {
          Reduce { state, action in .none }
        }
      }
      """
    } expansion: {
      """
      struct Counter {
        @ComposableArchitecture.RecordDecodable
        struct State: Equatable {
          var count = 0
        }
        @CasePaths.CasePathable @ComposableArchitecture._CasePathResolving @ComposableArchitecture.RecordDecodable
        enum Action {
          case incrementButtonTapped
          case child(Child.Action)
        }
        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          Reduce { state, action in .none }
        }
      }

      extension Counter: ComposableArchitecture.Reducer {
      }
      """
    }
  }

  /// A feature that already says what it conforms to, with an observable state: nothing is
  /// written twice.
  @Test func aFeatureWithObservableStateAndItsOwnConformance() {
    assertMacro {
      """
      @Reducer
      struct Settings: Reducer {
        @ObservableState
        struct State {
          var name = ""
        }
        enum Action: BindableAction {
          case binding(BindingAction<State>)
        }
        var body: some ReducerOf<Self> {
          BindingReducer()
        }
      }
      """
    } expansion: {
      #"""
      struct Settings: Reducer {
        struct State {
          @ComposableArchitecture.ObservationStateTracked
          var name = ""

          public static func _$fieldName(of keyPath: AnyKeyPath) -> String? {
            if keyPath == \Self.name as AnyKeyPath {
              return "name"
            }
            return nil
          }

          public static func _$recordedBinding(
            _ field: String, _ value: ComposableArchitecture.RecordedValue
          ) throws -> Any {
            switch field {
            case "name":
              return try ComposableArchitecture.RecordDecoding.binding(\Self.name, value)
            default:
              throw ComposableArchitecture.RecordDecodingError("\(ComposableArchitecture.RecordedValue.typeName(of: Self.self)) has no field \(field) that a binding can set")
            }
          }

          var _$observationRegistrar = ComposableArchitecture.ObservationStateRegistrar()

          public var _$id: ComposableArchitecture.ObservableStateID {
            _$observationRegistrar.id
          }

          public mutating func _$willModify() {
            _$observationRegistrar._$willModify()
          }
        }
        @CasePaths.CasePathable @ComposableArchitecture._CasePathResolving @ComposableArchitecture.RecordDecodable
        enum Action: BindableAction {
          case binding(BindingAction<State>)
        }
        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          BindingReducer()
        }
      }

      extension Settings.State: ComposableArchitecture.ObservableState, Observation.Observable {
      }

      extension Settings.State: ComposableArchitecture.RecordDecodable, ComposableArchitecture._RecordPatchable {
        init(_$recorded value: ComposableArchitecture.RecordedValue) throws {
        let fields = try ComposableArchitecture.RecordDecoding.fields(of: value, type: "Settings.State")
        _ = fields
        self.name = try ComposableArchitecture.RecordDecoding.field("name", in: fields, default: "")
        }

        mutating func _$patch(
          _ path: ArraySlice<ComposableArchitecture.RecordedChange.Component>,
          _ value: ComposableArchitecture.RecordedValue
        ) throws {
          guard let first = path.first else {
            self = try Self(_$recorded: value)
            return
          }
          guard case .field(let field) = first else {
            throw ComposableArchitecture.RecordDecodingError("Settings.State has fields, not elements")
          }
          try ComposableArchitecture.RecordDecoding.at(field) {
            switch field {
            case "name":
            try ComposableArchitecture.RecordDecoding.patch(&self.name, path.dropFirst(), value)
            default:
            throw ComposableArchitecture.RecordDecodingError("Settings.State has no field \(field)")
            }
          }
        }
      }
      """#
    }
  }
}

/// What `@Reducer enum` writes: a `State` and an `Action` enum with a case per feature (the form
/// the compiler-crash workaround spells out instead of nested macros), the case paths of both,
/// and the body that runs the feature of the current case.
@Suite(.macros(runtimeMacros, record: .missing))
struct EnumReducerMacroTests {
  @Test func destinationsWithAnAlertAndPlainData() {
    assertMacro {
      """
      @Reducer
      enum Destination {
        case detail(EpisodeDetail)
        case alert(AlertState<Alert>)
        @ReducerCaseIgnored
        case note(String)
      }
      """
    } expansion: {
      #"""
      enum Destination {
        case detail(EpisodeDetail)
        case alert(AlertState<Alert>)
        case note(String)

        @dynamicMemberLookup
        enum State: ComposableArchitecture.CaseReducerState, ComposableArchitecture.RecordDecodable, ComposableArchitecture.ObservableState, Observation.Observable, CasePaths.CasePathable, CasePaths.CasePathIterable {
          typealias StateReducer = Destination
          case detail(EpisodeDetail.State)
          case alert(AlertState<Alert>)
          case note(String)
          public var _$id: ComposableArchitecture.ObservableStateID {
            switch self {
            case let .detail(state):
            return ._$id(for: state)._$tag(0)
          case let .alert(state):
            return ._$id(for: state)._$tag(1)
          case let .note(state):
            return ._$id(for: state)._$tag(2)
            }
          }
          public mutating func _$willModify() {
            switch self {
            case var .detail(state):
            ComposableArchitecture._$willModify(&state)
            self = .detail(state)
          case var .alert(state):
            ComposableArchitecture._$willModify(&state)
            self = .alert(state)
          case var .note(state):
            ComposableArchitecture._$willModify(&state)
            self = .note(state)
            }
          }
          init(_$recorded value: ComposableArchitecture.RecordedValue) throws {
            let (name, payload) = try ComposableArchitecture.RecordDecoding.enumCase(of: value, type: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
          _ = payload
          switch name {
          case "detail":
            self = .detail(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "detail"))
          case "alert":
            self = .alert(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "alert"))
          case "note":
            self = .note(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "note"))
          default:
            throw ComposableArchitecture.RecordDecoding.unknownCase(name, of: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
          }
          }
          public struct AllCasePaths: CasePaths.CasePathReflectable, Swift.Sendable, Swift.Sequence {
            public subscript(root: State) -> CasePaths.PartialCaseKeyPath<State> {
              if root.is(\.detail) {
              return \.detail
            }
            if root.is(\.alert) {
              return \.alert
            }
            if root.is(\.note) {
              return \.note
            }
              return \.never
            }
            public var detail: CasePaths.AnyCasePath<State, EpisodeDetail.State> {
            ._$embed(State.detail) {
              guard case let .detail(v0) = $0 else {
              return nil
            }
              return v0
            }
          }
          public var alert: CasePaths.AnyCasePath<State, AlertState<Alert>> {
            ._$embed(State.alert) {
              guard case let .alert(v0) = $0 else {
              return nil
            }
              return v0
            }
          }
          public var note: CasePaths.AnyCasePath<State, String> {
            ._$embed(State.note) {
              guard case let .note(v0) = $0 else {
              return nil
            }
              return v0
            }
          }
            public func makeIterator() -> Swift.IndexingIterator<[CasePaths.PartialCaseKeyPath<State>]> {
              var allCasePaths: [CasePaths.PartialCaseKeyPath<State>] = []
              allCasePaths.append(\.detail)
            allCasePaths.append(\.alert)
            allCasePaths.append(\.note)
              return allCasePaths.makeIterator()
            }
          }
          public static var allCasePaths: AllCasePaths {
            AllCasePaths()
          }
        }

        enum Action: ComposableArchitecture.RecordDecodable, CasePaths.CasePathable, CasePaths.CasePathIterable {
          case detail(EpisodeDetail.Action)
          case alert(AlertState<Alert>.Action)
          case note(Swift.Never)
          init(_$recorded value: ComposableArchitecture.RecordedValue) throws {
            let (name, payload) = try ComposableArchitecture.RecordDecoding.enumCase(of: value, type: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
            _ = payload
            switch name {
            case "detail":
              self = .detail(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "detail"))
            case "alert":
              self = .alert(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "alert"))
            case "note":
              throw ComposableArchitecture.RecordDecodingError("\(ComposableArchitecture.RecordedValue.typeName(of: Self.self)).note has no value")
            default:
              throw ComposableArchitecture.RecordDecoding.unknownCase(name, of: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
            }
          }
          public struct AllCasePaths: CasePaths.CasePathReflectable, Swift.Sendable, Swift.Sequence {
            public subscript(root: Action) -> CasePaths.PartialCaseKeyPath<Action> {
              if root.is(\.detail) {
                return \.detail
              }
              if root.is(\.alert) {
                return \.alert
              }
              if root.is(\.note) {
                return \.note
              }
              return \.never
            }
            public var detail: CasePaths.AnyCasePath<Action, EpisodeDetail.Action> {
            ._$embed(Action.detail) {
              guard case let .detail(v0) = $0 else {
                return nil
              }
              return v0
            }
            }
            public var alert: CasePaths.AnyCasePath<Action, AlertState<Alert>.Action> {
              ._$embed(Action.alert) {
                guard case let .alert(v0) = $0 else {
                return nil
              }
                return v0
              }
            }
            public var note: CasePaths.AnyCasePath<Action, Swift.Never> {
              ._$embed(Action.note) {
                guard case let .note(v0) = $0 else {
                return nil
              }
                return v0
              }
            }
            public func makeIterator() -> Swift.IndexingIterator<[CasePaths.PartialCaseKeyPath<Action>]> {
              var allCasePaths: [CasePaths.PartialCaseKeyPath<Action>] = []
              allCasePaths.append(\.detail)
              allCasePaths.append(\.alert)
              allCasePaths.append(\.note)
              return allCasePaths.makeIterator()
            }
          }
          public static var allCasePaths: AllCasePaths {
            AllCasePaths()
          }
        }

        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        static var body: some ComposableArchitecture.Reducer<Self.State, Self.Action> {
          ComposableArchitecture.Scope(_caseState: \Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
            EpisodeDetail()
          }
        }

        enum CaseScope {
          case detail(ComposableArchitecture.StoreOf<EpisodeDetail>)
          case alert(AlertState<Alert>)
          case note(String)
        }

        @MainActor
        static func scope(
          _ store: ComposableArchitecture.Store<Self.State, Self.Action>
        ) -> CaseScope {
          switch store.state {
          case .detail:
            return .detail(store.scope(state: \.detail, action: \.detail)!)
          case let .alert(v0):
            return .alert(v0)
          case let .note(v0):
            return .note(v0)
          }
        }
      }

      extension Destination: ComposableArchitecture.CaseReducer, ComposableArchitecture.Reducer {
      }
      """#
    }
  }

  @Test func aStackOfScreens() {
    assertMacro {
      """
      @Reducer
      enum Path {
        case detail(EpisodeDetail)
        case settings(Settings)
      }
      """
    } expansion: {
      #"""
      enum Path {
        case detail(EpisodeDetail)
        case settings(Settings)

        @dynamicMemberLookup
        enum State: ComposableArchitecture.CaseReducerState, ComposableArchitecture.RecordDecodable, ComposableArchitecture.ObservableState, Observation.Observable, CasePaths.CasePathable, CasePaths.CasePathIterable {
          typealias StateReducer = Path
          case detail(EpisodeDetail.State)
          case settings(Settings.State)
          public var _$id: ComposableArchitecture.ObservableStateID {
            switch self {
            case let .detail(state):
            return ._$id(for: state)._$tag(0)
          case let .settings(state):
            return ._$id(for: state)._$tag(1)
            }
          }
          public mutating func _$willModify() {
            switch self {
            case var .detail(state):
            ComposableArchitecture._$willModify(&state)
            self = .detail(state)
          case var .settings(state):
            ComposableArchitecture._$willModify(&state)
            self = .settings(state)
            }
          }
          init(_$recorded value: ComposableArchitecture.RecordedValue) throws {
            let (name, payload) = try ComposableArchitecture.RecordDecoding.enumCase(of: value, type: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
          _ = payload
          switch name {
          case "detail":
            self = .detail(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "detail"))
          case "settings":
            self = .settings(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "settings"))
          default:
            throw ComposableArchitecture.RecordDecoding.unknownCase(name, of: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
          }
          }
          public struct AllCasePaths: CasePaths.CasePathReflectable, Swift.Sendable, Swift.Sequence {
            public subscript(root: State) -> CasePaths.PartialCaseKeyPath<State> {
              if root.is(\.detail) {
              return \.detail
            }
            if root.is(\.settings) {
              return \.settings
            }
              return \.never
            }
            public var detail: CasePaths.AnyCasePath<State, EpisodeDetail.State> {
            ._$embed(State.detail) {
              guard case let .detail(v0) = $0 else {
              return nil
            }
              return v0
            }
          }
          public var settings: CasePaths.AnyCasePath<State, Settings.State> {
            ._$embed(State.settings) {
              guard case let .settings(v0) = $0 else {
              return nil
            }
              return v0
            }
          }
            public func makeIterator() -> Swift.IndexingIterator<[CasePaths.PartialCaseKeyPath<State>]> {
              var allCasePaths: [CasePaths.PartialCaseKeyPath<State>] = []
              allCasePaths.append(\.detail)
            allCasePaths.append(\.settings)
              return allCasePaths.makeIterator()
            }
          }
          public static var allCasePaths: AllCasePaths {
            AllCasePaths()
          }
        }

        enum Action: ComposableArchitecture.RecordDecodable, CasePaths.CasePathable, CasePaths.CasePathIterable {
          case detail(EpisodeDetail.Action)
          case settings(Settings.Action)
          init(_$recorded value: ComposableArchitecture.RecordedValue) throws {
            let (name, payload) = try ComposableArchitecture.RecordDecoding.enumCase(of: value, type: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
            _ = payload
            switch name {
            case "detail":
              self = .detail(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "detail"))
            case "settings":
              self = .settings(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "settings"))
            default:
              throw ComposableArchitecture.RecordDecoding.unknownCase(name, of: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
            }
          }
          public struct AllCasePaths: CasePaths.CasePathReflectable, Swift.Sendable, Swift.Sequence {
            public subscript(root: Action) -> CasePaths.PartialCaseKeyPath<Action> {
              if root.is(\.detail) {
                return \.detail
              }
              if root.is(\.settings) {
                return \.settings
              }
              return \.never
            }
            public var detail: CasePaths.AnyCasePath<Action, EpisodeDetail.Action> {
            ._$embed(Action.detail) {
              guard case let .detail(v0) = $0 else {
                return nil
              }
              return v0
            }
            }
            public var settings: CasePaths.AnyCasePath<Action, Settings.Action> {
              ._$embed(Action.settings) {
                guard case let .settings(v0) = $0 else {
                return nil
              }
                return v0
              }
            }
            public func makeIterator() -> Swift.IndexingIterator<[CasePaths.PartialCaseKeyPath<Action>]> {
              var allCasePaths: [CasePaths.PartialCaseKeyPath<Action>] = []
              allCasePaths.append(\.detail)
              allCasePaths.append(\.settings)
              return allCasePaths.makeIterator()
            }
          }
          public static var allCasePaths: AllCasePaths {
            AllCasePaths()
          }
        }

        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        static var body: some ComposableArchitecture.Reducer<Self.State, Self.Action> {
          ComposableArchitecture.Scope(_caseState: \Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
            EpisodeDetail()
          }
          ComposableArchitecture.Scope(_caseState: \Self.State.Cases.settings, action: \Self.Action.Cases.settings) {
            Settings()
          }
        }

        enum CaseScope {
          case detail(ComposableArchitecture.StoreOf<EpisodeDetail>)
          case settings(ComposableArchitecture.StoreOf<Settings>)
        }

        @MainActor
        static func scope(
          _ store: ComposableArchitecture.Store<Self.State, Self.Action>
        ) -> CaseScope {
          switch store.state {
          case .detail:
            return .detail(store.scope(state: \.detail, action: \.detail)!)
          case .settings:
            return .settings(store.scope(state: \.settings, action: \.settings)!)
          }
        }
      }

      extension Path: ComposableArchitecture.CaseReducer, ComposableArchitecture.Reducer {
      }
      """#
    }
  }
}

/// What `@ObservableState` writes: an identity, tracked accessors for stored properties, and
/// `@Presents` for a presented child.
@Suite(.macros(runtimeMacros, record: .missing))
struct ObservableStateMacroTests {
  @Test func storedPropertiesAreTrackedConstantsAndIgnoredOnesAreNot() {
    assertMacro {
      """
      @ObservableState
      struct State {
        var count = 0
        let id: Int
        @ObservationStateIgnored
        var scratch = 0
        @Presents var destination: Destination.State?
      }
      """
    } expansion: {
      #"""
      struct State {
        @ComposableArchitecture.ObservationStateTracked
        var count = 0
        let id: Int
        var scratch = 0
        var destination: Destination.State? {
          @storageRestrictions(initializes: _destination)
          init(initialValue) {
            _destination = ComposableArchitecture.PresentationState(wrappedValue: initialValue)
          }
          get {
            _$observationRegistrar.access(self, keyPath: \.destination)
            return _destination.wrappedValue
          }
          set {
            _$observationRegistrar.mutate(
              self, keyPath: \.destination, &_destination.wrappedValue, newValue, _$isIdentityEqual)
          }
        }

        var $destination: ComposableArchitecture.PresentationState<Destination.State> {
          get {
            _$observationRegistrar.access(self, keyPath: \.destination)
            return _destination.projectedValue
          }
          set {
            _$observationRegistrar.mutate(
              self, keyPath: \.destination, &_destination.projectedValue, newValue,
              _$isIdentityEqual)
          }
        }

        @ComposableArchitecture.ObservationStateIgnored private var _destination = ComposableArchitecture.PresentationState<Destination.State>(wrappedValue: nil)

        public static func _$fieldName(of keyPath: AnyKeyPath) -> String? {
          if keyPath == \Self.count as AnyKeyPath {
            return "count"
          }
          return nil
        }

        public static func _$recordedBinding(
          _ field: String, _ value: ComposableArchitecture.RecordedValue
        ) throws -> Any {
          switch field {
          case "count":
            return try ComposableArchitecture.RecordDecoding.binding(\Self.count, value)
          default:
            throw ComposableArchitecture.RecordDecodingError("\(ComposableArchitecture.RecordedValue.typeName(of: Self.self)) has no field \(field) that a binding can set")
          }
        }

        var _$observationRegistrar = ComposableArchitecture.ObservationStateRegistrar()

        public var _$id: ComposableArchitecture.ObservableStateID {
          _$observationRegistrar.id
        }

        public mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }
      }

      extension State: ComposableArchitecture.ObservableState, Observation.Observable {
      }

      extension State: ComposableArchitecture.RecordDecodable, ComposableArchitecture._RecordPatchable {
        init(_$recorded value: ComposableArchitecture.RecordedValue) throws {
        let fields = try ComposableArchitecture.RecordDecoding.fields(of: value, type: "State")
        _ = fields
        self.count = try ComposableArchitecture.RecordDecoding.field("count", in: fields, default: 0)
        self.id = try ComposableArchitecture.RecordDecoding.field("id", in: fields)
        self.scratch = try ComposableArchitecture.RecordDecoding.field("scratch", in: fields, default: 0)
        self.destination = try ComposableArchitecture.RecordDecoding.field("destination", in: fields)
        }

        mutating func _$patch(
          _ path: ArraySlice<ComposableArchitecture.RecordedChange.Component>,
          _ value: ComposableArchitecture.RecordedValue
        ) throws {
          guard let first = path.first else {
            self = try Self(_$recorded: value)
            return
          }
          guard case .field(let field) = first else {
            throw ComposableArchitecture.RecordDecodingError("State has fields, not elements")
          }
          try ComposableArchitecture.RecordDecoding.at(field) {
            switch field {
            case "count":
            try ComposableArchitecture.RecordDecoding.patch(&self.count, path.dropFirst(), value)
          case "id":
            throw ComposableArchitecture.RecordDecodingError("id is a constant")
          case "scratch":
            try ComposableArchitecture.RecordDecoding.patch(&self.scratch, path.dropFirst(), value)
          case "destination":
            try ComposableArchitecture.RecordDecoding.patch(&self.destination, path.dropFirst(), value)
            default:
            throw ComposableArchitecture.RecordDecodingError("State has no field \(field)")
            }
          }
        }
      }
      """#
    }
  }

  @Test func anEnumState() {
    assertMacro {
      """
      @ObservableState
      enum State {
        case loading
        case loaded(Detail.State)
      }
      """
    } expansion: {
      """
      enum State {
        case loading
        case loaded(Detail.State)

        public var _$id: ComposableArchitecture.ObservableStateID {
          switch self {
          case .loading:
            return ._$inert._$tag(0)
          case let .loaded(state):
            return ._$id(for: state)._$tag(1)
          }
        }

        public mutating func _$willModify() {
          switch self {
          case .loading:
            break
          case var .loaded(state):
            ComposableArchitecture._$willModify(&state)
            self = .loaded(state)
          }
        }
      }

      extension State: ComposableArchitecture.ObservableState, Observation.Observable {
      }
      """
    }
  }
}

/// Which key path a tracked field's accessors report with: a literal where the state's type is
/// not generic, which the compiler makes once, and otherwise one made once per type by the
/// runtime, since a generic key path literal is built again at every evaluation.
@Suite(.macros(runtimeMacros, record: .missing))
struct TrackedKeyPathMacroTests {
  @Test func aPlainStateUsesTheLiteral() {
    assertMacro {
      """
      struct State {
        @ObservationStateTracked var count = 0
      }
      """
    } expansion: {
      #"""
      struct State {
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            _$observationRegistrar.access(self, keyPath: \.count)
            return _count
          }
          set {
            _$observationRegistrar.mutate(
              self, keyPath: \.count, &_count, newValue, _$isIdentityEqual,
              _$shouldNotifyObservers)
          }
          _modify {
            let oldValue = _$observationRegistrar.willModify(self, keyPath: \.count, &_count)
            defer {
              _$observationRegistrar.didModify(
                self, keyPath: \.count, &_count, oldValue, _$isIdentityEqual)
            }
            yield &_count
          }
        }

        @ComposableArchitecture.ObservationStateIgnored private var _count = 0
      }
      """#
    }
  }

  @Test func aGenericStateUsesTheRuntimesKeyPath() {
    assertMacro {
      """
      struct FavoriteState<ID: Hashable> {
        @ObservationStateTracked var saving: Bool?
        @Presents var alert: AlertState<Never>?
      }
      """
    } expansion: {
      #"""
      struct FavoriteState<ID: Hashable> {
        var saving: Bool? {
          @storageRestrictions(initializes: _saving)
          init(initialValue) {
            _saving = initialValue
          }
          get {
            _$observationRegistrar.access(self, keyPath: ComposableArchitecture._$observableKeyPath("saving") {
                \Self.saving
              })
            return _saving
          }
          set {
            _$observationRegistrar.mutate(
              self, keyPath: ComposableArchitecture._$observableKeyPath("saving") {
                \Self.saving
              }, &_saving, newValue, _$isIdentityEqual,
              _$shouldNotifyObservers)
          }
          _modify {
            let oldValue = _$observationRegistrar.willModify(self, keyPath: ComposableArchitecture._$observableKeyPath("saving") {
                \Self.saving
              }, &_saving)
            defer {
              _$observationRegistrar.didModify(
                self, keyPath: ComposableArchitecture._$observableKeyPath("saving") {
                  \Self.saving
                }, &_saving, oldValue, _$isIdentityEqual)
            }
            yield &_saving
          }
        }

        @ComposableArchitecture.ObservationStateIgnored private var _saving: Bool?
        var alert: AlertState<Never>? {
          @storageRestrictions(initializes: _alert)
          init(initialValue) {
            _alert = ComposableArchitecture.PresentationState(wrappedValue: initialValue)
          }
          get {
            _$observationRegistrar.access(self, keyPath: ComposableArchitecture._$observableKeyPath("alert") {
                \Self.alert
              })
            return _alert.wrappedValue
          }
          set {
            _$observationRegistrar.mutate(
              self, keyPath: ComposableArchitecture._$observableKeyPath("alert") {
                \Self.alert
              }, &_alert.wrappedValue, newValue, _$isIdentityEqual)
          }
        }

        var $alert: ComposableArchitecture.PresentationState<AlertState<Never>> {
          get {
            _$observationRegistrar.access(self, keyPath: ComposableArchitecture._$observableKeyPath("alert") {
                \Self.alert
              })
            return _alert.projectedValue
          }
          set {
            _$observationRegistrar.mutate(
              self, keyPath: ComposableArchitecture._$observableKeyPath("alert") {
                \Self.alert
              }, &_alert.projectedValue, newValue,
              _$isIdentityEqual)
          }
        }

        @ComposableArchitecture.ObservationStateIgnored private var _alert = ComposableArchitecture.PresentationState<AlertState<Never>>(wrappedValue: nil)
      }
      """#
    }
  }

  @Test func aStateNestedInAGenericTypeUsesTheRuntimesKeyPath() {
    assertMacro {
      """
      struct Row<ID> {
        struct State {
          @ObservationStateTracked var count = 0
        }
      }
      """
    } expansion: {
      #"""
      struct Row<ID> {
        struct State {
          var count {
            @storageRestrictions(initializes: _count)
            init(initialValue) {
              _count = initialValue
            }
            get {
              _$observationRegistrar.access(self, keyPath: ComposableArchitecture._$observableKeyPath("count") {
                  \Self.count
                })
              return _count
            }
            set {
              _$observationRegistrar.mutate(
                self, keyPath: ComposableArchitecture._$observableKeyPath("count") {
                  \Self.count
                }, &_count, newValue, _$isIdentityEqual,
                _$shouldNotifyObservers)
            }
            _modify {
              let oldValue = _$observationRegistrar.willModify(self, keyPath: ComposableArchitecture._$observableKeyPath("count") {
                  \Self.count
                }, &_count)
              defer {
                _$observationRegistrar.didModify(
                  self, keyPath: ComposableArchitecture._$observableKeyPath("count") {
                    \Self.count
                  }, &_count, oldValue, _$isIdentityEqual)
              }
              yield &_count
            }
          }

          @ComposableArchitecture.ObservationStateIgnored private var _count = 0
        }
      }
      """#
    }
  }

  /// An extension's type may be generic, which its declaration does not show.
  @Test func aStateInAnExtensionUsesTheRuntimesKeyPath() {
    assertMacro {
      """
      extension Feature {
        struct State {
          @ObservationStateTracked var count = 0
        }
      }
      """
    } expansion: {
      #"""
      extension Feature {
        struct State {
          var count {
            @storageRestrictions(initializes: _count)
            init(initialValue) {
              _count = initialValue
            }
            get {
              _$observationRegistrar.access(self, keyPath: ComposableArchitecture._$observableKeyPath("count") {
                  \Self.count
                })
              return _count
            }
            set {
              _$observationRegistrar.mutate(
                self, keyPath: ComposableArchitecture._$observableKeyPath("count") {
                  \Self.count
                }, &_count, newValue, _$isIdentityEqual,
                _$shouldNotifyObservers)
            }
            _modify {
              let oldValue = _$observationRegistrar.willModify(self, keyPath: ComposableArchitecture._$observableKeyPath("count") {
                  \Self.count
                }, &_count)
              defer {
                _$observationRegistrar.didModify(
                  self, keyPath: ComposableArchitecture._$observableKeyPath("count") {
                    \Self.count
                  }, &_count, oldValue, _$isIdentityEqual)
              }
              yield &_count
            }
          }

          @ComposableArchitecture.ObservationStateIgnored private var _count = 0
        }
      }
      """#
    }
  }
}

/// What `@RecordDecodable` writes: the init a replay builds the value with from its recorded
/// form, and for a struct the field-by-field patch.
@Suite(.macros(runtimeMacros, record: .missing))
struct RecordDecodableMacroTests {
  @Test func aStruct() {
    assertMacro {
      """
      @RecordDecodable
      struct Removal: Equatable {
        var id: UUID
        let title: String
      }
      """
    } expansion: {
      #"""
      struct Removal: Equatable {
        var id: UUID
        let title: String
      }

      extension Removal: ComposableArchitecture.RecordDecodable, ComposableArchitecture._RecordPatchable {
        init(_$recorded value: ComposableArchitecture.RecordedValue) throws {
        let fields = try ComposableArchitecture.RecordDecoding.fields(of: value, type: "Removal")
        _ = fields
        self.id = try ComposableArchitecture.RecordDecoding.field("id", in: fields)
        self.title = try ComposableArchitecture.RecordDecoding.field("title", in: fields)
        }

        mutating func _$patch(
          _ path: ArraySlice<ComposableArchitecture.RecordedChange.Component>,
          _ value: ComposableArchitecture.RecordedValue
        ) throws {
          guard let first = path.first else {
            self = try Self(_$recorded: value)
            return
          }
          guard case .field(let field) = first else {
            throw ComposableArchitecture.RecordDecodingError("Removal has fields, not elements")
          }
          try ComposableArchitecture.RecordDecoding.at(field) {
            switch field {
            case "id":
            try ComposableArchitecture.RecordDecoding.patch(&self.id, path.dropFirst(), value)
          case "title":
            throw ComposableArchitecture.RecordDecodingError("title is a constant")
            default:
            throw ComposableArchitecture.RecordDecodingError("Removal has no field \(field)")
            }
          }
        }
      }
      """#
    }
  }

  @Test func anEnum() {
    assertMacro {
      """
      @RecordDecodable
      enum Choice: Equatable {
        case none
        case remove(id: UUID)
        case rename(UUID, String)
      }
      """
    } expansion: {
      #"""
      enum Choice: Equatable {
        case none
        case remove(id: UUID)
        case rename(UUID, String)

        init(_$recorded value: ComposableArchitecture.RecordedValue) throws {
          let (name, payload) = try ComposableArchitecture.RecordDecoding.enumCase(of: value, type: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
          _ = payload
          switch name {
          case "none":
            self = .none
          case "remove":
            self = .remove(id: try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "id", of: "remove"))
          case "rename":
            self = .rename(try ComposableArchitecture.RecordDecoding.payload(payload, 0, label: "", of: "rename"), try ComposableArchitecture.RecordDecoding.payload(payload, 1, label: "", of: "rename"))
          default:
            throw ComposableArchitecture.RecordDecoding.unknownCase(name, of: "\(ComposableArchitecture.RecordedValue.typeName(of: Self.self))")
          }
        }
      }

      extension Choice: ComposableArchitecture.RecordDecodable {

      }
      """#
    }
  }
}
