import Testing

@testable import WebFrontend
@testable import WebSessions

/// Memory of many ended or compacted sessions goes back to the system (glibc's `malloc_trim`,
/// found at run time); a few are not worth a walk over the heap.
struct MemoryReleaseTests {
  @Test func manyEndedSessionsTrimTheHeapAndAFewDoNot() {
    #expect(!MemoryRelease.afterEnding(0))
    #expect(!MemoryRelease.afterEnding(MemoryRelease.minimumEndedSessions - 1))
    #if canImport(Glibc)
      #expect(MemoryRelease.afterEnding(MemoryRelease.minimumEndedSessions))
    #endif
  }
}
