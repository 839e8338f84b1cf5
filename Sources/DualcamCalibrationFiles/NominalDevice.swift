import DualcamGeometry
import Foundation

/// The nominal phone wide/tele device profile, embedded so the built binary
/// works without the source tree. `yaml` is byte-for-byte the file
/// `Calibration/devices/nominal-phone-wide-tele.yaml` (a test checks it); edit
/// the file and regenerate this constant together.
///
/// NOMINAL: typical values (wide 4032x3024, fx 3000 px; tele fx 6000 px;
/// baseline ~10 mm along x; 0.2 deg relative rotation), not a measurement.
public enum NominalDevice {
    /// The profile's file name under `Calibration/devices/`.
    public static let fileName = "nominal-phone-wide-tele.yaml"

    /// Parses the embedded profile.
    public static func load() throws -> CalibrationFile {
        try CalibrationFile(yaml: yaml, path: "<embedded \(fileName)>")
    }

    /// The embedded YAML text.
    public static let yaml = #"""
# NOMINAL device profile: typical values for a phone's wide + 2x tele dual
# camera. Not a measurement of any real device; use it for demos, tests and as
# a starting point. Replace it with a real calibration for metric work.
#
# Wide: 4:3 sensor read out at 4032x3024, fx = 3000 px (HFOV 67.8 deg, about a
# 26 mm full-frame equivalent), mild Brown-Conrady distortion.
# Tele: same image size, fx = 6000 px (twice the wide's, HFOV 37.1 deg, about
# 52 mm equivalent), no distortion.
# tele_from_wide: X_tele = R X_wide + t, t in mm; baseline about 10 mm along x,
# relative rotation 0.2 deg. Format: Calibration/README.md.
dualcam_calibration: 1
reference: wide
cameras:
- name: wide
  kind: camera
  image_size: {width: 4032, height: 3024}
  intrinsics:
    fx: 3000.0
    fy: 3000.0
    skew: 0.0
    cx: 2011.5
    cy: 1518.25
  distortion:
    model: brown_conrady
    k1: -0.035
    k2: 0.062
    p1: 0.0
    p2: 0.0
    k3: -0.021
- name: tele
  kind: camera
  image_size: {width: 4032, height: 3024}
  intrinsics:
    fx: 6000.0
    fy: 6000.0
    skew: 0.0
    cx: 2020.0
    cy: 1509.0
  distortion: {model: none}
extrinsics:
  tele_from_wide:
    rotation: [0.9999942585991619, 0.0005040736549721407, 0.0033509220317507952, -0.0005012661239999716, 0.9999995227197347, -0.0008386254084350778, -0.003351343161396621, 0.0008369408898517762, 0.9999940339966842]
    translation: [-10.0, 0.1, 0.0]
    unit: mm
provenance:
  source: nominal
  tool: dualcam (hand-written nominal profile)
  date: "2025-01-15"
  notes: NOMINAL typical phone wide/tele values, not a measurement of any device

"""#
}
