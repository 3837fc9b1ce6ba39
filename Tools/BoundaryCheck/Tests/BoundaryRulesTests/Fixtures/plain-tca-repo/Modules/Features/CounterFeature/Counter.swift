import ComposableArchitecture

@Reducer
struct Counter {
  @ObservableState
  @RecordDecodable
  struct State: Equatable {
    var count = 0
  }
  enum Action { case tapped }
  func replay(_ value: RecordedValue) {}
}
