import ComposableArchitecture
import Foundation
import SettingsClient
import Units

/// The settings form of the seed "settings-bindings", built on bindings.
///
/// Every control writes its field through ``Action/binding(_:)``; ``BindingReducer`` applies it
/// and the logic after it reacts to particular fields:
/// - the display name is validated as it is typed: control characters are rejected (tabs and
///   line breaks count as white space), leading white space is dropped, runs of white space
///   become one space, and it is capped at
///   ``State/maximumDisplayNameLength`` characters (``State/displayNameError`` says why a value
///   was changed);
/// - turning notifications off turns the per-channel switches off, and a channel cannot be on
///   while notifications are off.
///
/// ``Action/resetButtonTapped`` asks first: it presents a confirmation dialog (a
/// ``Destination`` presented with `@Presents`); confirming restores every default, cancelling
/// changes nothing.
///
/// The values are kept with `SettingsClient`: ``Action/task`` loads them (the front end sends it
/// once, when the form's owner appears), and every change of a kept value saves them at once, a
/// newer save cancelling an older one still in flight. A failed load or save leaves the values in
/// memory and says so in ``State/storageError``; the next successful save clears it.
@Reducer
public struct Settings: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    /// What is presented over the form: the reset confirmation.
    @Presents public var destination: Destination.State?
    public var digest: Digest
    public var displayName: String
    /// The display name as others show it (without surrounding white space), shared by
    /// reference: a feature that greets the user reads it through `SharedReader`.
    @Shared public var publicName: String
    public var displayNameError: String?
    public var enableNotifications: Bool
    public var isHapticFeedbackEnabled: Bool
    /// Whether the kept values are being loaded.
    public var isLoading: Bool
    public var protectMyPosts: Bool
    public var sendEmailNotifications: Bool
    public var sendMobileNotifications: Bool
    /// Why the values could not be loaded or saved, until a save succeeds.
    public var storageError: String?
    /// The unit forecasts are shown in.
    public var temperatureUnit: TemperatureUnit

    /// Whether the e-mail and mobile channels can be chosen: only while notifications are on
    /// (the reducer turns both off with them). Front ends show the two switches disabled
    /// otherwise, instead of letting them snap back.
    public var canChooseNotificationChannels: Bool { enableNotifications }

    public static let maximumDisplayNameLength = 32

    public init(
      destination: Destination.State? = nil,
      digest: Digest = .daily,
      displayName: String = "",
      publicName: Shared<String>? = nil,
      displayNameError: String? = nil,
      enableNotifications: Bool = false,
      isHapticFeedbackEnabled: Bool = true,
      isLoading: Bool = false,
      protectMyPosts: Bool = false,
      sendEmailNotifications: Bool = false,
      sendMobileNotifications: Bool = false,
      storageError: String? = nil,
      temperatureUnit: TemperatureUnit = .celsius
    ) {
      self.destination = destination
      self.digest = digest
      self.displayName = displayName
      self._publicName =
        publicName ?? Shared(value: displayName.trimmingCharacters(in: .whitespaces))
      self.displayNameError = displayNameError
      self.enableNotifications = enableNotifications
      self.isHapticFeedbackEnabled = isHapticFeedbackEnabled
      self.isLoading = isLoading
      self.protectMyPosts = protectMyPosts
      self.sendEmailNotifications = sendEmailNotifications
      self.sendMobileNotifications = sendMobileNotifications
      self.storageError = storageError
      self.temperatureUnit = temperatureUnit
    }
  }

  /// How often a digest e-mail is sent.
  public enum Digest: String, CaseIterable, Codable, Equatable, Sendable {
    case daily
    case weekly
    case off
  }

  /// What can be presented over the form.
  @Reducer
  public enum Destination {
    case confirmReset(ConfirmationDialogState<ResetConfirmation>)
  }

  /// The buttons of the reset confirmation besides Cancel.
  @CasePathable
  public enum ResetConfirmation: Equatable, Sendable {
    case reset
  }

  public enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
    case destination(PresentationAction<Destination.Action>)
    case loadResponse(Result<StoredSettings, StorageFailure>)
    case resetButtonTapped
    /// A save ended: nil when it succeeded (sent only when there was an error to clear).
    case saveResponse(StorageFailure?)
    /// Loads the kept values; sent once by the front end.
    case task
  }

  /// Why loading or saving failed, as the user is told.
  public struct StorageFailure: Error, Equatable, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
  }

  private enum CancelID { case save }

  @Dependency(\.settingsClient) var settingsClient

  public init() {}

  public var body: some ReducerOf<Self> {
    // The form, then a save whenever a kept value changed (the whole form is inside, so a
    // binding's change counts too).
    CombineReducers {
      BindingReducer()
      Reduce { state, action in
        switch action {
        case .binding(\.displayName):
          state.takeDisplayName()
          return .none

        case .binding(\.enableNotifications), .binding(\.sendEmailNotifications),
          .binding(\.sendMobileNotifications):
          state.keepChannelsOffWithoutNotifications()
          return .none

        case .binding:
          return .none

        case .task:
          state.isLoading = true
          return .run { send in
            let response: Result<StoredSettings, StorageFailure>
            do {
              response = .success(try await settingsClient.load())
            } catch {
              response = .failure(StorageFailure(loading: error))
            }
            await send(.loadResponse(response))
          }

        case .loadResponse(.success(let stored)):
          state.isLoading = false
          state.apply(stored)
          return .none

        case .loadResponse(.failure(let failure)):
          state.isLoading = false
          state.storageError = failure.message
          return .none

        case .saveResponse(let failure):
          state.storageError = failure?.message
          return .none

        case .resetButtonTapped:
          state.destination = .confirmReset(.resetSettings)
          return .none

        case .destination(.presented(.confirmReset(.reset))):
          // Every default, but the same shared name: those reading it keep reading it.
          state = State(publicName: state.$publicName)
          state.$publicName.withLock { $0 = "" }
          return .none

        case .destination:
          return .none
        }
      }
      .ifLet(\.$destination, action: \.destination)
    }
    .onChange(of: \.stored) { _, stored in
      Reduce { state, action in
        // What a load put in is what the client holds already; every other change is saved.
        if case .loadResponse = action { return .none }
        return save(stored, clearingError: state.storageError != nil)
      }
    }
  }

  private func save(_ stored: StoredSettings, clearingError: Bool) -> Effect<Action> {
    .run { send in
      do {
        try await settingsClient.save(stored)
        if clearingError { await send(.saveResponse(nil)) }
      } catch is CancellationError {
        // A newer save replaced this one.
      } catch {
        await send(.saveResponse(StorageFailure(saving: error)))
      }
    }
    .cancellable(id: CancelID.save, cancelInFlight: true)
  }
}

extension Settings.StorageFailure {
  init(loading error: any Error) {
    self.init(message: "Settings could not be loaded (\(error.localizedDescription)).")
  }

  init(saving error: any Error) {
    self.init(
      message:
        "Settings could not be saved (\(error.localizedDescription)); they are kept until the app quits."
    )
  }
}

extension Settings.Destination.State: Equatable, Sendable {}
extension Settings.Destination.Action: Equatable, Sendable {}

extension ConfirmationDialogState where Action == Settings.ResetConfirmation {
  /// "Reset all settings?" with a destructive Reset and a Cancel.
  public static let resetSettings = Self(titleVisibility: .visible) {
    TextState("Reset all settings?")
  } actions: {
    ButtonState(role: .destructive, action: .reset) { TextState("Reset") }
    ButtonState(role: .cancel) { TextState("Cancel") }
  } message: {
    TextState("Every setting goes back to its default.")
  }
}

extension Settings.State {
  /// The values that are kept (everything but what is presented, errors and loading).
  public var stored: StoredSettings {
    StoredSettings(
      digest: digest.rawValue,
      displayName: displayName,
      enableNotifications: enableNotifications,
      isHapticFeedbackEnabled: isHapticFeedbackEnabled,
      protectMyPosts: protectMyPosts,
      sendEmailNotifications: sendEmailNotifications,
      sendMobileNotifications: sendMobileNotifications,
      temperatureUnit: temperatureUnit.rawValue)
  }

  /// Takes the kept values, through the form's rules: a name is validated as if typed, channels
  /// are off while notifications are, and a value not kept, or a choice this version does not
  /// know, keeps its current value.
  mutating func apply(_ stored: StoredSettings) {
    digest = stored.digest.flatMap(Settings.Digest.init(rawValue:)) ?? digest
    if let name = stored.displayName {
      displayName = name
      takeDisplayName()
    }
    enableNotifications = stored.enableNotifications ?? enableNotifications
    isHapticFeedbackEnabled = stored.isHapticFeedbackEnabled ?? isHapticFeedbackEnabled
    protectMyPosts = stored.protectMyPosts ?? protectMyPosts
    sendEmailNotifications = stored.sendEmailNotifications ?? sendEmailNotifications
    sendMobileNotifications = stored.sendMobileNotifications ?? sendMobileNotifications
    keepChannelsOffWithoutNotifications()
    temperatureUnit =
      stored.temperatureUnit.flatMap(TemperatureUnit.init(rawValue:)) ?? temperatureUnit
  }

  /// The display name without surrounding white space, as it is shown elsewhere.
  public var trimmedDisplayName: String {
    displayName.trimmingCharacters(in: .whitespaces)
  }

  /// Validates the name as typed and publishes it, trimmed, to those who show it.
  fileprivate mutating func takeDisplayName() {
    validateDisplayName()
    let name = trimmedDisplayName
    if publicName != name { $publicName.withLock { $0 = name } }
  }

  /// A channel cannot be on while notifications are off.
  fileprivate mutating func keepChannelsOffWithoutNotifications() {
    if !enableNotifications {
      sendEmailNotifications = false
      sendMobileNotifications = false
    }
  }

  fileprivate mutating func validateDisplayName() {
    var errors: [String] = []
    var scalars = String.UnicodeScalarView()
    var previousWasSpace = true  // drops leading white space
    for scalar in displayName.unicodeScalars {
      // Tabs and line breaks are white space; any other control character is refused.
      let isSpace = CharacterSet.whitespacesAndNewlines.contains(scalar)
      if !isSpace, CharacterSet.controlCharacters.contains(scalar) {
        if !errors.contains(Self.controlCharacterError) {
          errors.append(Self.controlCharacterError)
        }
        continue
      }
      if isSpace && previousWasSpace { continue }
      scalars.append(isSpace ? " " : scalar)
      previousWasSpace = isSpace
    }
    var name = String(scalars)
    if name.count > Self.maximumDisplayNameLength {
      name = String(name.prefix(Self.maximumDisplayNameLength))
      errors.append(Self.lengthError)
    }
    displayName = name
    displayNameError = errors.isEmpty ? nil : errors.joined(separator: " ")
  }

  static let controlCharacterError = "Display names can't contain control characters."
  static var lengthError: String {
    "Display names are limited to \(maximumDisplayNameLength) characters."
  }
}
