public enum DualcamGeometryVersion { public static let placeholderForBuild = 0 }
