import Logging
import ServiceLifecycle

/// A service that expires idle sessions, puts those whose visitor is away to sleep and keeps
/// event streams alive, every `interval`, and
/// ends every session when the server shuts down.
///
/// Run it in the same `ServiceGroup` as the HTTP server, *after* the server in the list of
/// services: a group shuts its services down in reverse order, so the sessions (and their open
/// event streams, which would otherwise hold the server's graceful shutdown) end first.
public struct SessionSweeper: Service {
  package let registry: SessionRegistry
  package let interval: Duration
  package let logger: Logger

  /// Creates a sweeper of `registry`.
  public init(registry: SessionRegistry, interval: Duration = .seconds(15), logger: Logger) {
    self.registry = registry
    self.interval = interval
    self.logger = logger
  }

  public func run() async throws {
    await cancelWhenGracefulShutdown { [registry, interval] in
      while !Task.isCancelled {
        do {
          try await Task.sleep(for: interval)
        } catch {
          break
        }
        registry.expireIdleSessions()
        await registry.sleepIdleSessions()
        registry.sendKeepAlive()
        await registry.pruneSavedSessions()
      }
    }
    logger.info("Shutting down: saving and ending every session")
    await registry.saveAll()
    registry.endAll()
  }
}
