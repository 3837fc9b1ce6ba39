import Foundation

/// Every searchable name of the gazetteer as a ``SearchKey``, sorted, so that the names starting
/// with a query form one contiguous range found by two binary searches.
///
/// The keys live in one byte buffer and each entry is 12 bytes, which keeps the ~240,000 names of
/// the bundled gazetteer to about 6 MB.
struct NameIndex: Sendable {
  /// One name: where its key is in ``keys`` and which place it names.
  struct Entry: Sendable {
    var keyStart: UInt32
    var keyLength: UInt16
    /// Which of the place's names the key is: 0 for its own name, n for its n-th alternate name
    /// (in the order of the gazetteer's alternates field), so a search can say which it matched.
    var name: UInt16
    /// The place's position in the gazetteer, which is also its rank by population.
    var place: UInt32

    /// Whether the key is the place's own name (not one of its alternate names).
    var isMainName: Bool { name == 0 }
  }

  private let keys: [UInt8]
  private let entries: [Entry]

  /// The number of distinct (key, place) pairs.
  var count: Int { entries.count }

  /// Entries already in the order ``init(keys:entries:)`` gives them (a prepared index's).
  init(keys: [UInt8], sortedEntries: [Entry]) {
    self.keys = keys
    self.entries = sortedEntries
  }

  /// Every entry in order, with its key: what a prepared index stores.
  func forEachEntry(_ body: (ArraySlice<UInt8>, Entry) -> Void) {
    for entry in entries {
      let start = Int(entry.keyStart)
      body(keys[start..<start + Int(entry.keyLength)], entry)
    }
  }

  /// Sorts `entries` by key, then place, and drops repeated pairs (a name and its ASCII spelling
  /// often fold to the same key).
  init(keys: [UInt8], entries unsorted: [Entry]) {
    var entries = unsorted
    keys.withUnsafeBufferPointer { buffer in
      entries.sort { left, right in
        let order = Self.compare(buffer, left, right)
        return order != 0 ? order < 0 : left.place < right.place
      }
      var kept = 0
      for index in entries.indices {
        if kept > 0, entries[kept - 1].place == entries[index].place,
          Self.compare(buffer, entries[kept - 1], entries[index]) == 0
        {
          // The same key for two names of the place: the first of them (its own name first).
          entries[kept - 1].name = min(entries[kept - 1].name, entries[index].name)
          continue
        }
        entries[kept] = entries[index]
        kept += 1
      }
      entries.removeLast(entries.count - kept)
    }
    self.keys = keys
    self.entries = entries
  }

  /// The `limit` best-ranked (smallest) places with a name that starts with `prefix`, best first,
  /// each once.
  func topPlaces(withPrefix prefix: [UInt8], limit: Int) -> [(place: Int, name: Int)] {
    guard !prefix.isEmpty, limit > 0 else { return [] }
    return keys.withUnsafeBufferPointer { buffer in
      prefix.withUnsafeBufferPointer { query in
        // Entries with the prefix follow every entry ordered before it: the first range is
        // "ordered before the prefix", the second "ordered before it or starting with it".
        let start = partitionPoint { Self.compare(buffer, $0, query) < 0 }
        let end = partitionPoint { entry in
          Self.compare(buffer, entry, query) < 0 || Self.hasPrefix(buffer, entry, query)
        }
        // Ranked by how the name matched, then by population: a place's own name before one
        // of its alternate names, a whole name before a longer one ("x" finds Xi'an before
        // Shanghai, which some language spells with an x).
        // The `limit` best (tier, place) pairs so far, best first, each place once with its
        // best tier: most entries are turned away by one comparison with the worst kept.
        var best: [(tier: Int, place: Int, name: Int)] = []
        best.reserveCapacity(limit + 1)
        for entry in entries[start..<end] {
          let exact = Int(entry.keyLength) == query.count
          let tier = (entry.isMainName ? 0 : 2) + (exact ? 0 : 1)
          let candidate = (tier: tier, place: Int(entry.place), name: Int(entry.name))
          if best.count == limit, let worst = best.last,
            !((candidate.tier, candidate.place) < (worst.tier, worst.place))
          {
            continue
          }
          if let known = best.firstIndex(where: { $0.place == candidate.place }) {
            guard candidate.tier < best[known].tier else { continue }
            best.remove(at: known)
          }
          let position =
            best.firstIndex { (candidate.tier, candidate.place) < ($0.tier, $0.place) }
            ?? best.endIndex
          best.insert(candidate, at: position)
          if best.count > limit { best.removeLast() }
        }
        return best.map { (place: $0.place, name: $0.name) }
      }
    }
  }

  /// The first index whose entry does not satisfy `isBefore`, which must hold for a prefix of
  /// the entries and not after it.
  private func partitionPoint(_ isBefore: (Entry) -> Bool) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = low + (high - low) / 2
      if isBefore(entries[middle]) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  private static func compare(
    _ keys: UnsafeBufferPointer<UInt8>, _ left: Entry, _ right: Entry
  ) -> Int {
    compare(
      UnsafeBufferPointer(
        rebasing: keys[Int(left.keyStart)..<Int(left.keyStart) + Int(left.keyLength)]),
      UnsafeBufferPointer(
        rebasing: keys[Int(right.keyStart)..<Int(right.keyStart) + Int(right.keyLength)]))
  }

  private static func compare(
    _ keys: UnsafeBufferPointer<UInt8>, _ entry: Entry, _ query: UnsafeBufferPointer<UInt8>
  ) -> Int {
    compare(
      UnsafeBufferPointer(
        rebasing: keys[Int(entry.keyStart)..<Int(entry.keyStart) + Int(entry.keyLength)]),
      query)
  }

  private static func hasPrefix(
    _ keys: UnsafeBufferPointer<UInt8>, _ entry: Entry, _ query: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    guard Int(entry.keyLength) >= query.count, let keyBytes = keys.baseAddress,
      let queryBytes = query.baseAddress
    else { return false }
    return memcmp(keyBytes + Int(entry.keyStart), queryBytes, query.count) == 0
  }

  /// Byte-wise order of two keys; a key sorts before the keys it is a prefix of.
  private static func compare(
    _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
  ) -> Int {
    let shared = min(left.count, right.count)
    if shared > 0, let leftBytes = left.baseAddress, let rightBytes = right.baseAddress {
      let order = memcmp(leftBytes, rightBytes, shared)
      if order != 0 { return Int(order) }
    }
    return left.count - right.count
  }
}
