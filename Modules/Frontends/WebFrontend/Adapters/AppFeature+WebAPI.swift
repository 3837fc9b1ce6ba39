import AppFeature

extension AppFeature {
  /// The app's web API: every feature the page reaches, one line each, in the order their keys
  /// appear in the state JSON and their actions in the catalogue. A new feature adds its
  /// ``WebFeature`` (a file in `Adapters/`) here.
  public static let webAPI = WebAPI<AppFeature>([
    .feature(TabsWeb.self),
    .feature(CountersWeb.self),
    .feature(SearchWeb.self),
    .feature(SettingsWeb.self),
    .feature(EpisodesWeb.self),
  ])
}
