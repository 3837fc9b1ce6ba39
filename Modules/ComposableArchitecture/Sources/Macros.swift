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
@attached(memberAttribute)
@attached(extension, conformances: Reducer)
public macro Reducer() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerMacro")

/// Marks state as observable by front ends (adds ``ObservableState`` conformance).
@attached(extension, conformances: ObservableState)
public macro ObservableState() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ObservableStateMacro")

/// Excludes a property of ``ObservableState()`` state from observation. Accepted for source
/// compatibility; observation here is store-level, so it changes nothing.
@attached(peer)
public macro ObservationStateIgnored() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "PassthroughMacro")

/// Gives an enum a table from its case key paths to its typed case paths (see
/// ``_CasePathResolving``). `@Reducer` adds it to `Action` and enum `State`; features do not
/// write it.
@attached(member, names: named(_$casePath))
@attached(extension, conformances: _CasePathResolving)
public macro _CasePathResolving() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "CasePathResolvingMacro")
