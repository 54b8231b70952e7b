import FuzzMutationSupport
import FuzzSupport
import ReceiptBuilding
import ReceiptModel
import ReceiptMutation

/// The RFC 3339 parser. Oracle: parse → `rfc3339UTC` → parse gives the same instant (to the millisecond, the
/// precision the UTC form keeps), and formatting that again gives the same text.
///
/// One deliberate exception (Fuzz/README.md): a local time near the ends of years 0000–9999 with an offset, such
/// as `9999-12-31T23:59:29-0800`, is an instant whose UTC year has no four-digit form. `rfc3339UTC` then writes the
/// year as it is (`10000-…`, `-0001-…`), which RFC 3339 cannot parse; the harness checks exactly that instead.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard case .success(let date) = ReceiptDate.parse(bytes) else { return 0 }
    let utc = date.rfc3339UTC
    let milliseconds = date.millisecondsSinceEpoch
    if milliseconds < DatesHarness.firstFourDigitYearInstant || milliseconds > DatesHarness.lastFourDigitYearInstant {
        guard utc.hasPrefix("-") || utc.prefix { $0 != "-" }.count > 4 else {
            Fuzz.fail(
                "dates",
                "\"\(String(decoding: bytes, as: UTF8.self))\" lies outside years 0000–9999 in UTC "
                    + "but formats as \"\(utc)\"", input: bytes)
        }
        return 0
    }
    switch ReceiptDate.parse(utc) {
    case .failure(let reason):
        Fuzz.fail(
            "dates",
            "\"\(String(decoding: bytes, as: UTF8.self))\" formats as \"\(utc)\", which does not "
                + "parse: \(reason)", input: bytes)
    case .success(let again):
        guard again.millisecondsSinceEpoch == date.millisecondsSinceEpoch else {
            Fuzz.fail(
                "dates",
                "\"\(String(decoding: bytes, as: UTF8.self))\" is \(date.millisecondsSinceEpoch) ms, "
                    + "its UTC form \"\(utc)\" is \(again.millisecondsSinceEpoch) ms", input: bytes)
        }
        guard again.utcOffsetMinutes == 0, again.rfc3339UTC == utc else {
            Fuzz.fail("dates", "\"\(utc)\" formats again as \"\(again.rfc3339UTC)\"", input: bytes)
        }
    }
    return 0
}

/// Edits of the date's fields (`DateTextMutator`: the numbers the parser compares with written into a field's
/// digits or, as minutes, into the offset) six times in ten; libFuzzer's byte mutations otherwise.
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    var random = SplitMix64(seed: UInt64(seed))
    return LibFuzzer.customMutate(data, size, maxSize, random: &random, percent: 60) { random, input in
        var mutator = DateTextMutator(seed: random.next())
        mutator.numbers = DatesHarness.numbers
        return mutator.mutate(input)
    }
}

/// The UTC instants RFC 3339 can write: 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, in milliseconds.
enum DatesHarness {
    static let firstFourDigitYearInstant: Int64 = -62_167_219_200_000
    static let lastFourDigitYearInstant: Int64 = 253_402_300_799_999

    /// The numbers of the dictionary libFuzzer was given (`-dict=`: the committed one and the words the parser's
    /// code compares with), read once.
    static let numbers = DateTextMutator.numbers(LibFuzzer.dictionary)
}
