/// Makes a type a ``Reducer`` and its `Action` enum `@CasePathable`.
///
/// ```swift
/// @Reducer
/// struct Counter {
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///   var body: some ReducerOf<Self> { … }
/// }
/// // `\.incrementButtonTapped` is now a case key path of `Counter.Action`.
/// ```
///
/// On an enum whose cases hold features, it writes the reducer of "one of these features":
/// `State` and `Action` enums with a case per feature, a `body` that runs the current case's
/// reducer, and the `CaseScope` that ``Store/case`` returns (see ``CaseReducer``).
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case detail(EpisodeDetail)
///   case confirmRemoval(ConfirmationDialogState<ConfirmRemoval>)
///   enum ConfirmRemoval { case remove }
/// }
/// extension Destination.State: Equatable {}
/// ```
@attached(
  member, names: named(State), named(Action), named(body), named(CaseScope), named(scope))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerMacro")

/// `@Reducer` with conformances for the `State` and `Action` that a `@Reducer enum` writes:
/// `@Reducer(state: .equatable, action: .equatable, .sendable)`. TCA deprecates it in favour of
/// extensions (`extension Destination.State: Equatable {}`), and so do we; a `@Reducer struct`
/// declares its own types and ignores the arguments.
@attached(
  member, names: named(State), named(Action), named(body), named(CaseScope), named(scope))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
@available(*, deprecated, message: "Define your conformance using an extension, instead")
public macro Reducer(state: _SynthesizedConformance..., action: _SynthesizedConformance...) =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerMacro")

/// A protocol that `@Reducer(state:action:)` synthesizes on the `State` or `Action` it writes.
@available(*, deprecated, message: "Define your conformance using an extension, instead")
public struct _SynthesizedConformance: Sendable {}

@available(*, deprecated, message: "Define your conformance using an extension, instead")
extension _SynthesizedConformance {
  public static let codable = Self()
  public static let decodable = Self()
  public static let encodable = Self()
  public static let equatable = Self()
  public static let hashable = Self()
  public static let sendable = Self()
}

/// Makes state observable with the Observation module: each stored `var` reports its reads
/// and writes, so `withObservationTracking` sees exactly the fields a front end read. Also
/// accepted on enum states, whose identity is their case and payload.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   var count = 0
///   @Presents var alert: AlertState<Action.Alert>?
/// }
/// ```
@attached(
  extension, conformances: Observable, ObservableState, RecordDecodable, _RecordPatchable,
  names: named(init), named(_$patch))
@attached(
  member, names: named(_$id), named(_$observationRegistrar), named(_$willModify),
  named(_$fieldName), named(_$recordedBinding))
@attached(memberAttribute)
public macro ObservableState() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ObservableStateMacro")

/// Gives a stored property of an ``ObservableState()`` state accessors that report its reads and
/// writes. Added by `@ObservableState`; features do not write it.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro ObservationStateTracked() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ObservationStateTrackedMacro")

/// Excludes a property of an ``ObservableState()`` state from observation.
@attached(accessor, names: named(willSet))
public macro ObservationStateIgnored() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ObservationStateIgnoredMacro")

/// Wraps an optional property of an ``ObservableState()`` state in ``PresentationState`` and
/// observes it: `destination` is the presented value, `$destination` the presentation, which
/// `ifLet(\.$destination, action: \.destination)` integrates.
///
/// ```swift
/// @ObservableState
/// struct State {
///   @Presents var destination: Destination.State?
/// }
/// ```
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(`$`), prefixed(_))
public macro Presents() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "PresentsMacro")

/// Gives an enum a table from its case key paths to its typed case paths (see
/// ``_CasePathResolving``). `@Reducer` adds it to `Action` and enum `State`; features do not
/// write it.
@attached(member, names: named(_$casePath))
@attached(extension, conformances: _CasePathResolving)
public macro _CasePathResolving() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "CasePathResolvingMacro")

/// Marks a case of a `@Reducer enum` whose state is ephemeral: an alert or a confirmation
/// dialog, which has no reducer and goes away after one action. `AlertState` and
/// `ConfirmationDialogState` cases are treated so without it.
@attached(peer, names: named(_))
public macro ReducerCaseEphemeral() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerCaseEphemeralMacro")

/// Marks a case of a `@Reducer enum` that holds plain data instead of a feature: its state is the
/// payload itself and it has no actions.
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case detail(EpisodeDetail)
///   @ReducerCaseIgnored
///   case note(String)
/// }
/// ```
@attached(peer, names: named(_))
public macro ReducerCaseIgnored() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerCaseIgnoredMacro")

/// Lets a replay build the enum or struct again from a recorded session (see
/// ``RecordDecodable``): a feature's `State` and `Action`, and a type in an action that is
/// neither `Decodable` nor a payload-free `CaseIterable` enum. A struct also gets
/// `_RecordPatchable`, so a recorded change is made in it field by field. (A `@Reducer enum`'s
/// `State` and `Action` have it already.)
///
/// ```swift
/// @RecordDecodable
/// public enum Removal: Equatable, Sendable { case remove(id: Counter.State.ID) }
/// ```
@attached(
  extension, conformances: RecordDecodable, _RecordPatchable, names: named(init), named(_$patch))
@attached(member, names: named(init))
public macro RecordDecodable() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "RecordDecodableMacro")
