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
