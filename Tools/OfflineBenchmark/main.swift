// Measures the offline gazetteer of WeatherClientOffline: how long loading takes, how much
// resident memory the loaded index holds, and the time per search over a fixed mix of queries.
//
//   swift build -j 1 -c release --product offline-bench && .build/release/offline-bench [rounds]
//
// Figures and targets: docs/benchmarks.md, "Offline gazetteer". It asserts nothing: a benchmark,
// not a test.

import Foundation
import WeatherClientOffline

/// The queries of one round: prefixes of common names, whole names, accented spellings, names in
/// other scripts, and queries that match nothing or very many places.
let queries = [
  "s", "sa", "san", "sao", "sao p", "seo", "seoul", "new", "new y", "lon", "london", "par", "paris",
  "ber", "tok", "mex", "los an", "bei", "mum", "del", "ka", "ma", "b", "z", "spring", "port",
  "São Paulo", "Zür", "zurich", "München", "Kraków", "Łódź", "Malmö", "Reykjavík", "Düsseldorf",
  "Ciudad de México", "İstanbul", "서울", "서", "東京", "北京", "Москва", "Київ", "القاهرة", "मुंबई",
  "Αθήνα", "תל אביב", "大阪", "xqzv", "  ",
]

/// A line of /proc/self/status, e.g. `VmRSS`, in MiB; `nil` where there is no such file.
func memoryMiB(_ field: String) -> Double? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return nil
  }
  for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
    let kibibytes = line.split(separator: " ").compactMap { Double($0) }.first
    return kibibytes.map { $0 / 1024 }
  }
  return nil
}

func format(_ value: Double?, _ unit: String) -> String {
  value.map { String(format: "%.1f %@", $0, unit) } ?? "n/a"
}

func microseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) }.map { max(1, $0) } ?? 200
let clock = ContinuousClock()

let rssBefore = memoryMiB("VmRSS")
let loadStart = clock.now
let gazetteer: Gazetteer
do {
  gazetteer = try Gazetteer.bundled()
} catch {
  FileHandle.standardError.write(Data("offline-bench: \(error)\n".utf8))
  exit(1)
}
let loadTime = clock.now - loadStart
let rssAfter = memoryMiB("VmRSS")
let peak = memoryMiB("VmHWM")

// One warm-up round, then `rounds` timed rounds; every query is timed on its own.
var resultCount = 0
for query in queries { resultCount += gazetteer.search(query).count }
var times: [Double] = []
var slowest: [String: Double] = [:]
times.reserveCapacity(rounds * queries.count)
for _ in 0..<rounds {
  for query in queries {
    let start = clock.now
    resultCount += gazetteer.search(query).count
    let time = microseconds(clock.now - start)
    times.append(time)
    slowest[query] = max(slowest[query] ?? 0, time)
  }
}
times.sort()
/// The value below which `fraction` of the sorted `values` lie (nearest rank).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
  values.isEmpty ? 0 : values[Int((Double(values.count - 1) * fraction).rounded())]
}

print("offline gazetteer: \(gazetteer.count) places, \(gazetteer.nameCount) distinct names")
print(
  "load (parse the places, read the prepared index): \(String(format: "%.0f", microseconds(loadTime) / 1000)) ms"
)
print(
  "resident memory: \(format(rssBefore, "MiB")) before, \(format(rssAfter, "MiB")) after "
    + "(+\(format(rssAfter.flatMap { after in rssBefore.map { after - $0 } }, "MiB"))), "
    + "peak \(format(peak, "MiB"))")
print(
  "search, \(queries.count) queries × \(rounds) rounds: "
    + "median \(String(format: "%.1f", percentile(times, 0.5))) µs, "
    + "p99 \(String(format: "%.1f", percentile(times, 0.99))) µs, "
    + "max \(String(format: "%.1f", times.last ?? 0)) µs")
let worst = slowest.sorted { $0.value > $1.value }.prefix(3)
print(
  "slowest queries (max): "
    + worst.map { "\"\($0.key)\" \(String(format: "%.1f", $0.value)) µs" }.joined(separator: ", "))
print("(results returned: \(resultCount))")
