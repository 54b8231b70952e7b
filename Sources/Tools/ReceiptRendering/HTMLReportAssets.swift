/// The report page's style and script, inline in every page; `HTMLReport` names both by hash in the page's
/// Content-Security-Policy. They are files (`Assets/report.css`, `Assets/report.js`), embedded in the binary at
/// build time (SwiftPM's `embedInCode`), so the page needs nothing beside the binary.
///
/// The script reads the `rcpt-data` element, decodes each space's bytes and nodes into typed arrays, and draws: the
/// verdict, a virtualised tree of every space (a part or an x5c string opens onto the space it decodes to), a
/// virtualised hex view of the selected node's space, the selected node's details and copies, the findings, the
/// chains and the timeline. Text from the input is only ever set with `textContent` (or as an SVG `<title>`'s text),
/// after control and bidirectional characters are made visible. Its pure part (`RcptReportCore`) is unit-tested by
/// Node (`Tests/Report/`). The style uses system fonts only (nothing is fetched), in light and dark schemes.
enum HTMLReportAssets {
    static let script = text(PackageResources.report_js)
    static let style = text(PackageResources.report_css)

    /// A file's text without its final line break: the page closes each element on the line its text ends.
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.last == 0x0A ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
}
