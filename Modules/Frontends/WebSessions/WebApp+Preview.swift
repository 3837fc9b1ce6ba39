import ComposableArchitecture
import WebFrontend

extension WebApp {
  /// The app a web preview serves: the feature's section alone, titled
  /// "<section title> — preview" (``WebPreview``).
  public init<Feature>(_ preview: WebPreview<Feature>) {
    self.init(
      preview.root, title: preview.title, initialState: preview.initialState,
      api: WebAPI([.feature(Feature.self)]), start: preview.start)
  }
}
