import ConcurrencyExtras
import CustomDump
import Dependencies
import Foundation

extension SharedReaderKey {
  /// A value saved as JSON in the file at `url`: `@Shared(.fileStorage(url)) var settings =
  /// Settings()`.
  ///
  /// A missing file gives the default value; a file that cannot be decoded also gives it, and the
  /// error is `$shared.loadError`. Writes are throttled: the first change is written at once, later
  /// ones at most once a second, the latest value winning; `$shared.save()` writes at once.
  public static func fileStorage<Value: Codable>(
    _ url: URL, decoder: JSONDecoder? = nil, encoder: JSONEncoder? = nil
  ) -> Self where Self == FileStorageKey<Value> {
    let decoder = decoder.map { UncheckedSendable($0) }
    let encoder = encoder.map { UncheckedSendable($0) }
    return FileStorageKey(
      url: url,
      decode: { data in try (decoder?.value ?? JSONDecoder()).decode(Value.self, from: data) },
      encode: { value in
        try (encoder?.value ?? FileStorageKey<Value>.defaultEncoder).encode(value)
      })
  }

  /// A value saved in the file at `url` with your own coding.
  public static func fileStorage<Value>(
    _ url: URL,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, decode: decode, encode: encode)
  }
}

/// A key that keeps a value in a file (``SharedReaderKey/fileStorage(_:decoder:encoder:)``).
public final class FileStorageKey<Value: Sendable>: SharedKey, CustomStringConvertible,
  @unchecked Sendable
{
  let url: URL
  let storage: FileStorage
  let decode: @Sendable (Data) throws -> Value
  let encode: @Sendable (Value) throws -> Data
  private let lock = NSLock()
  /// While a write window is open, the value to write when it closes.
  private var isThrottling = false
  private var pending: Value?

  static var defaultEncoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return encoder
  }

  init(
    url: URL, decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) {
    @Dependency(\.defaultFileStorage) var storage
    self.url = url
    self.storage = storage
    self.decode = decode
    self.encode = encode
  }

  public var id: FileStorageKeyID {
    FileStorageKeyID(url: url.standardizedFileURL, storage: storage.id)
  }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    do {
      guard let data = try storage.loadFile(url) else {
        continuation.resumeReturningInitialValue()
        return
      }
      continuation.resume(returning: try decode(data))
    } catch {
      continuation.resume(throwing: FileStorageError(url: url, underlying: error))
    }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>)
    -> SharedSubscription
  {
    SharedSubscription {}
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    let writeNow: Bool = lock.withLock {
      if context == .userInitiated || !isThrottling {
        pending = nil
        isThrottling = true
        return true
      }
      pending = value
      return false
    }
    guard writeNow else {
      continuation.resume()
      return
    }
    continuation.resume(with: write(value))
    storage.after(.seconds(1)) { [self] in closeWindow() }
  }

  /// The end of a write window: the latest value that waited is written and a new window opens;
  /// with nothing waiting, the next change is written at once.
  private func closeWindow() {
    let waiting: Value? = lock.withLock {
      defer { pending = nil }
      if pending == nil { isThrottling = false }
      return pending
    }
    guard let waiting else { return }
    _ = write(waiting)
    storage.after(.seconds(1)) { [self] in closeWindow() }
  }

  private func write(_ value: Value) -> Result<Void, any Error> {
    Result {
      do {
        try storage.saveFile(try encode(value), url)
      } catch {
        throw FileStorageError(url: url, underlying: error)
      }
    }
  }

  public var description: String { ".fileStorage(\(url.path))" }
}

/// What identifies a file-stored value: its file in its storage.
public struct FileStorageKeyID: Hashable, Sendable {
  let url: URL
  let storage: ObjectIdentifier
}

/// A file-stored value could not be read, decoded, encoded or written.
public struct FileStorageError: Error, CustomStringConvertible, LocalizedError {
  public let url: URL
  public let underlying: any Error

  public var description: String { "File storage \(url.path): \(underlying)" }
  public var errorDescription: String? { description }
}

/// Where ``FileStorageKey`` reads and writes: the file system, or memory in tests.
public struct FileStorage: Sendable {
  private final class Identity: Sendable {}
  private let identity = Identity()
  var id: ObjectIdentifier { ObjectIdentifier(identity) }

  /// The file's contents, `nil` when there is no file.
  public let loadFile: @Sendable (URL) throws -> Data?
  /// Writes the file.
  public let saveFile: @Sendable (Data, URL) throws -> Void
  /// Runs work later: the end of a write window.
  public let after: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

  /// A storage from its operations (tests give their own `after` to drive write windows).
  public init(
    load: @escaping @Sendable (URL) throws -> Data?,
    save: @escaping @Sendable (Data, URL) throws -> Void,
    after: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> Void
  ) {
    self.loadFile = load
    self.saveFile = save
    self.after = after
  }

  /// Files on disk, written atomically, creating missing directories.
  public static let fileSystem = FileStorage(
    load: { url in
      guard FileManager.default.fileExists(atPath: url.path) else { return nil }
      return try Data(contentsOf: url)
    },
    save: { data, url in
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    },
    after: { delay, work in
      Task.detached {
        try? await Task.sleep(for: delay)
        work()
      }
    })

  /// Files in a dictionary; write windows close at once.
  public static func inMemory() -> FileStorage {
    let files = LockIsolated<[URL: Data]>([:])
    return FileStorage(
      load: { url in files.value[url.standardizedFileURL] },
      save: { data, url in files.withValue { $0[url.standardizedFileURL] = data } },
      after: { _, work in work() })
  }
}

private enum DefaultFileStorageKey: DependencyKey {
  static let liveValue = FileStorage.fileSystem
  static var testValue: FileStorage { .inMemory() }
}

extension DependencyValues {
  /// Where `.fileStorage` shared values are kept: the file system in apps, memory in tests.
  public var defaultFileStorage: FileStorage {
    get { self[DefaultFileStorageKey.self] }
    set { self[DefaultFileStorageKey.self] = newValue }
  }
}
