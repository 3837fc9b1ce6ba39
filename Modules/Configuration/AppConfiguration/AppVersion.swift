/// The version both executables print for `--version`; raised by hand with each release.
public enum AppVersion {
  public static let current = "0.2.0"
}
