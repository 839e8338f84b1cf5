import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import TestSupport
import XCTest
@testable import DualcamStereo

/// Rectification geometry, the disparity search and bad geometry (no rendering).
final class StereoRectificationTests: XCTestCase {
    static let size = PixelSize(width: 640, height: 480)

    func rectification(_ rig: Rig, scale: Double = 1) throws -> StereoRectification {
        try StereoRectification(rig: rig, wide: rig.camera(.wide).model, tele: rig.camera(.tele).model, scale: scale,
                                margin: { _ in 8 })
    }

    /// Any point seen by both rectified cameras lies on the same row, shifted by d = f B / Z_rect.
    func assertRowAligned(_ rig: Rig, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try rectification(rig)
        let teleFromWide = try rig.transform(from: .wide, to: .tele, unit: .metre)
        let leftIsWide = r.left == .wide
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let z = 0.4 + 6 * Double.random(in: 0..<1, using: &generator)
            let p = Vector3((Double.random(in: 0..<1, using: &generator) - 0.5) * 0.6 * z, (Double.random(in: 0..<1, using: &generator) - 0.5) * 0.4 * z, z)
            let inWide = r.wideRotation * p
            let inTele = r.teleRotation * teleFromWide.apply(p)
            let k = r.intrinsics
            let a = k.pixel(fromNormalized: Vector2(inWide.x / inWide.z, inWide.y / inWide.z))
            let b = k.pixel(fromNormalized: Vector2(inTele.x / inTele.z, inTele.y / inTele.z))
            XCTAssertEqual(a.y, b.y, accuracy: 1e-6, file: file, line: line)
            XCTAssertEqual(inWide.z, inTele.z, accuracy: 1e-9, file: file, line: line)
            let (left, right) = leftIsWide ? (a, b) : (b, a)
            XCTAssertEqual(left.x - right.x, r.pixelsPerInverseMetre / inWide.z, accuracy: 1e-6, file: file, line: line)
        }
    }

    func testNominalRigRectifiesRowAlignedAtTheTeleFocalLength() throws {
        let rig = try Synthesizer.scaledRig(NominalDevice.load().rig, to: Self.size)
        try assertRowAligned(rig)
        let r = try rectification(rig)
        XCTAssertEqual(r.left, .wide)
        XCTAssertEqual(r.narrower, .tele)
        XCTAssertEqual(r.baselineMetres, 0.0100005, accuracy: 1e-6)
        XCTAssertEqual(r.intrinsics.fx, try rig.camera(.tele).model.intrinsics.fx, accuracy: 1e-9)
        // The window is the tele field of view (about 640x480 at the tele focal length) plus the margins.
        XCTAssertEqual(Double(r.size.width - 16), 640, accuracy: 12)
        XCTAssertEqual(Double(r.size.height), 480, accuracy: 12)
        // Every tele corner lands inside the rectified image.
        for corner in [Vector2(0, 0), Vector2(639, 0), Vector2(0, 479), Vector2(639, 479)] {
            let n = try rig.camera(.tele).model.intrinsics.normalized(fromPixel: corner)
            let ray = r.teleRotation * Vector3(n.x, n.y, 1)
            let p = r.intrinsics.pixel(fromNormalized: Vector2(ray.x / ray.z, ray.y / ray.z))
            XCTAssertTrue(p.x >= -0.5 && p.y >= -0.5 && p.x < Double(r.size.width) && p.y < Double(r.size.height), "\(p)")
        }
    }

    func testSameLensAndMirroredPairsRectify() throws {
        let same = try DepthFixtures.sameLensRig()
        try assertRowAligned(same)
        XCTAssertEqual(try rectification(same).narrower, .wide)
        // Tele to the left of the wide: the tele becomes the left camera.
        let nominal = try NominalDevice.load().rig
        let t = try nominal.transform(from: .wide, to: .tele)
        let mirrored = try Rig(reference: .wide, cameras: nominal.cameras,
                               extrinsics: [RigidTransform(rotation: t.rotation, translation: -t.translation, unit: t.unit,
                                                           from: .wide, to: .tele)])
        try assertRowAligned(mirrored)
        XCTAssertEqual(try rectification(mirrored).left, .tele)
    }

    func testCamerasWithoutOverlapAreAnError() throws {
        let nominal = try NominalDevice.load().rig
        let away = try Rig(reference: .wide, cameras: nominal.cameras,
                           extrinsics: [RigidTransform(rotation: Rotation(axis: Vector3(0, 1, 0), angle: .pi / 2),
                                                       translation: Vector3(-10, 0, 0), unit: .millimetre, from: .wide, to: .tele)])
        XCTAssertThrowsError(try rectification(away)) { error in
            XCTAssertTrue("\(error)".contains("overlap"), "\(error)")
        }
    }

    func testBufferSizesMustHaveTheCalibrationAspect() throws {
        let rig = try NominalDevice.load().rig
        XCTAssertThrowsError(try StereoDepthEstimator(rig: rig, wideSize: PixelSize(width: 640, height: 360),
                                                      teleSize: Self.size)) { error in
            XCTAssertTrue("\(error)".contains("aspect"), "\(error)")
            XCTAssertTrue("\(error)".contains("wide"), "\(error)")
        }
    }

    func testDisparitySearchFollowsTheDepthRange() throws {
        var options = StereoDepthOptions()
        // f B = 28.57: 0.3 m -> 95.2 px; the search starts 2 px below 0 and is a multiple of 16.
        var search = try options.disparitySearch(pixelsPerInverseMetre: 28.57)
        XCTAssertEqual(search.min, -2)
        XCTAssertEqual(search.count, 112)
        options.maxDepthMetres = 2
        search = try options.disparitySearch(pixelsPerInverseMetre: 28.57)
        XCTAssertEqual(search.min, 12)
        XCTAssertGreaterThanOrEqual(search.min + search.count - 1, 97)
        options.minDepthMetres = 0.01
        XCTAssertThrowsError(try options.disparitySearch(pixelsPerInverseMetre: 28.57))
        options.minDepthMetres = 3
        XCTAssertThrowsError(try options.validate())
    }
}
