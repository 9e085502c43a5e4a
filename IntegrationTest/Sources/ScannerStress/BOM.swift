// This file starts with a UTF-8 byte order mark.
import Foundation

struct MarkedFile {
  @Preference var since = Date(timeIntervalSince1970: 0)
  @Preference var homepage = URL(string: "https://example.com")!
}
