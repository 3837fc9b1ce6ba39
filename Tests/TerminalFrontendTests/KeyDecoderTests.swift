import Testing

@testable import TerminalFrontend

struct KeyDecoderTests {
  @Test func printableCharactersAndControlKeys() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("a+".utf8)) == [.character("a"), .character("+")])
    #expect(
      decoder.decode([0x0D, 0x7F, 0x09, 0x03, 0x04]) == [
        .enter, .backspace, .tab, .controlC, .controlD,
      ])
  }

  @Test func arrowKeysInBothEncodings() {
    var decoder = KeyDecoder()
    #expect(
      decoder.decode(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D\u{1B}[Z".utf8)) == [
        .up, .down, .right, .left, .backTab,
      ])
  }

  @Test func sequencesSplitAcrossReadsAreCompleted() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.decode([UInt8(ascii: "[")]) == [])
    #expect(decoder.decode([UInt8(ascii: "A"), UInt8(ascii: "x")]) == [.up, .character("x")])
  }

  @Test func loneEscapeIsReportedByFlush() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.flush() == [.escape])
    #expect(decoder.decode([0x1B, UInt8(ascii: "q")]) == [.escape, .character("q")])
  }

  @Test func multiByteCharacters() {
    var decoder = KeyDecoder()
    let bytes = Array("서울ü".utf8)
    #expect(decoder.decode(bytes[0..<2]) == [])
    #expect(decoder.decode(bytes[2...]) == [.character("서"), .character("울"), .character("ü")])
  }

  @Test func unknownFunctionKeysAreIgnored() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("\u{1B}[15~x".utf8)) == [.character("x")])
  }
}
