import AppConfiguration
import ArgumentParser
import ComposableArchitecture
import Dependencies
import Foundation
import Logging
import Metrics
import Prometheus
import WebSessions

/// What the executable hands to the server: the root feature it serves, and the only place that
/// links implementations.
public struct ServerComposition: Sendable {
  /// The root feature every session runs, and its web API.
  public var app: WebApp
  /// The clients of the services: live ones configured by `settings`, or, when `offline`, the
  /// ones over embedded data. Called once, before the server listens.
  public var clients:
    @Sendable (_ configuration: ConfigurationReader, _ offline: Bool) throws ->
      DependencyOverrides
  /// Opens where visitors' data and sessions are kept; an error stops the server before it
  /// listens.
  public var openStorage:
    @Sendable (_ configuration: ConfigurationReader, _ logger: Logger) async throws -> ServerStorage

  public init(
    app: WebApp,
    clients:
      @escaping @Sendable (ConfigurationReader, Bool) throws -> DependencyOverrides,
    openStorage: @escaping @Sendable (ConfigurationReader, Logger) async throws -> ServerStorage
  ) {
    self.app = app
    self.clients = clients
    self.openStorage = openStorage
  }
}

/// The storage the server opened: visitors' favorites and settings, and saved sessions.
public struct ServerStorage: Sendable {
  /// What to log about it (a path, or a URL without its password).
  public var description: String
  /// A visitor's favorite and settings clients.
  public var visitorData: SessionRegistry.VisitorData
  /// Where sessions are saved so that they survive a restart.
  public var savedSessions: SavedSessions
  /// Closes it once the server has stopped.
  public var close: @Sendable () async -> Void

  public init(
    description: String, visitorData: @escaping SessionRegistry.VisitorData,
    savedSessions: SavedSessions, close: @escaping @Sendable () async -> Void
  ) {
    self.description = description
    self.visitorData = visitorData
    self.savedSessions = savedSessions
    self.close = close
  }
}
