import FavoriteClient
import Foundation
import LiveStorage

extension FavoriteClient {
  /// Favorites kept in `storage` for `owner` (the local profile, or a visitor).
  ///
  /// A save is stored before it is acknowledged; when the storage fails, the save throws its
  /// ``StorageError``, whose message is what the favorite button's alert shows.
  public static func live(storage: any Storage, owner: String) -> Self {
    Self(
      favorites: { try await storage.favorites(owner: owner) },
      favorite: { episode, isFavorite in
        try await storage.setFavorite(isFavorite, episode: episode, owner: owner)
        return isFavorite
      })
  }
}
