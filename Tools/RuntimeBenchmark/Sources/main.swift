// runtime-bench: the runtime's benchmark executable. `Tools/runtime-benchmark` drives it (release
// build, wall time, callgrind instruction counts, targets); run it by hand as:
//
//   runtime-bench list                               the cases, one JSON object a line
//   runtime-bench run CASE ITERATIONS                one run of one case: its loop's sample
//   runtime-bench time [ROUNDS] [CASE…]              interleaved rounds of every case (or those
//                                                    named): median ns/op and mallocs/op
//   runtime-bench smoke                              every case briefly, with its self-checks
//   runtime-bench memory [STEPS]                     what recording STEPS actions keeps in
//                                                    memory, and that its limit bounds it
//
// The main actor is served by `benchmark_serve_main_queue()` rather than `dispatchMain()`, whose
// `sigsuspend` valgrind cannot run (nor Foundation's run loop, which adds its own cost to every
// main-queue job).
import ComposableArchitecture
import ComposableRecording
import Foundation
import RuntimeBenchmarkSupport

@MainActor
func runCommand(_ arguments: [String]) async throws {
  switch arguments.first {
  case "list":
    for benchmark in allCases {
      printJSON(["case": benchmark.name, "summary": benchmark.summary])
    }

  case "run":
    guard arguments.count == 3, let iterations = Int(arguments[2]), iterations > 0,
      let benchmark = allCases.first(where: { $0.name == arguments[1] })
    else { throw UsageError() }
    let sample = try await benchmark.run(iterations)
    printJSON(
      [
        "case": benchmark.name, "iterations": sample.iterations, "ns": sample.nanoseconds,
        "mallocs": sample.mallocs,
      ])

  case "time":
    let rounds = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 11
    guard rounds > 0 else { throw UsageError() }
    let names = Set(arguments.dropFirst(2))
    let selected = allCases.filter { names.isEmpty || names.contains($0.name) }
    guard !selected.isEmpty else { throw UsageError() }
    var samples: [String: [Sample]] = [:]
    // Interleaved: every case once per round, so a burst of load hits all of them alike.
    for _ in 0..<rounds {
      for benchmark in selected {
        samples[benchmark.name, default: []].append(
          try await benchmark.run(benchmark.iterationsPerRound))
      }
    }
    for benchmark in selected {
      let runs = samples[benchmark.name] ?? []
      printJSON(
        [
          "case": benchmark.name, "rounds": runs.count,
          "ns_per_op": median(runs.map(\.nanosecondsPerOperation)),
          "mallocs_per_op": median(runs.map(\.mallocsPerOperation)),
        ])
    }

  case "smoke":
    for benchmark in allCases {
      let sample = try await benchmark.run(20)
      print("ok \(benchmark.name): \(sample.iterations) operations")
    }
    print("runtime-bench smoke: \(allCases.count) cases ran and passed their checks")

  case "memory":
    let steps = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 10_000
    guard steps > 0 else { throw UsageError() }
    printJSON(try recordingMemory(steps: steps))

  default:
    throw UsageError()
  }
}

/// Records `steps` actions of a list of 10 counters (each step changes one counter, so each kept
/// state holds its own copy of the list), then as many again past the recording's limit.
@MainActor
func recordingMemory(steps: Int) throws -> [String: Any] {
  let store = Store(initialState: CounterList.State(count: 10)) { CounterList() }
  let recording = store.startRecording(limit: steps)
  func send(_ count: Int) {
    for index in 0..<count {
      store.send(.counters(.element(id: index % 10, action: .incrementButtonTapped)))
    }
  }
  let before = residentBytes()
  send(steps)
  let atLimit = residentBytes()
  send(steps)
  let pastLimit = residentBytes()
  try check(recording.steps.count == steps && recording.isFull, "the recording was not full")
  return [
    "steps": recording.steps.count, "limit": recording.limit,
    "bytes_per_step": Double(atLimit - before) / Double(steps),
    "resident_growth_bytes": atLimit - before,
    "growth_past_limit_bytes": pastLimit - atLimit,
  ]
}

/// The process's resident memory, from /proc/self/statm.
func residentBytes() -> Int {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return 0
  }
  let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

struct UsageError: Error, CustomStringConvertible {
  var description: String {
    "usage: runtime-bench list | run CASE ITERATIONS | time [ROUNDS] [CASE…] | smoke"
      + " | memory [STEPS]"
  }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func printJSON(_ object: [String: Any]) {
  let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  print(String(decoding: data, as: UTF8.self))
}

let arguments = Array(CommandLine.arguments.dropFirst())
Task { @MainActor in
  do {
    try await runCommand(arguments)
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("runtime-bench: \(error)\n".utf8))
    exit(error is UsageError ? 2 : 1)
  }
}
benchmark_serve_main_queue()
