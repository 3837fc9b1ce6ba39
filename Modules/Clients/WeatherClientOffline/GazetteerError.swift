import Foundation

/// Why the gazetteer of the offline weather client could not be loaded.
///
/// The bundled gazetteer is part of the build, so this means a broken build or a file edited by
/// hand; the message says which and what to do.
public struct GazetteerError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
  /// What went wrong.
  public enum Cause: Hashable, Sendable {
    /// The resource `gazetteer.tsv` is not in the module's bundle.
    case resourceMissing
    /// The file could not be read.
    case unreadable(detail: String)
    /// A line does not have the format `Tools/gazetteer/derive.py` writes.
    case malformedLine(number: Int, reason: String)
  }

  /// Where the gazetteer was read from: a file path, or `"bundled gazetteer.tsv"`.
  public var source: String
  /// What went wrong.
  public var cause: Cause

  /// Creates an error.
  public init(source: String, cause: Cause) {
    self.source = source
    self.cause = cause
  }

  /// The message, e.g. `Offline gazetteer (bundled gazetteer.tsv): line 12: expected 10
  /// tab-separated fields, found 9; regenerate it with python3 Tools/gazetteer/derive.py`.
  public var description: String {
    let prefix = "Offline gazetteer (\(source))"
    switch cause {
    case .resourceMissing:
      return "\(prefix): the resource gazetteer.tsv is missing from the WeatherClientOffline "
        + "bundle; check that Package.swift copies Resources/gazetteer.tsv and rebuild"
    case .unreadable(let detail):
      return "\(prefix): cannot be read (\(detail))"
    case .malformedLine(let number, let reason):
      return "\(prefix): line \(number): \(reason); regenerate it with "
        + "python3 Tools/gazetteer/derive.py"
    }
  }

  /// The same as ``description``.
  public var errorDescription: String? { description }
}
