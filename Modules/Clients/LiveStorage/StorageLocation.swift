import Foundation

/// Where an executable keeps its SQLite database.
public enum StorageLocation {
  /// The path that keeps nothing: a database in memory, gone when the process ends.
  public static let inMemory = ":memory:"

  /// The database file: `flag` (the `--database` option), else `APP_DATABASE`, else `fileName`
  /// in the user's data directory — `$XDG_DATA_HOME/composable-app`, or
  /// `~/.local/share/composable-app` when that variable is unset or not an absolute path.
  ///
  /// - Throws: ``StorageError`` for an empty path, or when neither `HOME` nor `XDG_DATA_HOME`
  ///   names a directory.
  public static func databasePath(
    flag: String?, fileName: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> String {
    if let path = flag ?? environment["APP_DATABASE"] {
      guard !path.isEmpty else {
        throw StorageError("The database path is empty (--database or APP_DATABASE).")
      }
      return path
    }
    let base: String
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      base = data
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      base = home + "/.local/share"
    } else {
      throw StorageError(
        "There is no data directory: set HOME or XDG_DATA_HOME, or pass --database <path>.")
    }
    return base + "/composable-app/" + fileName
  }

  /// Opens the storage at `path`: in memory for ``inMemory``, else the SQLite file.
  public static func open(_ path: String) throws -> SQLiteStorage {
    path == inMemory ? try SQLiteStorage(inMemory: ()) : try SQLiteStorage(path: path)
  }
}
