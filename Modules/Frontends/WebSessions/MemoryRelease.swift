#if canImport(Glibc)
  import Glibc
#endif

/// Gives the memory freed by ended and compacted sessions back to the system.
///
/// glibc's allocator keeps freed memory for the process; after many sessions end at once (an idle
/// timeout after a busy hour) the resident size would stay at its peak. `malloc_trim` returns
/// free pages from every arena. It is looked up at run time: other C libraries do not have it,
/// and then nothing is done.
package enum MemoryRelease {
  /// How many sessions must end or be compacted in one sweep before trimming is worth its cost
  /// (it walks the whole heap).
  package static let minimumEndedSessions = 64

  private typealias Trim = @convention(c) (Int) -> Int32

  private static let trim: Trim? = {
    #if canImport(Glibc)
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: Trim.self)
    #else
      return nil
    #endif
  }()

  /// Returns free memory to the system when `endedSessions` (ended or compacted in one sweep)
  /// are worth it; whether it trimmed.
  @discardableResult
  package static func afterEnding(_ endedSessions: Int) -> Bool {
    guard endedSessions >= minimumEndedSessions, let trim else { return false }
    _ = trim(0)
    return true
  }
}
