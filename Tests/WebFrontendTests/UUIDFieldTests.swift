import Foundation
import Testing
import WebFrontend

/// An action's id field is read over its bytes in the usual form; it must accept and refuse
/// exactly what Foundation's `UUID(uuidString:)` does, odd forms included (Foundation on Linux
/// reads a space or a `-` inside a pair of digits).
struct UUIDFieldTests {
  @Test func aFieldReadsAsFoundationReadsIt() {
    var generator = SystemRandomNumberGenerator()
    var texts = [
      "", "-", "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
      "ffffffff-ffff-ffff-ffff-ffffffffffff", "0000000-00000-0000-0000-000000000000",
      "00000000-0000-0000-0000-0000000000000", "00000000-0000-0000-0000-00000000000",
      "00000000+0000-0000-0000-000000000000", "0000000g-0000-0000-0000-000000000000",
      "00000000-0000-0000-0000-00000000000é", "{00000000-0000-0000-0000-000000000000}",
      " 00000000-0000-0000-0000-000000000000", "000000000000000000000000000000000000",
    ]
    // Random ids in both cases, and each with one character changed, removed or added.
    let alphabet = Array("0123456789abcdefABCDEFgG-x é")
    for _ in 0..<400 {
      var text = Array(
        Bool.random(using: &generator)
          ? UUID().uuidString : UUID().uuidString.lowercased())
      let position = Int.random(in: 0..<text.count, using: &generator)
      switch Int.random(in: 0..<4, using: &generator) {
      case 0: text[position] = alphabet.randomElement(using: &generator)!
      case 1: text.remove(at: position)
      case 2: text.insert(alphabet.randomElement(using: &generator)!, at: position)
      default: break
      }
      texts.append(String(text))
    }
    var accepted = 0
    for text in texts {
      let read = UUID(json: .string(text))
      #expect(read == UUID(uuidString: text), "\(text)")
      if read != nil { accepted += 1 }
    }
    // Both kinds were tried: the check compared acceptances and refusals.
    #expect(accepted > 100)
    #expect(accepted < texts.count - 50)
  }
}
