// `import ComposableArchitecture` is all a feature writes: the libraries the runtime builds on are
// re-exported, as the reference library does.
@_exported import CasePaths
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import DependenciesMacros
@_exported import IdentifiedCollections
@_exported import IssueReporting
@_exported import Observation
@_exported import Sharing

#if canImport(FoundationNetworking)
  // On Linux `URLSession`, `URLRequest` and `URLResponse` live in FoundationNetworking, not in
  // Foundation: a feature or a test written against the reference library on Apple's systems
  // reaches them without importing it, so it compiles here unedited.
  @_exported import FoundationNetworking
#endif
