import AppFeature
import AppTerminal
import ComposableArchitecture
import CounterFeature
import Foundation
import SearchFeature
import Testing

@testable import TerminalFrontend

@MainActor
struct ScreenFitTests {
  func screen(counters: Int, style: Style = .plain) -> String {
    let state = AppFeature.State(
      counterList: CounterList.State(
        counters: IdentifiedArray(
          uniqueElements: (0..<counters).map { Counter.State(id: UUID($0)) })))
    return ScreenRenderer.render(state, view: ViewState(), registration: .app, style: style)
  }

  @Test func aScreenThatFitsIsLeftAsItIs() {
    let text = screen(counters: 2)
    #expect(ScreenFit.fit(text, columns: 120, rows: 24).joined(separator: "\n") == text)
  }

  @Test func aSmallWindowKeepsTheHeaderAndTheHelpAndSaysWhatIsCut() {
    let lines = ScreenFit.fit(screen(counters: 7), columns: 40, rows: 10)
    #expect(lines.count == 10)
    #expect(lines[0] == "Composable App")
    #expect(lines[1].hasPrefix("[1 Counters]"))
    #expect(lines[2] == String(repeating: "─", count: 39) + "…")
    // The help wraps between its keys into three lines; seven counters and the blank line before
    // the help are 8 content lines for the 4 rows left, the last of which says what did not fit.
    #expect(lines[3] == "› Counter 1   count: 0   timer: off")
    #expect(lines[5] == "  Counter 3   count: 0   timer: off")
    #expect(lines[6] == "… 5 more lines (a taller window shows t…")
    #expect(
      Array(lines[7...]) == [
        "↑/↓ select · +/- count · f fact",
        "r random · t timer · a add · x remove",
        "1-\(AppFeature.Tab.allCases.count)/Tab screens · q quit",
      ])
    #expect(lines.allSatisfy { ScreenFit.width(of: $0) <= 40 })
  }

  @Test func theSelectedRowStaysOnScreen() {
    // Four counters, the fourth selected, in a window with room for three content rows: the
    // rows before it scroll away, so that + changes a counter the user can see.
    let state = AppFeature.State(
      counterList: CounterList.State(
        counters: IdentifiedArray(uniqueElements: (0..<4).map { Counter.State(id: UUID($0)) })))
    var view = ViewState()
    view.selectedCounter = 3
    let text = ScreenRenderer.render(state, view: view, registration: .app, style: .terminal)
    let lines = ScreenFit.fit(text, columns: 40, rows: 10)
    let content = lines[3..<7].map(ScreenFit.plain)
    #expect(content.contains("› Counter 4   count: 0   timer: off"), "\(content)")
    #expect(!content.contains("  Counter 1   count: 0   timer: off"), "\(content)")
    #expect(content.last?.hasPrefix("… 2 more lines") == true, "\(content)")
  }

  @Test func aConfirmationStaysOnScreen() {
    var state = AppFeature.State(
      counterList: CounterList.State(
        counters: IdentifiedArray(uniqueElements: (0..<6).map { Counter.State(id: UUID($0)) })))
    state.counterList.destination = .confirmRemoval(.removeCounter(id: UUID(0), number: 1))
    let text = ScreenRenderer.render(state, view: ViewState(), registration: .app, style: .plain)
    let lines = ScreenFit.fit(text, columns: 60, rows: 10)
    #expect(lines.contains { $0.hasPrefix("└") }, "\(lines)")
    #expect(lines.contains { $0.contains("Remove Counter 1") }, "\(lines)")
  }

  @Test func aLongQueryIsCutAtTheWindowsEdgeInsteadOfWrapping() {
    var state = AppFeature.State(counterList: CounterList.State(counters: []))
    state.selectedTab = .search
    state.search.searchQuery = String(repeating: "x", count: Search.maximumQueryLength)
    let text = ScreenRenderer.render(state, view: ViewState(), registration: .app, style: .terminal)
    let lines = ScreenFit.fit(text, columns: 40, rows: 10)
    let query = try! #require(lines.first { $0.hasPrefix("Search: ") })
    #expect(query == "Search: " + String(repeating: "x", count: 31) + "…")
    // Coloured lines keep their escape codes, which take no room, and are closed when cut.
    #expect(lines.allSatisfy { ScreenFit.width(of: $0) <= 40 })
    // The dimmed help wraps; each of its lines is dimmed and closed on its own.
    #expect(
      Array(lines.suffix(2)) == [
        "\u{1B}[2m/ type · ↑/↓ select · Enter forecast\u{1B}[0m",
        "\u{1B}[2mc clear · 1-\(AppFeature.Tab.allCases.count)/Tab screens · q quit\u{1B}[0m",
      ])
  }

  /// In a window too low for the wrapped help, the help stays one line, cut at the edge.
  @Test func aHelpTooTallForTheWindowIsCutInstead() {
    let lines = ScreenFit.fit(screen(counters: 1), columns: 20, rows: 6)
    #expect(lines.count == 6)
    #expect(lines[5] == "↑/↓ select · +/- co…")
  }

  @Test func aWindowTooSmallSaysSo() {
    // However narrow, what the window needs is never what is cut.
    #expect(ScreenFit.fit(screen(counters: 1), columns: 19, rows: 10) == ["Needs 20×6"])
    #expect(ScreenFit.fit(screen(counters: 1), columns: 19, rows: 5) == ["Needs 20×6"])
    #expect(ScreenFit.fit(screen(counters: 1), columns: 8, rows: 5) == ["20×6"])
    #expect(ScreenFit.fit(screen(counters: 1), columns: 3, rows: 5) == ["20…"])
    #expect(
      ScreenFit.fit(screen(counters: 1), columns: 60, rows: 5) == [
        "Too small (60×5): needs 20×6"
      ])
  }

  @Test func wideCharactersTakeTwoCells() {
    #expect(ScreenFit.width(of: "서울") == 4)
    #expect(ScreenFit.cut("서울특별시", to: 5) == "서울…")
    #expect(ScreenFit.width(of: "\u{1B}[1mbold\u{1B}[0m") == 4)
  }
}
