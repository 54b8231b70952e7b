/// What a report is for, whatever the document: the dump (everything read) or the verdicts (`verify`).
package enum ReportPurpose: Sendable {
    case dump
    case verify
}
