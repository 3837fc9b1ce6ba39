/// The true statements the offline fact client knows about a number, each naming the number.
///
/// Every statement is computed from the number, so each is true: primality and the factorization
/// into primes, divisors (perfect, abundant, deficient), squares, cubes, triangular, Fibonacci
/// and factorial numbers, powers of two, parity, sign, digits, and the number in binary,
/// hexadecimal and Roman numerals. Facts that need a factorization are given for magnitudes up
/// to 10¹² only.
enum NumberFacts {
  /// Every fact about `number`, in a fixed order; never empty.
  static func all(about number: Int) -> [String] {
    let n = "\(number)"
    let magnitude = UInt64(number.magnitude)
    var facts: [String] = []

    if number == 0 {
      facts.append("0 is neither positive nor negative.")
      facts.append("0 is divisible by every whole number except itself.")
      facts.append("0 is the only number that leaves any number unchanged when added to it.")
    }
    facts.append("\(n) is an \(number.isMultiple(of: 2) ? "even" : "odd") number.")
    if number < 0 {
      facts.append("\(n) is a negative number, \(magnitude) below zero.")
    }

    if magnitude >= 2, let factors = Arithmetic.primeFactors(magnitude) {
      let isPrime = factors.count == 1
      if number > 0 {
        if isPrime {
          facts.append("\(n) is a prime number.")
          if let rank = Arithmetic.primeCount(upTo: magnitude) {
            facts.append("\(n) is the \(ordinal(rank)) prime number.")
          }
        } else {
          facts.append("\(n) is the product of the primes \(list(factors)).")
        }
      } else if isPrime {
        facts.append("\(n) is the negative of the prime number \(magnitude).")
      } else {
        facts.append("\(n) is -1 times the product of the primes \(list(factors)).")
      }
    }

    if magnitude >= 1, let divisors = Arithmetic.divisorCountAndSum(magnitude) {
      let noun = divisors.count == 1 ? "divisor" : "divisors"
      facts.append("\(n) has \(divisors.count) positive \(noun).")
      if number > 0 {
        let proper = divisors.sum - magnitude
        if proper == magnitude {
          facts.append("\(n) is a perfect number: its proper divisors add up to \(n).")
        } else if proper > magnitude {
          facts.append("\(n) is an abundant number: its proper divisors add up to \(proper).")
        } else {
          facts.append("\(n) is a deficient number: its proper divisors add up to \(proper).")
        }
      }
    }

    if number >= 0, let root = Arithmetic.exactRoot(magnitude, degree: 2) {
      facts.append("\(n) is a perfect square: \(root) × \(root).")
    }
    if let root = Arithmetic.exactRoot(magnitude, degree: 3) {
      let signed = number < 0 ? "-\(root)" : "\(root)"
      facts.append("\(n) is a perfect cube: \(signed) × \(signed) × \(signed).")
    }
    if number > 0 {
      if let k = Arithmetic.triangularIndex(magnitude) {
        facts.append("\(n) is a triangular number: the sum of the whole numbers from 1 to \(k).")
      }
      if magnitude.nonzeroBitCount == 1 {
        facts.append("\(n) is 2 to the power of \(magnitude.trailingZeroBitCount).")
      }
      if let k = Arithmetic.factorialIndex(magnitude) {
        facts.append("\(n) is \(k)!, the product of the whole numbers from 1 to \(k).")
      }
    }
    if number >= 0, Arithmetic.isFibonacci(magnitude) {
      facts.append("\(n) is a Fibonacci number.")
    }

    let digits = Arithmetic.digits(magnitude)
    if digits.count >= 2 {
      facts.append("\(n) has \(digits.count) digits.")
      facts.append("The digits of \(n) add up to \(digits.reduce(0, +)).")
      if digits == digits.reversed() {
        facts.append("\(n) is a palindrome: its digits read the same backwards.")
      }
      facts.append("\(n) is \(String(number, radix: 16, uppercase: true)) in hexadecimal.")
    }
    if magnitude >= 2 {
      facts.append("\(n) is \(String(number, radix: 2)) in binary.")
    }
    if number > 0, let numeral = Arithmetic.romanNumeral(magnitude) {
      facts.append("\(n) is \(numeral) in Roman numerals.")
    }
    return facts
  }

  /// `"2, 3 and 7"`.
  private static func list(_ numbers: [UInt64]) -> String {
    let words = numbers.map(String.init)
    guard let last = words.last, words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " and " + last
  }

  /// `"1st"`, `"2nd"`, `"3rd"`, `"4th"`, `"11th"`, `"21st"`.
  private static func ordinal(_ number: Int) -> String {
    let suffix: String
    switch (number % 10, number % 100) {
    case (_, 11...13): suffix = "th"
    case (1, _): suffix = "st"
    case (2, _): suffix = "nd"
    case (3, _): suffix = "rd"
    default: suffix = "th"
    }
    return "\(number)\(suffix)"
  }
}
