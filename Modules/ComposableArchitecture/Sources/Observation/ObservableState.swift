/// State that front ends observe. The ``ObservableState()`` macro adds the conformance.
///
/// On this runtime observation goes through the store — ``Store/states`` and
/// ``Store/observe(_:)`` deliver every change as an `AsyncSequence` — so the conformance carries
/// no requirements: it marks the state types that a feature means to expose, and keeps reducers
/// written for SwiftUI compiling unchanged.
public protocol ObservableState {}
