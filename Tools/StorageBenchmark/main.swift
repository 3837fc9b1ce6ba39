// storage-bench: what keeping data costs. Each case runs the live clients over SQLiteStorage —
// a file in a fresh temporary folder (WAL, as the executables open it) and, as the baseline
// measured in the same run, a database in memory — and, given a PostgreSQL URL, over
// PostgresStorage in that database; it prints the latency of one call (p50/p99/mean, in
// microseconds) and calls per second. Session cases: saving one session's snapshot (what every
// acknowledged action costs app-server) and reading back and decoding 10,000 saved sessions
// (what resuming them costs, store creation excluded).
//
//   storage-bench [--iterations N] [--database-url postgres://…]
//
// Timing only; nothing here is a test (Tests/StorageTests checks the behaviour).
import AppFeature
import CounterFeature
import FavoriteClient
import FavoriteClientLive
import Foundation
import LivePostgres
import LiveStorage
import SettingsClient
import SettingsClientLive

struct Figures {
  var p50: Double
  var p99: Double
  var mean: Double
  var perSecond: Double

  init(_ samples: [Duration], wall: Duration) {
    let micros = samples.map {
      Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6
    }
    .sorted()
    p50 = micros[micros.count / 2]
    p99 = micros[min(micros.count - 1, micros.count * 99 / 100)]
    mean = micros.reduce(0, +) / Double(micros.count)
    let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
    perSecond = Double(samples.count) / seconds
  }
}

/// Runs `body` `iterations` times in sequence (after a tenth as many warm-up calls).
func measure(_ iterations: Int, _ body: (Int) async throws -> Void) async throws -> Figures {
  for index in 0..<max(1, iterations / 10) { try await body(index) }
  var samples: [Duration] = []
  samples.reserveCapacity(iterations)
  let clock = ContinuousClock()
  let start = clock.now
  for index in 0..<iterations {
    let before = clock.now
    try await body(index)
    samples.append(clock.now - before)
  }
  return Figures(samples, wall: clock.now - start)
}

/// `tasks` tasks, each calling `body` `iterations / tasks` times: calls per second overall.
func throughput(
  _ iterations: Int, tasks: Int,
  _ body: @escaping @Sendable (_ task: Int, _ index: Int) async throws -> Void
) async throws -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for task in 0..<tasks {
      group.addTask {
        for index in 0..<(iterations / tasks) { try await body(task, index) }
      }
    }
    try await group.waitForAll()
  }
  let wall = clock.now - start
  return Double(iterations / tasks * tasks)
    / (Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18)
}

var iterations = 2_000
var databaseURL: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  if argument == "--iterations", let value = arguments.popFirst().flatMap(Int.init), value > 0 {
    iterations = value
  } else if argument == "--database-url", let value = arguments.popFirst() {
    databaseURL = value
  } else {
    FileHandle.standardError.write(
      Data("usage: storage-bench [--iterations N] [--database-url postgres://…]\n".utf8))
    exit(64)
  }
}

let folder = FileManager.default.temporaryDirectory.appending(path: "storage-bench-\(UUID())")
defer { try? FileManager.default.removeItem(at: folder) }
let episodes = (0..<6).map { _ in UUID() }
let settings = StoredSettings(
  digest: "weekly", displayName: "Ada Lovelace", enableNotifications: true,
  isHapticFeedbackEnabled: true, protectMyPosts: false, sendEmailNotifications: true,
  sendMobileNotifications: false, temperatureUnit: "celsius")

print("storage-bench: \(iterations) calls per case, one at a time unless said otherwise")
print("case                                   where     p50 µs    p99 µs   mean µs     calls/s")
let snapshot = AppFeature.KeptState(
  counters: (0..<3).map { Counter.State(id: UUID(), count: $0 * 7, isTimerOn: $0 == 1) },
  selectedTab: .counters)
let snapshotJSON = try JSONEncoder().encode(snapshot)
let restoredCount = 10_000

var storages: [(String, any Storage)] = [
  ("file", try SQLiteStorage(path: folder.appending(path: "bench.sqlite").path)),
  ("memory", try SQLiteStorage(inMemory: ())),
]
var postgres: PostgresStorage?
if let databaseURL {
  postgres = try await PostgresStorage.open(url: databaseURL)
  storages.append(("postgres", postgres!))
}
let run = UUID().uuidString.prefix(8)
for (label, storage) in storages {
  let favorites = FavoriteClient.live(storage: storage, owner: "visitor:bench")
  let kept = SettingsClient.live(storage: storage, owner: "visitor:bench")
  func row(_ name: String, _ figures: Figures) {
    print(
      name.padding(toLength: 38, withPad: " ", startingAt: 0) + " "
        + label.padding(toLength: 8, withPad: " ", startingAt: 0)
        + String(
          format: "%9.1f %9.1f %9.1f %11.0f", figures.p50, figures.p99, figures.mean,
          figures.perSecond))
  }
  row(
    "favorite toggle (a write transaction)",
    try await measure(iterations) { index in
      _ = try await favorites.favorite(episodes[index % episodes.count], index % 2 == 0)
    })
  row(
    "favorites load (a read)",
    try await measure(iterations) { _ in
      _ = try await favorites.favorites()
    })
  row(
    "settings save (8 rows replaced)",
    try await measure(iterations) { index in
      var changed = settings
      changed.displayName = "Ada \(index)"
      try await kept.save(changed)
    })
  row("settings load", try await measure(iterations) { _ in _ = try await kept.load() })
  let concurrent = try await throughput(iterations, tasks: 16) { task, index in
    let owner = FavoriteClient.live(storage: storage, owner: "visitor:\(task)")
    _ = try await owner.favorite(episodes[index % episodes.count], index % 2 == 0)
  }
  print(
    "favorite toggles, 16 visitors at once".padding(toLength: 38, withPad: " ", startingAt: 0)
      + " " + label.padding(toLength: 8, withPad: " ", startingAt: 0)
      + String(repeating: " ", count: 30) + String(format: "%11.0f", concurrent))
  row(
    "session save (\(snapshotJSON.count)-byte snapshot)",
    try await measure(iterations) { index in
      try await storage.saveSession(
        SessionRow(owner: "visitor:bench", revision: index + 1, state: snapshotJSON),
        id: "bench-\(run)-\(label)")
    })
  for index in 0..<restoredCount {
    try await storage.saveSession(
      SessionRow(owner: "visitor:\(index)", revision: 1, state: snapshotJSON),
      id: "restore-\(run)-\(index)")
  }
  let clock = ContinuousClock()
  let start = clock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for task in 0..<16 {
      group.addTask {
        for index in stride(from: task, to: restoredCount, by: 16) {
          guard let saved = try await storage.savedSession(id: "restore-\(run)-\(index)") else {
            fatalError("session \(index) was not saved")
          }
          _ = try JSONDecoder().decode(AppFeature.KeptState.self, from: saved.state)
        }
      }
    }
    try await group.waitForAll()
  }
  let restore = clock.now - start
  print(
    "resume 10,000 sessions (read, decode)"
      .padding(toLength: 38, withPad: " ", startingAt: 0) + " "
      + label.padding(toLength: 8, withPad: " ", startingAt: 0)
      + String(repeating: " ", count: 20)
      + String(
        format: "%.2f s in all",
        Double(restore.components.seconds) + Double(restore.components.attoseconds) / 1e18))
  _ = try await storage.deleteSessions(savedBefore: Date(timeIntervalSinceNow: 60))
}
await postgres?.close()
