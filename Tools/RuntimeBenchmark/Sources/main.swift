// runtime-bench: the runtime's benchmark executable. `Tools/runtime-benchmark` drives it (release
// build, wall time, callgrind instruction counts, targets); run it by hand as:
//
//   runtime-bench list                               the cases, one JSON object a line
//   runtime-bench run CASE ITERATIONS                one run of one case: its loop's sample
//   runtime-bench time [ROUNDS] [CASE…]              interleaved rounds of every case (or those
//                                                    named): median ns/op and mallocs/op
//   runtime-bench smoke                              every case briefly, with its self-checks
//
// The main actor is served by `benchmark_serve_main_queue()` rather than `dispatchMain()`, whose
// `sigsuspend` valgrind cannot run (nor Foundation's run loop, which adds its own cost to every
// main-queue job).
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

  default:
    throw UsageError()
  }
}

struct UsageError: Error, CustomStringConvertible {
  var description: String {
    "usage: runtime-bench list | run CASE ITERATIONS | time [ROUNDS] [CASE…] | smoke"
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
