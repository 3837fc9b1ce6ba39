import Foundation
import LiveStorage

/// A `postgres://` connection URL, read the way `libpq` reads one (the form `DATABASE_URL`
/// holds):
///
///     postgres://user:password@host:port/database?sslmode=disable&connect_timeout=5
///
/// `postgresql://` is the same. The port defaults to 5432 and the database to the user's name;
/// user and password may be percent-encoded. Query parameters: `sslmode` (`disable`, `prefer` —
/// the default — or `require`, which also verifies the server's certificate) and
/// `connect_timeout` (whole seconds, default 5). Any other parameter is refused, so that a typo
/// does not silently connect differently.
public struct PostgresURL: Equatable, Sendable, CustomStringConvertible {
  public enum TLSMode: String, Equatable, Sendable {
    case disable, prefer, require
  }

  public var host: String
  public var port: Int
  public var user: String
  public var password: String?
  public var database: String
  public var tls: TLSMode
  public var connectTimeout: Duration

  /// Reads `string`.
  ///
  /// - Throws: ``StorageError`` naming what is wrong; the message never contains the password.
  public init(_ string: String) throws {
    func refuse(_ reason: String) -> StorageError {
      StorageError("DATABASE_URL is not a usable PostgreSQL URL: \(reason).")
    }
    guard let components = URLComponents(string: string), let scheme = components.scheme else {
      throw refuse("expected postgres://user:password@host:port/database")
    }
    guard scheme == "postgres" || scheme == "postgresql" else {
      throw refuse("the scheme is \"\(scheme)\", not postgres")
    }
    guard let host = components.host, !host.isEmpty else { throw refuse("it names no host") }
    guard let user = components.user?.removingPercentEncoding, !user.isEmpty else {
      throw refuse("it names no user")
    }
    let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : ""
    guard !path.contains("/") else { throw refuse("the database name contains \"/\"") }
    self.host = host
    self.port = components.port ?? 5432
    guard (1...65_535).contains(port) else { throw refuse("the port \(port) is out of range") }
    self.user = user
    self.password = components.password?.removingPercentEncoding
    self.database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? user
    self.tls = .prefer
    self.connectTimeout = .seconds(5)
    for item in components.queryItems ?? [] {
      switch item.name {
      case "sslmode":
        guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
          throw refuse("sslmode must be disable, prefer or require")
        }
        tls = mode
      case "connect_timeout":
        guard let seconds = item.value.flatMap(Int.init), seconds > 0 else {
          throw refuse("connect_timeout must be a whole number of seconds above 0")
        }
        connectTimeout = .seconds(seconds)
      default:
        throw refuse("the parameter \"\(item.name)\" is not supported")
      }
    }
  }

  /// The URL without its password: for messages and logs.
  public var description: String {
    "postgres://\(user)@\(host):\(port)/\(database)"
  }
}
