import ComposableArchitecture
import FactClient
import Foundation
import RandomNumberClient

/// A counter with number facts, random numbers and a one-second timer.
///
/// From the seeds "counter-fact-timer" and "random-number-dependencies": the count changes with
/// the increment and decrement buttons, with a random number from ``RandomNumberClient``, and with
/// every tick of a timer on the `continuousClock`; a fact about the current count comes from
/// ``FactClient`` (the text names its number, so it stays when the count moves on). Requests show
/// an in-flight flag and a visible error when they fail; a new request replaces one in flight.
@Reducer
public struct Counter: Sendable {
  @ObservableState
  public struct State: Equatable, Identifiable, Sendable, Codable {
    public var id: UUID
    public var count: Int
    public var fact: String?
    public var factError: String?
    public var isFactRequestInFlight: Bool
    public var isRandomNumberRequestInFlight: Bool
    public var randomNumberError: String?
    public var isTimerOn: Bool

    public init(
      id: UUID = UUID(),
      count: Int = 0,
      fact: String? = nil,
      factError: String? = nil,
      isFactRequestInFlight: Bool = false,
      isRandomNumberRequestInFlight: Bool = false,
      randomNumberError: String? = nil,
      isTimerOn: Bool = false
    ) {
      self.id = id
      self.count = count
      self.fact = fact
      self.factError = factError
      self.isFactRequestInFlight = isFactRequestInFlight
      self.isRandomNumberRequestInFlight = isRandomNumberRequestInFlight
      self.randomNumberError = randomNumberError
      self.isTimerOn = isTimerOn
    }

    /// The range random numbers are drawn from.
    public static let randomRange = 1...100
  }

  public enum Action: Sendable {
    case decrementButtonTapped
    case factButtonTapped
    case factResponse(Result<String, any Error>)
    case incrementButtonTapped
    case randomNumberButtonTapped
    case randomNumberResponse(Result<Int, any Error>)
    case timerButtonTapped
    case timerTicked
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.factClient) var factClient
  @Dependency(\.randomNumberClient) var randomNumberClient

  private enum CancelID { case fact, randomNumber, timer }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none

      case .factButtonTapped:
        state.isFactRequestInFlight = true
        state.fact = nil
        state.factError = nil
        return .run { [count = state.count] send in
          await send(.factResponse(Result { try await factClient.fetch(count) }))
        }
        .cancellable(id: CancelID.fact, cancelInFlight: true)

      case .factResponse(.success(let fact)):
        state.isFactRequestInFlight = false
        state.fact = fact
        return .none

      case .factResponse(.failure(let error)):
        state.isFactRequestInFlight = false
        state.factError = error.localizedDescription
        return .none

      case .incrementButtonTapped:
        state.count += 1
        return .none

      case .randomNumberButtonTapped:
        state.isRandomNumberRequestInFlight = true
        state.randomNumberError = nil
        let range = State.randomRange
        return .run { send in
          await send(
            .randomNumberResponse(
              Result {
                try await randomNumberClient.fetch(min: range.lowerBound, max: range.upperBound)
              }
            )
          )
        }
        .cancellable(id: CancelID.randomNumber, cancelInFlight: true)

      case .randomNumberResponse(.success(let number)):
        state.isRandomNumberRequestInFlight = false
        state.count = number
        return .none

      case .randomNumberResponse(.failure(let error)):
        state.isRandomNumberRequestInFlight = false
        state.randomNumberError = error.localizedDescription
        return .none

      case .timerButtonTapped:
        state.isTimerOn.toggle()
        guard state.isTimerOn else {
          return .cancel(id: CancelID.timer)
        }
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)

      case .timerTicked:
        state.count += 1
        return .none
      }
    }
  }
}
