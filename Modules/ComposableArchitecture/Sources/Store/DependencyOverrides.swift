import Dependencies

/// Changes to the dependencies of a store, as a front end takes them from the executable that
/// composes it: `{ $0.factClient = .offline() }`. Both front ends and their previews configure
/// every store they make with one of these (`withDependencies:` of `Store` and `StoreActor`).
///
/// Not part of TCA's API: a name for the closure type this project's front ends share.
public typealias DependencyOverrides = @Sendable (inout DependencyValues) -> Void
