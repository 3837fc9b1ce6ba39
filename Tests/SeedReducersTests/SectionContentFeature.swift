// Seed: the post "counter-fact-timer" — `SectionContentFeature`, assembled from the
// fragments the post builds up: lines 43-77 (State, Action, body skeleton), 114-125 (increment and
// decrement), 148-172 (fact request) and 191-229 (timer, cancel identifiers).
//
// Edits relative to the seed:
// - SwiftUI views (`SectionContentView`, lines 2-32, 91-113, 130-147, 175-188) removed.
// - Fragments merged into the final version: the `...(생략)` / `... (생략)` placeholders replaced by
//   the cases shown in the other fragments; the `...` placeholder inside `CancelIdentifiers` dropped.
// - Indentation restored (the blog lost it); comments kept as in the seed.
// - `#if canImport(FoundationNetworking) import FoundationNetworking #endif` added: `URLSession`
//   lives there on Linux.

import ComposableArchitecture
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct SectionContentFeature: Reducer {
  struct State: Equatable {
    // 뷰에서 필요한 상태값들을 정의
    var count: Int = 0
    var fact: String? = nil
    var isTimerOn: Bool = false
  }
  // 유저가 UI와 상호작용하는 동작들 정의
  // Side Effect를 반환하는 case도 넣을 수 있음 (밑에서 설명 예정)
  // TCA는 명확함과 간결성을 위해 액션의 이름을 logic-based가 아닌 사용자 인터렉션에 따라 지정하는 것을 선호한다고 강조.
  // (incrementCounts X -> incrementButtonTapped O)
  enum Action {
    case incrementButtonTapped
    case decrementButtonTapped
    case getFactButtonTapped
    case factResponse(String)  // response를 받기위한 액션 추가
    case timerButtonTapped
    case timerCounts  // 타이머 카운트 올라가는 값 전달
  }

  // 캔슬 identifiers
  private enum CancelIdentifiers: CaseIterable {
    case cancelTimer
  }

  var body: some ReducerOf<Self> {
    // 여러개의 reducer를 가질 수 있음.
    // inout 파라미터로 현재 state를 캡처
    // 리턴값은 Effect
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped:
        state.count += 1
        return .none
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      case .getFactButtonTapped:
        return .run { [count = state.count] send in  // 캡처
          let (data, _) = try await URLSession.shared.data(
            from: URL(string: "http://www.numbersapi.com/\(count)")!)
          let fact = String(data: data, encoding: .utf8) ?? ""
          await send(.factResponse(fact))
        }
      case .factResponse(let fact):
        state.fact = fact
        return .none
      case .timerButtonTapped:
        state.isTimerOn.toggle()
        if state.isTimerOn {
          return .run { send in
            while true {
              try await Task.sleep(for: .seconds(1))
              await send(.timerCounts)  // 비동기에서 값 변경 X
            }
          }
          .cancellable(id: CancelIdentifiers.cancelTimer)
        } else {
          // cancel effect로 캔슬 가능
          return .cancel(id: CancelIdentifiers.cancelTimer)
        }
      case .timerCounts:
        state.count += 1
        return .none
      }
    }
  }
}
