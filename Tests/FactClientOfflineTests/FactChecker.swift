import Foundation

/// Checks a fact of the offline client by recomputing it, independently of the client's code:
/// naive trial division, divisor counting by brute force, Roman numerals decoded rather than
/// encoded.
///
/// `verdict(of:about:)` is `nil` for a statement it does not recognise, so a new kind of fact
/// fails the tests until a check is written for it.
struct FactChecker {
  /// The numbers up to this bound that are prime, by trial division.
  private let primes: [Int]

  init(upTo bound: Int) {
    primes = (2...max(2, bound)).filter { candidate in
      !(2..<candidate).contains { candidate % $0 == 0 }
    }
  }

  /// Whether `fact` is true of `number`, or `nil` when the statement is of no known kind.
  func verdict(of fact: String, about number: Int) -> Bool? {
    let n = "\(number)"
    if let rest = fact.removingPrefix("The digits of \(n) add up to ") {
      return Int(rest.dropLast()) == digits(number).reduce(0, +) && rest.hasSuffix(".")
    }
    guard let rest = fact.removingPrefix("\(n) ") else { return nil }
    switch rest {
    case "is an even number.": return number % 2 == 0
    case "is an odd number.": return number % 2 != 0
    case "is a prime number.": return isPrime(number)
    case "is a Fibonacci number.": return fibonacci(upTo: number).contains(number)
    case "is neither positive nor negative.": return number == 0
    case "is divisible by every whole number except itself.": return number == 0
    case "is the only number that leaves any number unchanged when added to it.":
      return number == 0 && (-5...5).allSatisfy { $0 + number == $0 }
    case "is a palindrome: its digits read the same backwards.":
      return digits(number).count >= 2 && digits(number) == digits(number).reversed()
    default: break
    }
    if let text = rest.between("is a negative number, ", " below zero.") {
      return number < 0 && UInt(text) == number.magnitude
    }
    if let text = rest.between("is the ", " prime number.") {
      let rank = primes.filter { $0 <= number }.count
      return isPrime(number) && text == ordinal(rank)
    }
    if let text = rest.between("is the product of the primes ", ".") {
      let factors = numbers(in: text)
      return number > 0 && factors.count >= 2 && isFactorization(factors, of: number)
    }
    if let text = rest.between("is -1 times the product of the primes ", ".") {
      let factors = numbers(in: text)
      return number < 0 && factors.count >= 2 && isFactorization(factors, of: -number)
    }
    if let text = rest.between("is the negative of the prime number ", ".") {
      return number < 0 && Int(text) == -number && isPrime(-number)
    }
    if let text = rest.between("has ", " positive divisors.")
      ?? rest.between("has ", " positive divisor.")
    {
      let count = (1...max(1, abs(number))).filter { abs(number) % $0 == 0 }.count
      return number != 0 && Int(text) == count && (count == 1) == rest.hasSuffix("divisor.")
    }
    for (kind, comparison) in [("perfect", 0), ("abundant", 1), ("deficient", -1)] {
      let article = kind == "perfect" || kind == "deficient" ? "a" : "an"
      if let text = rest.between(
        "is \(article) \(kind) number: its proper divisors add up to ", ".")
      {
        guard number > 0, let sum = Int(text) else { return false }
        let proper = (1..<number).filter { number % $0 == 0 }.reduce(0, +)
        return sum == proper && (proper > number ? 1 : proper < number ? -1 : 0) == comparison
      }
    }
    if let text = rest.between("is a perfect square: ", ".") {
      let factors = text.components(separatedBy: " × ").compactMap { Int($0) }
      return factors.count == 2 && factors[0] == factors[1] && factors[0] >= 0
        && product(factors) == number
    }
    if let text = rest.between("is a perfect cube: ", ".") {
      let factors = text.components(separatedBy: " × ").compactMap { Int($0) }
      return factors.count == 3 && Set(factors).count == 1 && product(factors) == number
    }
    if let text = rest.between(
      "is a triangular number: the sum of the whole numbers from 1 to ", ".")
    {
      guard let k = Int(text), k >= 1 else { return false }
      return (1...k).reduce(0, +) == number
    }
    if let text = rest.between("is 2 to the power of ", ".") {
      guard let k = Int(text), (0..<62).contains(k) else { return false }
      return (0..<k).reduce(1) { product, _ in product * 2 } == number
    }
    if let marker = rest.range(of: "!, the product of the whole numbers from 1 to "),
      rest.hasPrefix("is ")
    {
      let text = rest[rest.index(rest.startIndex, offsetBy: 3)..<marker.lowerBound]
      guard let k = Int(text), k >= 1, rest[marker.upperBound...] == "\(k)." else { return false }
      return (1...k).reduce(1, *) == number
    }
    if let text = rest.between("has ", " digits.") {
      return Int(text) == digits(number).count && digits(number).count >= 2
    }
    if let text = rest.between("is ", " in hexadecimal.") {
      return Int(text, radix: 16) == number && text == text.uppercased()
    }
    if let text = rest.between("is ", " in binary.") {
      return Int(text, radix: 2) == number && text.allSatisfy { "01-".contains($0) }
    }
    if let text = rest.between("is ", " in Roman numerals.") {
      return romanValue(text) == number && isCanonicalRoman(text)
    }
    return nil
  }

  func isPrime(_ number: Int) -> Bool {
    number >= 2 && !(2..<number).contains { $0 * $0 <= number && number % $0 == 0 }
  }

  /// The product of `factors`, or `nil` when it overflows.
  private func product(_ factors: [Int]) -> Int? {
    var result = 1
    for factor in factors {
      let (next, overflow) = result.multipliedReportingOverflow(by: factor)
      if overflow { return nil }
      result = next
    }
    return result
  }

  /// `factors` are primes in increasing order whose product is `number`.
  private func isFactorization(_ factors: [Int], of number: Int) -> Bool {
    factors.allSatisfy(isPrime) && factors == factors.sorted() && product(factors) == number
  }

  private func fibonacci(upTo bound: Int) -> [Int] {
    var sequence = [0, 1]
    while let last = sequence.last, last < bound {
      sequence.append(last + sequence[sequence.count - 2])
    }
    return sequence
  }

  private func digits(_ number: Int) -> [Int] {
    String(number.magnitude).compactMap(\.wholeNumberValue)
  }

  /// `"2, 3 and 7"` → `[2, 3, 7]`.
  private func numbers(in list: String) -> [Int] {
    list.replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ", ")
      .compactMap { Int($0) }
  }

  private func ordinal(_ number: Int) -> String {
    let tens = number % 100
    if (11...13).contains(tens) { return "\(number)th" }
    return "\(number)" + (["th", "st", "nd", "rd"] + Array(repeating: "th", count: 6))[number % 10]
  }

  /// The value of a Roman numeral, each symbol subtracted when a larger one follows it.
  private func romanValue(_ numeral: String) -> Int? {
    let values: [Character: Int] = [
      "I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000,
    ]
    let symbols = numeral.compactMap { values[$0] }
    guard symbols.count == numeral.count, !symbols.isEmpty else { return nil }
    var total = 0
    for (index, value) in symbols.enumerated() {
      let next = index + 1 < symbols.count ? symbols[index + 1] : 0
      total += value < next ? -value : value
    }
    return total
  }

  private func isCanonicalRoman(_ numeral: String) -> Bool {
    numeral.wholeMatch(of: #/M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})/#) != nil
  }
}

extension String {
  /// The rest of the string after `prefix`, or `nil` when it does not start with it.
  fileprivate func removingPrefix(_ prefix: String) -> String? {
    hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
  }

  /// The text between `prefix` and `suffix` when the string is exactly `prefix…suffix`.
  fileprivate func between(_ prefix: String, _ suffix: String) -> String? {
    guard hasPrefix(prefix), hasSuffix(suffix), count >= prefix.count + suffix.count else {
      return nil
    }
    return String(dropFirst(prefix.count).dropLast(suffix.count))
  }
}
