import FuzzSupport
@_spi(Oracles) import ReceiptModel

/// The payload decoder reads attributes in Apple's canonical shape through a fast path; this oracle reads the same
/// bytes through the general path too and requires the same views, findings and error.
public enum PathOracle {
    public static func check(_ harness: String, _ file: [UInt8]) {
        func decode(_ canonical: Bool) -> (views: [AttributeView], payload: ReceiptPayload) {
            var views: [AttributeView] = []
            let payload = PayloadReader.read(file: file, segments: [0..<file.count], depth: 0, limits: .default,
                                             nodesRead: 0, truncated: false, usesCanonicalPath: canonical) { view, _ in
                views.append(view)
            }
            return (views, payload)
        }
        let fast = decode(true)
        let general = decode(false)
        guard fast.views == general.views else {
            let index = fast.views.indices.first { $0 >= general.views.count || fast.views[$0] != general.views[$0] }
                ?? fast.views.count
            Fuzz.fail(harness, "the canonical fast path and the general path decode view \(index) differently:\n  fast    "
                      + (index < fast.views.count ? "\(fast.views[index])" : "none") + "\n  general "
                      + (index < general.views.count ? "\(general.views[index])" : "none"), input: file)
        }
        guard fast.payload.findings == general.payload.findings, fast.payload.error == general.payload.error else {
            Fuzz.fail(harness, "the canonical fast path and the general path report differently:\n  fast    "
                      + "\(fast.payload.findings) \(String(describing: fast.payload.error))\n  general "
                      + "\(general.payload.findings) \(String(describing: general.payload.error))", input: file)
        }
    }
}
