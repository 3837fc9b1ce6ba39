import AppWeb
import ComposableArchitecture
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing
import WebFrontend
import WebRoutes
import WebSessions

/// Every log line a request causes carries that request's id, the registry's included, so one
/// visitor's trouble can be followed through the log.
@MainActor
struct RequestLogTests {
  /// Keeps every record, for the test to read.
  final class Records: Sendable {
    struct Record: Sendable {
      var message: String
      var metadata: Logger.Metadata
    }
    let records = Mutex<[Record]>([])

    var all: [Record] { records.withLock { $0 } }

    func logger() -> Logger {
      Logger(label: "request-log-tests") { _ in Handler(records: self) }
    }

    struct Handler: LogHandler {
      let records: Records
      var metadata: Logger.Metadata = [:]
      var logLevel: Logger.Level = .info

      subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
      }

      func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        records.records.withLock {
          $0.append(Record(message: "\(event.message)", metadata: merged))
        }
      }
    }
  }

  @Test func theRegistrysLinesOfARequestCarryItsRequestID() async throws {
    let records = Records()
    let registry = SessionRegistry(app: .app, logger: records.logger()) {
      $0.uuid = .incrementing
      $0.favoriteClient = .inMemory()
      $0.settingsClient = .inMemory()
    }
    let application = WebServer.application(
      registry: registry, configuration: .init(port: 0, security: relaxedSecurity),
      logger: records.logger())
    try await application.test(.router) { client in
      let session = try await client.createSession()
      _ = try await client.call(.delete, "/api/session", session: session.id)
    }
    let created = try #require(records.all.first { $0.message == "Session created" })
    let ended = try #require(records.all.first { $0.message == "Session ended" })
    let createdID = try #require(created.metadata["hb.request.id"], "\(created.metadata)")
    let endedID = try #require(ended.metadata["hb.request.id"], "\(ended.metadata)")
    #expect(createdID.description != endedID.description, "each request has its own id")
  }
}
