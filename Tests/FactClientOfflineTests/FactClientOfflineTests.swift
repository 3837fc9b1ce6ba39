import FactClient
import FactClientOffline
import Foundation
import Testing

struct FactClientOfflineTests {
  private static let checker = FactChecker(upTo: 2_000)

  @Test func everyFactIsTrue() {
    var checked = 0
    for number in -20...2_000 {
      for fact in FactClient.offlineFacts(about: number) {
        switch Self.checker.verdict(of: fact, about: number) {
        case true?: checked += 1
        case false?: Issue.record("false fact about \(number): \(fact)")
        case nil: Issue.record("fact of an unknown kind about \(number): \(fact)")
        }
      }
    }
    #expect(checked > 15_000)
  }

  @Test func everyNumberHasSeveralFacts() {
    for number in -20...2_000 {
      let facts = FactClient.offlineFacts(about: number)
      #expect(facts.count >= 3, "\(number): \(facts)")
      #expect(Set(facts).count == facts.count, "\(number) repeats a fact: \(facts)")
    }
  }

  @Test func everyFactNamesItsNumber() {
    for number in [-20, -1, 0, 1, 2, 17, 42, 1_000, Int.max, Int.min] {
      for fact in FactClient.offlineFacts(about: number) {
        let words = fact.split(whereSeparator: { " .,:!".contains($0) }).map(String.init)
        #expect(words.contains("\(number)"), "\(fact)")
      }
    }
  }

  @Test func knownFactsAreAmongThem() {
    #expect(FactClient.offlineFacts(about: 17).contains("17 is a prime number."))
    #expect(FactClient.offlineFacts(about: 17).contains("17 is the 7th prime number."))
    #expect(
      FactClient.offlineFacts(about: 42).contains("42 is the product of the primes 2, 3 and 7."))
    #expect(FactClient.offlineFacts(about: 42).contains("42 is XLII in Roman numerals."))
    #expect(
      FactClient.offlineFacts(about: 28).contains(
        "28 is a perfect number: its proper divisors add up to 28."))
    #expect(FactClient.offlineFacts(about: 0).contains("0 is an even number."))
    #expect(FactClient.offlineFacts(about: -8).contains("-8 is a perfect cube: -2 × -2 × -2."))
    #expect(
      FactClient.offlineFacts(about: -7).contains("-7 is the negative of the prime number 7."))
  }

  @Test func extremeNumbersGetTrueFacts() {
    let checker = FactChecker(upTo: 2)
    for number in [Int.max, Int.min, Int.min + 1, 1_000_000_007, -1_000_000_000_000] {
      let facts = FactClient.offlineFacts(about: number)
      #expect(facts.count >= 3, "\(number): \(facts)")
      for fact in facts {
        // Statements about primes need the sieve the checker has only for small numbers.
        if fact.contains("prime") || fact.contains("divisor") { continue }
        #expect(checker.verdict(of: fact, about: number) == true, "\(fact)")
      }
    }
    #expect(
      FactClient.offlineFacts(about: Int.min).contains(
        "-9223372036854775808 is a perfect cube: -2097152 × -2097152 × -2097152."))
  }

  @Test func fetchAnswersOneOfTheNumbersFacts() async throws {
    let client = FactClient.offline()
    for number in [-20, -1, 0, 1, 17, 42, 2_000] {
      let fact = try await client.fetch(number)
      #expect(FactClient.offlineFacts(about: number).contains(fact), "\(number): \(fact)")
    }
  }

  @Test func askingAgainGivesAnotherFact() async throws {
    let client = FactClient.offline()
    for number in [-7, 0, 1, 17, 42, 1_999] {
      var answers: [String] = []
      for _ in 0..<4 { answers.append(try await client.fetch(number)) }
      #expect(
        Set(answers).count == min(4, FactClient.offlineFacts(about: number).count), "\(answers)")
    }
  }

  @Test func aNewClientAnswersTheSameSequence() async throws {
    let numbers = [3, 3, 42, -5, 0, 42, 100, 3]
    var first: [String] = []
    var second: [String] = []
    let one = FactClient.offline()
    let other = FactClient.offline()
    for number in numbers { first.append(try await one.fetch(number)) }
    for number in numbers { second.append(try await other.fetch(number)) }
    #expect(first == second)
  }

  @Test func theCheckerRejectsFalseFacts() {
    // The checks can fail: each of these is false or of no known kind.
    #expect(Self.checker.verdict(of: "15 is a prime number.", about: 15) == false)
    #expect(
      Self.checker.verdict(of: "42 is the product of the primes 2, 3 and 5.", about: 42) == false)
    #expect(Self.checker.verdict(of: "12 is the product of the primes 2, 6.", about: 12) == false)
    #expect(Self.checker.verdict(of: "10 is XI in Roman numerals.", about: 10) == false)
    #expect(Self.checker.verdict(of: "4 is IIII in Roman numerals.", about: 4) == false)
    #expect(Self.checker.verdict(of: "12 has 5 positive divisors.", about: 12) == false)
    #expect(Self.checker.verdict(of: "7 is an even number.", about: 7) == false)
    #expect(
      Self.checker.verdict(
        of: "12 is a perfect number: its proper divisors add up to 16.", about: 12) == false)
    #expect(Self.checker.verdict(of: "10 is 1011 in binary.", about: 10) == false)
    #expect(Self.checker.verdict(of: "17 is the 8th prime number.", about: 17) == false)
    #expect(Self.checker.verdict(of: "4 is a Fibonacci number.", about: 4) == false)
    #expect(Self.checker.verdict(of: "42 is a good number.", about: 42) == nil)
  }
}
