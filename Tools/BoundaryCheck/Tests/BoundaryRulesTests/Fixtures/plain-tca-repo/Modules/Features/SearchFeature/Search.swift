import ComposableArchitecture

// Plain TCA: the words RecordDecodable and RecordedValue in a comment,
/* or RecordDecodable in a block comment, */
@Reducer
struct Search {
  @ObservableState
  struct State: Equatable {
    var text = "RecordedValue is only a string here"
    var alert: Alert? = nil
    var state = InternalHelper()
  }
  enum Action { case typed(String) }
  enum Alert { case ok }
}
