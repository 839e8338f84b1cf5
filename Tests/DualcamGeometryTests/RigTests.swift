import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class RigTests: XCTestCase {
    func cameras(_ names: [FrameName]) throws -> [RigCamera] {
        try names.map { name in
            let k = name == .tele ? try teleIntrinsics() : try wideIntrinsics()
            return RigCamera(name: name, model: CameraModel(intrinsics: k))
        }
    }

    func teleFromWide() throws -> RigidTransform {
        try RigidTransform(rotation: Rotation(axis: Vector3(0.2, 1, -0.1), angle: Angle.radians(0.8)),
                           translation: Vector3(-10.3, 0.4, -0.2), unit: .millimetre, from: .wide, to: .tele)
    }

    func lidarFromWide() throws -> RigidTransform {
        try RigidTransform(rotation: Rotation(axis: Vector3(1, 0.3, 0.2), angle: Angle.radians(1.5)),
                           translation: Vector3(5.1, -12.7, 1.3), unit: .millimetre, from: .wide, to: .lidar)
    }

    func wideTeleRig() throws -> Rig {
        try Rig(reference: .wide, cameras: try cameras([.wide, .tele]), extrinsics: [try teleFromWide()])
    }

    // MARK: Construction

    func testValidRig() throws {
        let rig = try wideTeleRig()
        XCTAssertEqual(rig.reference, .wide)
        XCTAssertEqual(rig.cameraNames, [.wide, .tele])
        XCTAssertEqual(try rig.camera(.tele).model.intrinsics, try teleIntrinsics())
        XCTAssertEqual(try rig.camera(.tele).size, PixelSize(width: 4032, height: 3024))
        XCTAssertEqual(rig.extrinsics[.tele], try teleFromWide())
        XCTAssertNil(rig.extrinsics[.wide])
    }

    func testDuplicateNamesThrow() throws {
        let error = assertGeometryError(try Rig(reference: .wide, cameras: try cameras([.wide, .tele, .tele]),
                                                extrinsics: [try teleFromWide()]))
        guard case .invalidRig = error else { return XCTFail("wrong error \(String(describing: error))") }
        XCTAssertTrue(error!.description.contains("unique"), error!.description)
    }

    func testUnknownReferenceThrows() throws {
        let error = assertGeometryError(try Rig(reference: .lidar, cameras: try cameras([.wide, .tele]),
                                                extrinsics: [try teleFromWide()]))
        guard case .invalidRig = error else { return XCTFail("wrong error \(String(describing: error))") }
        XCTAssertTrue(error!.description.contains("lidar"), error!.description)
    }

    func testMissingExtrinsicsThrow() throws {
        let error = assertGeometryError(try Rig(reference: .wide, cameras: try cameras([.wide, .tele]), extrinsics: []))
        guard case .invalidRig = error else { return XCTFail("wrong error \(String(describing: error))") }
        XCTAssertTrue(error!.description.contains("tele"), error!.description)
        XCTAssertTrue(error!.description.contains("no extrinsics"), error!.description)
        // Three cameras, one transform missing.
        XCTAssertThrowsError(try Rig(reference: .wide, cameras: try cameras([.wide, .tele, .lidar]),
                                     extrinsics: [try teleFromWide()]))
    }

    func testExtrinsicsMustMapFromTheReferenceToAKnownCamera() throws {
        // Given in the wrong direction (wideFromTele).
        XCTAssertThrowsError(try Rig(reference: .wide, cameras: try cameras([.wide, .tele]),
                                     extrinsics: [try teleFromWide().inverse])) { error in
            XCTAssertTrue("\(error)".contains("from the reference"), "\(error)")
        }
        // Naming a camera the rig does not have.
        XCTAssertThrowsError(try Rig(reference: .wide, cameras: try cameras([.wide, .tele]),
                                     extrinsics: [try teleFromWide(), try lidarFromWide()]))
        // Mapping the reference onto itself.
        XCTAssertThrowsError(try Rig(reference: .wide, cameras: try cameras([.wide, .tele]),
                                     extrinsics: [try teleFromWide(), .identity(.wide)]))
        // Two transforms for one camera.
        XCTAssertThrowsError(try Rig(reference: .wide, cameras: try cameras([.wide, .tele]),
                                     extrinsics: [try teleFromWide(), try teleFromWide()])) { error in
            XCTAssertTrue("\(error)".contains("two extrinsics"), "\(error)")
        }
    }

    func testUnknownCameraLookupThrows() throws {
        let rig = try wideTeleRig()
        XCTAssertThrowsError(try rig.camera(.lidar)) { error in
            XCTAssertTrue("\(error)".contains("wide, tele"), "\(error)")
        }
        XCTAssertThrowsError(try rig.transform(from: .wide, to: .lidar))
        XCTAssertThrowsError(try rig.cameraFromReference("depth"))
    }

    // MARK: Transforms

    func testReferenceIsIdentity() throws {
        let rig = try wideTeleRig()
        let t = try rig.cameraFromReference(.wide)
        XCTAssertEqual(t.rotation, .identity)
        XCTAssertEqual(t.translation, .zero)
        XCTAssertEqual(t.source, .wide)
        XCTAssertEqual(t.target, .wide)
        let self2self = try rig.transform(from: .tele, to: .tele)
        XCTAssertClose(self2self.rotation.matrix, .identity, absolute: 1e-15)
        XCTAssertClose(self2self.translation, .zero, absolute: 1e-14)
    }

    func testWideToTeleIsTheStoredExtrinsics() throws {
        let rig = try wideTeleRig()
        let t = try rig.transform(from: .wide, to: .tele)
        XCTAssertEqual(t.name, "teleFromWide")
        XCTAssertClose(t.rotation.matrix, try teleFromWide().rotation.matrix, absolute: 1e-15)
        XCTAssertClose(t.translation, try teleFromWide().translation, absolute: 1e-13)
        XCTAssertEqual(t.unit, .millimetre)
        // In metres on request.
        let m = try rig.transform(from: .wide, to: .tele, unit: .metre)
        XCTAssertEqual(m.unit, .metre)
        XCTAssertClose(m.translation, try teleFromWide().translation / 1000, absolute: 1e-16)
        XCTAssertClose(try rig.cameraFromReference(.tele, unit: .metre).translation, Vector3(-0.0103, 0.0004, -0.0002),
                       absolute: 1e-16)
    }

    func testTeleToWideIsTheInverse() throws {
        var rng = SeededGenerator(seed: 71)
        let rig = try wideTeleRig()
        let wt = try rig.transform(from: .wide, to: .tele), tw = try rig.transform(from: .tele, to: .wide)
        XCTAssertEqual(tw.source, .tele)
        XCTAssertEqual(tw.target, .wide)
        XCTAssertClose(tw.rotation.matrix, wt.rotation.matrix.transposed, absolute: 1e-15)
        XCTAssertClose(tw.translation, -(wt.rotation.inverse * wt.translation), absolute: 1e-13)
        for _ in 0..<100 {
            let x = Vector3(rng.uniform(-2000...2000), rng.uniform(-2000...2000), rng.uniform(100...10000))
            XCTAssertClose(tw.apply(wt.apply(x)), x, absolute: 1e-9)
            XCTAssertClose(wt.apply(tw.apply(x)), x, absolute: 1e-9)
        }
        // The baseline is the same either way.
        XCTAssertClose(tw.baseline, wt.baseline, relative: 1e-14)
        XCTAssertClose(wt.baseline, Vector3(-10.3, 0.4, -0.2).norm, relative: 1e-14)
    }

    func testThreeCameraRig() throws {
        var rng = SeededGenerator(seed: 72)
        let rig = try Rig(reference: .wide, cameras: try cameras([.wide, .tele, .lidar]),
                          extrinsics: [try lidarFromWide(), try teleFromWide()])
        XCTAssertEqual(Set(rig.cameraNames), [.wide, .tele, .lidar])
        let teleFromLidar = try rig.transform(from: .lidar, to: .tele)
        let lidarFromTele = try rig.transform(from: .tele, to: .lidar)
        XCTAssertEqual(teleFromLidar.name, "teleFromLidar")
        for _ in 0..<100 {
            let xWide = Vector3(rng.uniform(-2000...2000), rng.uniform(-2000...2000), rng.uniform(100...10000))
            // The same physical point in each camera's coordinates, by the raw extrinsics.
            let xTele = try teleFromWide().apply(xWide)
            let xLidar = try lidarFromWide().apply(xWide)
            XCTAssertClose(teleFromLidar.apply(xLidar), xTele, absolute: 1e-9)
            XCTAssertClose(lidarFromTele.apply(xTele), xLidar, absolute: 1e-9)
            XCTAssertClose(try rig.transform(from: .lidar, to: .wide).apply(xLidar), xWide, absolute: 1e-9)
            XCTAssertClose(try rig.transform(from: .wide, to: .lidar).apply(xWide), xLidar, absolute: 1e-9)
        }
        // Same rig, re-expressed with the tele as reference: identical pairwise transforms.
        let teleRef = try Rig(reference: .tele, cameras: try cameras([.wide, .tele, .lidar]),
                              extrinsics: [try rig.transform(from: .tele, to: .wide), try rig.transform(from: .tele, to: .lidar)])
        for (a, b) in [(FrameName.wide, FrameName.lidar), (.lidar, .tele), (.wide, .tele), (.tele, .wide)] {
            let t1 = try rig.transform(from: a, to: b), t2 = try teleRef.transform(from: a, to: b)
            XCTAssertClose(t1.rotation.matrix, t2.rotation.matrix, absolute: 1e-14, "\(a)->\(b)")
            XCTAssertClose(t1.translation, t2.translation, absolute: 1e-12, "\(a)->\(b)")
        }
    }

    func testExtrinsicsInOtherUnits() throws {
        // lidarFromWide given in metres: pairwise transforms are still consistent in millimetres.
        let lidarM = try lidarFromWide().converted(to: .metre)
        let rig = try Rig(reference: .wide, cameras: try cameras([.wide, .tele, .lidar]),
                          extrinsics: [lidarM, try teleFromWide()])
        let teleFromLidar = try rig.transform(from: .lidar, to: .tele)
        XCTAssertEqual(teleFromLidar.unit, .millimetre)
        let xWide = Vector3(120, -80, 2500)
        XCTAssertClose(teleFromLidar.apply(try lidarFromWide().apply(xWide)), try teleFromWide().apply(xWide), absolute: 1e-9)
    }

    // MARK: Mutation

    func testSetCameraReplacesTheModel() throws {
        var rig = try wideTeleRig()
        let newK = try teleIntrinsics().scaled(to: PixelSize(width: 1920, height: 1440))
        try rig.setCamera(RigCamera(name: .tele, model: CameraModel(intrinsics: newK)))
        XCTAssertEqual(rig.cameraNames, [.wide, .tele])
        XCTAssertEqual(try rig.camera(.tele).size, PixelSize(width: 1920, height: 1440))
        XCTAssertEqual(try rig.transform(from: .wide, to: .tele), try wideTeleRig().transform(from: .wide, to: .tele))
    }

    func testSetCameraRefusesToAddACameraWithoutExtrinsics() throws {
        var rig = try wideTeleRig()
        XCTAssertThrowsError(try rig.setCamera(RigCamera(name: "depth", model: CameraModel(intrinsics: try wideIntrinsics())))) { error in
            XCTAssertTrue("\(error)".contains("no camera 'depth'"), "\(error)")
        }
        XCTAssertEqual(rig.cameraNames, [.wide, .tele])
        XCTAssertNoThrow(try rig.transform(from: .wide, to: .tele))
    }
}
