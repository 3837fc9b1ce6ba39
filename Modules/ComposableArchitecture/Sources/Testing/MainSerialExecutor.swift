import Dispatch
import Foundation
import Synchronization

#if canImport(CDispatch)
  import CDispatch
#endif

/// Test stores run every task on the main thread, one job at a time, which makes the order of
/// async work deterministic.
///
/// In an XCTest case, as in TCA, each test store turns the main serial executor on when it is
/// made and puts back, when it goes, whatever it found (`uncheckedUseMainSerialExecutor = false`
/// set by the test before making the store is back after it). XCTest runs one test at a time, so
/// a store left alive by an earlier test cannot hold the executor on for the next one. Swift
/// Testing runs tests in parallel, so there the stores overlap in any order: the first live store
/// installs the executor and the last one restores what was there before.
///
/// It is installed through Swift's global-executor enqueue hook — the hook ConcurrencyExtras'
/// `withMainSerialExecutor` sets, found by the same symbol. A job meant for the global executor
/// goes to the main queue instead and runs there *isolated to the global executor*, as it would
/// on a worker thread. So a job hops only where the code changes isolation (onto the main actor
/// and back off it), as in production. Handing the job to the main actor instead (what
/// `withMainSerialExecutor` does) makes the runtime believe that nonisolated code runs on the main
/// actor, so every nonisolated frame of an effect hops again when it resumes: one main-queue job
/// per frame on an effect's way back (a test store's send + receive step of a `.run` effect made
/// 18 jobs that way, and makes about 7 now).
@usableFromInline
enum MainSerialExecutorUsage {
  private typealias Original = @convention(thin) (UnownedJob) -> Void
  private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  private struct Usage {
    /// Test stores of Swift Testing tests alive now, and the hook from before the first of them.
    var count = 0
    var previous: Hook?
    /// For each test store of an XCTest case alive now, the hook it found.
    var found: [ObjectIdentifier: Hook?] = [:]
  }

  private static let usage = Mutex<Usage>(Usage())

  private static let hook = UncheckedSendable(
    dlsym(dlopen(nil, 0), "swift_task_enqueueGlobal_hook")!.assumingMemoryBound(to: Hook?.self)
  )

  /// Where a job runs: on the thread it is called from (the main one), isolated to no actor.
  fileprivate static let globalExecutor = globalConcurrentExecutor.asUnownedTaskExecutor()

  /// Turns the executor on for the test store `owner`.
  @usableFromInline
  static func acquire(for owner: ObjectIdentifier) {
    let isXCTest = TestContext.current == .xcTest
    usage.withLock { usage in
      if isXCTest {
        usage.found[owner] = hook.value.pointee
        install()
        return
      }
      if usage.count == 0 {
        usage.previous = hook.value.pointee
        install()
      }
      usage.count += 1
    }
  }

  /// Puts back what the test store `owner` found, or — the last of overlapping Swift Testing
  /// stores — what was there before the first.
  static func release(for owner: ObjectIdentifier) {
    usage.withLock { usage in
      if let found = usage.found.removeValue(forKey: owner) {
        hook.value.pointee = found
        return
      }
      usage.count -= 1
      if usage.count == 0 {
        hook.value.pointee = usage.previous
      }
    }
  }

  private static func install() {
    hook.value.pointee = { job, _ in
      #if canImport(CDispatch)
        // The job itself is the context: nothing to allocate per job.
        dispatch_async_f(
          dispatch_get_main_queue(), unsafeBitCast(job, to: UnsafeMutableRawPointer.self)
        ) { context in
          unsafeBitCast(context, to: UnownedJob.self).runSynchronously(
            on: MainSerialExecutorUsage.globalExecutor)
        }
      #else
        DispatchQueue.main.async {
          job.runSynchronously(on: MainSerialExecutorUsage.globalExecutor)
        }
      #endif
    }
  }
}
