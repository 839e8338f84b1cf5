/// Constants several fusion stages share.
enum FusionConstants {
    /// A sample's weight in the fits and fills is at least this: a low
    /// confidence lowers a sample's say, never removes it (outliers are the
    /// verifier's to remove).
    static let sampleConfidenceFloor = 0.05
    /// Median absolute deviation to standard deviation for Gaussian noise
    /// (1 / Phi^-1(3/4)): the robust sigma of the fit and the noise estimate.
    static let madToSigma = 1.4826
    /// The smallest inverse depth (1/m) the log-domain fills take, so that
    /// log stays finite (1000 km: beyond any scene).
    static let logDomainFloor: Float = 1e-6
}
