import JSON
import Testing

/// The one JSON of the project: what the web API reads request bodies with, and what a session
/// record is read and written with.
struct JSONValueTests {
  private func parse(_ text: String, depth: Int = JSONValue.Limits.maximumDepth) throws(JSONValue
    .ParseError) -> JSONValue
  {
    try JSONValue.parse(Array(text.utf8), maximumDepth: depth)
  }

  @Test func anObjectKeepsItsMembersInTheOrderTheyWereRead() throws {
    let text = #"{"zebra":1,"apple":[true,null,"é\n"],"mango":{"b":-0.5e3,"a":"\u2028"}}"#
    let value = try parse(text)
    guard case .object(let members) = value else {
      Issue.record("not an object: \(value)")
      return
    }
    #expect(members.map(\.0) == ["zebra", "apple", "mango"])
    // Written back the same, byte for byte (U+2028 escaped, so the text stays one line).
    #expect(value.text == text)
    #expect(try parse(value.text) == value)
  }

  @Test func equalityFollowsTheMembersOrder() throws {
    #expect(try parse(#"{"a":1,"b":2}"#) == parse(#"{"a":1,"b":2}"#))
    #expect(try parse(#"{"a":1,"b":2}"#) != parse(#"{"b":2,"a":1}"#))
    // By key, the order does not matter.
    #expect(try parse(#"{"a":1,"b":2}"#).object == parse(#"{"b":2,"a":1}"#).object)
  }

  @Test func membersAreReadByKey() throws {
    let value = try parse(#"{"type":"counter.add","amount":3,"on":false}"#)
    #expect(value["type"]?.string == "counter.add")
    #expect(value["amount"]?.int == 3)
    #expect(value["on"]?.bool == false)
    #expect(value["missing"] == nil)
    #expect(JSONValue.array([])["type"] == nil)
  }

  @Test(arguments: [
    (#"{"a":1,}"#, "a trailing comma", 7),
    (#"{"a":1,"a":2}"#, "duplicate key 'a'", 12),
    (#"{'a':1}"#, "a key that is not a string", 1),
    (#"{"a":01}"#, "a number with a leading zero", 6),
    (#"{"a":1"#, "the end of the input inside an object", 6),
    ("[1,2", "the end of the input inside an array", 4),
    (#"{"a":"\ud800"}"#, "a lone surrogate in a \\u escape", 12),
    ("\u{FEFF}{}", "a byte-order mark (the input must be UTF-8 without one)", 0),
    ("{} x", "unexpected data after the value", 3),
    ("", "the end of the input where a value was expected", 0),
  ])
  func whatTheStandardDoesNotAllowIsRefusedSayingWhatAndWhere(
    _ text: String, _ reason: String, _ offset: Int
  ) {
    #expect(throws: JSONValue.ParseError(reason: reason, offset: offset)) {
      try parse(text)
    }
  }

  @Test func nestingIsBoundedByTheCallersLimitWithoutRecursingPastIt() throws {
    let deep = { (levels: Int) in
      String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
    }
    #expect(throws: Never.self) { try parse(deep(32)) }
    #expect(
      throws: JSONValue.ParseError(reason: "nested too deeply (at most 32 levels)", offset: 32)
    ) {
      try parse(deep(33))
    }
    // A record's line may nest deeper; a million levels are still refused at the limit.
    #expect(throws: Never.self) { try parse(deep(512), depth: 512) }
    #expect(throws: JSONValue.ParseError.self) { try parse(deep(1_000_000), depth: 512) }
  }

  @Test func aDoubleIsWrittenSoThatItReadsBackAsADouble() {
    #expect(JSONValue.number(1).text == "1.0")
    #expect(JSONValue.number(0.25).text == "0.25")
    #expect(JSONValue.number(.infinity).text == #""inf""#)
  }
}
