import ComposableArchitecture
import Foundation

/// Where the interactive app keeps, between runs, the part of its state that `app-server` keeps
/// for a visitor's session: the counters (counts, facts, timers on or off) and the selected tab
/// (`AppFeature.KeptState`, as JSON). Favorites and settings are kept by their own clients.
///
/// The composition provides the live one (the local profile's row in the app's database);
/// without it nothing is kept, as for the one-shot commands.
public struct KeptAppClient: Sendable {
  /// The bytes saved last, if any; from then on this run holds them (a run started earlier
  /// that still saves is refused, so the newest run's counters are the ones kept).
  public var load: @Sendable () async throws -> Data?
  /// Saves the bytes; throws ``Superseded`` when a run started later holds them, or the
  /// storage's error.
  public var save: @Sendable (Data) async throws -> Void

  /// A run started later holds the kept counters: this run's are no longer saved.
  public struct Superseded: Error, Equatable {
    public init() {}
  }

  public init(
    load: @escaping @Sendable () async throws -> Data?,
    save: @escaping @Sendable (Data) async throws -> Void
  ) {
    self.load = load
    self.save = save
  }

  /// Keeps nothing: every run starts with the initial counters.
  public static let nothing = KeptAppClient(load: { nil }, save: { _ in })
}

extension KeptAppClient: DependencyKey {
  public static let liveValue = KeptAppClient.nothing
  public static let testValue = KeptAppClient.nothing
}

extension DependencyValues {
  /// Where the interactive app keeps its counters and tab between runs.
  public var keptApp: KeptAppClient {
    get { self[KeptAppClient.self] }
    set { self[KeptAppClient.self] = newValue }
  }
}
