import DualcamGeometry
import TestSupport
import XCTest

final class RigidTransformTests: XCTestCase {
    func makeTransform(_ rng: inout SeededGenerator, unit: LengthUnit = .millimetre,
                       from s: FrameName, to t: FrameName, scale: Double = 100) throws -> RigidTransform {
        try RigidTransform(rotation: rng.rotation(degrees: 0...180),
                           translation: Vector3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)) * scale,
                           unit: unit, from: s, to: t)
    }

    func testApplyIsRotationThenTranslation() throws {
        let r = Rotation(axis: Vector3(0, 0, 1), angle: .pi / 2)
        let t = try RigidTransform(rotation: r, translation: Vector3(10, 20, 30), unit: .millimetre,
                                   from: .wide, to: .tele)
        // (1, 0, 0) rotates to (0, 1, 0), then moves by t.
        XCTAssertClose(t.apply(Vector3(1, 0, 0)), Vector3(10, 21, 30), absolute: 1e-14)
        XCTAssertEqual(t.source, .wide)
        XCTAssertEqual(t.target, .tele)
        XCTAssertEqual(t.name, "teleFromWide")
        XCTAssertEqual(t.inverse.name, "wideFromTele")
        XCTAssertEqual(t.baseline, Vector3(10, 20, 30).norm)
    }

    func testNonFiniteTranslationThrows() {
        for bad in [Double.nan, .infinity] {
            XCTAssertThrowsError(try RigidTransform(rotation: .identity, translation: Vector3(0, bad, 0),
                                                    unit: .metre, from: .wide, to: .tele))
        }
    }

    func testInverseRoundTrip() throws {
        var rng = SeededGenerator(seed: 21)
        for _ in 0..<200 {
            let t = try makeTransform(&rng, from: .wide, to: .tele, scale: 200)
            let inv = t.inverse
            XCTAssertEqual(inv.source, .tele)
            XCTAssertEqual(inv.target, .wide)
            XCTAssertEqual(inv.unit, t.unit)
            for _ in 0..<5 {
                let x = Vector3(rng.uniform(-1000...1000), rng.uniform(-1000...1000), rng.uniform(0...5000))
                XCTAssertClose(t.apply(inv.apply(x)), x, absolute: 1e-12 * max(1, x.norm))
                XCTAssertClose(inv.apply(t.apply(x)), x, absolute: 1e-12 * max(1, x.norm))
            }
            // Small coordinates: the 1e-12 bound in absolute terms.
            let x = Vector3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1))
            let small = try RigidTransform(rotation: t.rotation, translation: t.translation / 1000,
                                           unit: .metre, from: .wide, to: .tele)
            XCTAssertClose(small.apply(small.inverse.apply(x)), x, absolute: 1e-12)
            // The inverse maps the target origin back: -R^T t.
            XCTAssertClose(inv.translation, -(t.rotation.inverse * t.translation), absolute: 1e-12)
            XCTAssertClose(inv.baseline, t.baseline, relative: 1e-14)
        }
    }

    func testComposeChainsFrames() throws {
        var rng = SeededGenerator(seed: 22)
        for _ in 0..<100 {
            let wideFromLidar = try makeTransform(&rng, from: .lidar, to: .wide, scale: 20)
            let teleFromWide = try makeTransform(&rng, from: .wide, to: .tele, scale: 20)
            let teleFromLidar = try teleFromWide.composed(after: wideFromLidar)
            XCTAssertEqual(teleFromLidar.source, .lidar)
            XCTAssertEqual(teleFromLidar.target, .tele)
            XCTAssertEqual(teleFromLidar.name, "teleFromLidar")
            for _ in 0..<5 {
                let x = Vector3(rng.uniform(-500...500), rng.uniform(-500...500), rng.uniform(100...3000))
                XCTAssertClose(teleFromLidar.apply(x), teleFromWide.apply(wideFromLidar.apply(x)), absolute: 1e-10)
            }
            // Composing with the inverse gives the identity.
            let identity = try teleFromWide.composed(after: teleFromWide.inverse)
            XCTAssertEqual(identity.source, .tele)
            XCTAssertEqual(identity.target, .tele)
            XCTAssertClose(identity.rotation.matrix, .identity, absolute: 1e-14)
            XCTAssertClose(identity.translation, .zero, absolute: 1e-12)
        }
    }

    func testComposeWithMismatchedFramesThrows() throws {
        var rng = SeededGenerator(seed: 23)
        let wideFromLidar = try makeTransform(&rng, from: .lidar, to: .wide)
        let teleFromWide = try makeTransform(&rng, from: .wide, to: .tele)
        // Wrong order: wideFromLidar after teleFromWide does not chain (tele != lidar).
        let error = assertGeometryError(try wideFromLidar.composed(after: teleFromWide))
        guard case .frameMismatch = error else { return XCTFail("wrong error \(String(describing: error))") }
        XCTAssertTrue(error!.description.contains("do not chain"), error!.description)
        XCTAssertThrowsError(try teleFromWide.composed(after: teleFromWide))
        XCTAssertThrowsError(try teleFromWide.composed(after: teleFromWide.inverse.inverse))
    }

    func testComposeAcrossUnitsUsesTheOuterUnit() throws {
        var rng = SeededGenerator(seed: 24)
        for _ in 0..<50 {
            // wideFromLidar in metres, teleFromWide in millimetres.
            let wideFromLidarM = try makeTransform(&rng, unit: .metre, from: .lidar, to: .wide, scale: 0.05)
            let teleFromWideMM = try makeTransform(&rng, unit: .millimetre, from: .wide, to: .tele, scale: 20)
            let teleFromLidar = try teleFromWideMM.composed(after: wideFromLidarM)
            XCTAssertEqual(teleFromLidar.unit, .millimetre)
            // A point in metres, mapped in metres end to end.
            let xM = Vector3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(0.5...3))
            let viaMetres = teleFromWideMM.converted(to: .metre).apply(wideFromLidarM.apply(xM))
            XCTAssertClose(teleFromLidar.apply(xM * 1000) / 1000, viaMetres, absolute: 1e-12)
            // The other way round (lidarFromWide in metres after wideFromTele in mm) the result is in metres.
            let lidarFromTele = try wideFromLidarM.inverse.composed(after: teleFromWideMM.inverse)
            XCTAssertEqual(lidarFromTele.unit, .metre)
            XCTAssertEqual(lidarFromTele.source, .tele)
            XCTAssertEqual(lidarFromTele.target, .lidar)
            let expected = wideFromLidarM.inverse.apply(teleFromWideMM.converted(to: .metre).inverse.apply(xM))
            XCTAssertClose(lidarFromTele.apply(xM), expected, absolute: 1e-12)
        }
    }

    func testUnitConversion() throws {
        let t = try RigidTransform(rotation: Rotation(axis: Vector3(1, 2, 3), angle: 0.1),
                                   translation: Vector3(-12.5, 0.25, 3), unit: .millimetre, from: .wide, to: .tele)
        let m = t.converted(to: .metre)
        XCTAssertEqual(m.unit, .metre)
        XCTAssertClose(m.translation, Vector3(-0.0125, 0.00025, 0.003), absolute: 1e-17)
        XCTAssertEqual(m.rotation, t.rotation)
        XCTAssertEqual(m.source, t.source)
        XCTAssertEqual(m.target, t.target)
        XCTAssertClose(t.translation(in: .centimetre), Vector3(-1.25, 0.025, 0.3), absolute: 1e-15)
        XCTAssertClose(t.translation(in: .inch), Vector3(-12.5, 0.25, 3) / 25.4, absolute: 1e-15)
        XCTAssertEqual(t.converted(to: .millimetre), t)
        // Round trip through another unit.
        XCTAssertClose(m.converted(to: .millimetre).translation, t.translation, absolute: 1e-13)
        // Applying in metres is applying in millimetres, scaled.
        let xMM = Vector3(100, -250, 1800)
        XCTAssertClose(m.apply(xMM / 1000) * 1000, t.apply(xMM), absolute: 1e-11)
        XCTAssertClose(m.baseline * 1000, t.baseline, relative: 1e-14)
    }

    func testIdentity() {
        let i = RigidTransform.identity(.wide)
        XCTAssertEqual(i.unit, .millimetre)
        XCTAssertEqual(i.source, .wide)
        XCTAssertEqual(i.target, .wide)
        XCTAssertEqual(i.apply(Vector3(1, -2, 3)), Vector3(1, -2, 3))
        XCTAssertEqual(RigidTransform.identity(.tele, unit: .metre).unit, .metre)
        XCTAssertEqual(i.baseline, 0)
    }

    func testLengthUnitFactors() {
        XCTAssertEqual(LengthUnit.millimetre.factor(to: .metre), 0.001)
        XCTAssertEqual(LengthUnit.metre.factor(to: .millimetre), 1000)
        XCTAssertClose(LengthUnit.foot.factor(to: .inch), 12, relative: 1e-15)
        XCTAssertClose(LengthUnit.inch.factor(to: .millimetre), 25.4, relative: 1e-15)
        XCTAssertClose(LengthUnit.centimetre.factor(to: .millimetre), 10, relative: 1e-15)
        for a in LengthUnit.allCases {
            XCTAssertEqual(a.factor(to: a), 1)
            for b in LengthUnit.allCases {
                XCTAssertClose(a.factor(to: b) * b.factor(to: a), 1, relative: 1e-15, "\(a) \(b)")
            }
        }
        XCTAssertClose(Angle.radians(180), .pi, relative: 1e-15)
        XCTAssertClose(Angle.degrees(.pi / 2), 90, relative: 1e-15)
    }

    func testFrameNames() {
        XCTAssertEqual(FrameName.wide.rawValue, "wide")
        XCTAssertEqual(FrameName("board"), FrameName(rawValue: "board"))
        XCTAssertEqual("tele" as FrameName, .tele)
        XCTAssertLessThan(FrameName.lidar, FrameName.tele)
        XCTAssertEqual(FrameName.lidar.description, "lidar")
    }

    func testDescriptionNamesTheTransformAndUnit() throws {
        let t = try RigidTransform(rotation: .identity, translation: Vector3(1, 2, 3), unit: .millimetre,
                                   from: .wide, to: .tele)
        XCTAssertTrue(t.description.hasPrefix("teleFromWide:"), t.description)
        XCTAssertTrue(t.description.hasSuffix("mm"), t.description)
    }
}
