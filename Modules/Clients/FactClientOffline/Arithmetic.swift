import Foundation

/// The number theory behind ``NumberFacts``, on magnitudes (`UInt64`), so that every `Int`,
/// `Int.min` included, is handled without overflow.
enum Arithmetic {
  /// The largest magnitude that is factored (trial division up to its square root, 10⁶ steps).
  static let factorizationLimit: UInt64 = 1_000_000_000_000

  /// The prime factors of `n` (≥ 2) in increasing order, repeated by multiplicity; `nil` above
  /// ``factorizationLimit``.
  static func primeFactors(_ n: UInt64) -> [UInt64]? {
    guard n >= 2, n <= factorizationLimit else { return nil }
    var factors: [UInt64] = []
    var rest = n
    var divisor: UInt64 = 2
    while divisor * divisor <= rest {
      while rest % divisor == 0 {
        factors.append(divisor)
        rest /= divisor
      }
      divisor += divisor == 2 ? 1 : 2
    }
    if rest > 1 { factors.append(rest) }
    return factors
  }

  /// The number of positive divisors and their sum, from the prime factors of `n` (≥ 1); `nil`
  /// above ``factorizationLimit``.
  static func divisorCountAndSum(_ n: UInt64) -> (count: UInt64, sum: UInt64)? {
    if n == 1 { return (1, 1) }
    guard let factors = primeFactors(n) else { return nil }
    var count: UInt64 = 1
    var sum: UInt64 = 1
    var index = factors.startIndex
    while index < factors.endIndex {
      let prime = factors[index]
      var exponent: UInt64 = 0
      var power: UInt64 = 1
      var powerSum: UInt64 = 1
      while index < factors.endIndex, factors[index] == prime {
        exponent += 1
        power *= prime
        powerSum += power
        index += 1
      }
      count *= exponent + 1
      // σ(n) < 5n for n ≤ 10¹², far from overflowing.
      sum *= powerSum
    }
    return (count, sum)
  }

  /// The number of primes up to and including `n`, for `n` up to ``primeCountLimit``.
  static func primeCount(upTo n: UInt64) -> Int? {
    guard n <= primeCountLimit else { return nil }
    guard n >= 2 else { return 0 }
    var composite = [Bool](repeating: false, count: Int(n) + 1)
    var count = 0
    for candidate in 2...Int(n) where !composite[candidate] {
      count += 1
      var multiple = candidate * candidate
      while multiple <= Int(n) {
        composite[multiple] = true
        multiple += candidate
      }
    }
    return count
  }

  /// The largest `n` whose rank among the primes is computed (a sieve of that size).
  static let primeCountLimit: UInt64 = 1_000_000

  /// The integer `k`-th root of `n` when `n` is a perfect `k`-th power (`k` is 2 or 3).
  static func exactRoot(_ n: UInt64, degree: Int) -> UInt64? {
    let estimate = UInt64(max(0, pow(Double(n), 1 / Double(degree)).rounded()))
    for candidate in [estimate &- 1, estimate, estimate &+ 1] where candidate <= estimate + 1 {
      if power(candidate, degree) == n { return candidate }
    }
    return nil
  }

  /// `base` to the power `exponent`, or `nil` when it overflows.
  static func power(_ base: UInt64, _ exponent: Int) -> UInt64? {
    var result: UInt64 = 1
    for _ in 0..<exponent {
      let (product, overflow) = result.multipliedReportingOverflow(by: base)
      if overflow { return nil }
      result = product
    }
    return result
  }

  /// `k` such that `n` is 1 + 2 + … + k, when `n` (≥ 1) is triangular.
  static func triangularIndex(_ n: UInt64) -> UInt64? {
    guard n >= 1 else { return nil }
    // k(k + 1)/2 = n  ⇔  k = (√(8n + 1) − 1) / 2
    let estimate = UInt64(max(0, ((8 * Double(n) + 1).squareRoot() - 1) / 2).rounded())
    for k in [estimate &- 1, estimate, estimate &+ 1] where k >= 1 && k <= estimate + 1 {
      let (product, overflow) = k.multipliedReportingOverflow(by: k + 1)
      if !overflow, product / 2 == n { return k }
    }
    return nil
  }

  /// Whether `n` is in the Fibonacci sequence 0, 1, 1, 2, 3, 5, …
  static func isFibonacci(_ n: UInt64) -> Bool {
    var (current, next): (UInt64, UInt64) = (0, 1)
    while current < n {
      let (sum, overflow) = current.addingReportingOverflow(next)
      if overflow { return next == n }
      (current, next) = (next, sum)
    }
    return current == n
  }

  /// `k` such that `n` is k! (the smallest such `k`, so 1 is 1!), for `n` ≥ 1.
  static func factorialIndex(_ n: UInt64) -> UInt64? {
    var factorial: UInt64 = 1
    var k: UInt64 = 1
    while factorial < n {
      k += 1
      let (product, overflow) = factorial.multipliedReportingOverflow(by: k)
      if overflow { return nil }
      factorial = product
    }
    return factorial == n && n >= 1 ? k : nil
  }

  /// The decimal digits of `n`, most significant first.
  static func digits(_ n: UInt64) -> [UInt64] {
    String(n).unicodeScalars.map { UInt64($0.value) - 48 }
  }

  /// `n` in Roman numerals, for 1...3999.
  static func romanNumeral(_ n: UInt64) -> String? {
    guard (1...3999).contains(n) else { return nil }
    let symbols: [(value: UInt64, numeral: String)] = [
      (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
      (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ]
    var rest = n
    var numeral = ""
    for symbol in symbols {
      while rest >= symbol.value {
        numeral += symbol.numeral
        rest -= symbol.value
      }
    }
    return numeral
  }
}
