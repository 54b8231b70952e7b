/// What a full decode produced, so two engines can be shown to have done the same work.
struct DecodeTally: Equatable, CustomStringConvertible {
    var attributes = 0
    var records = 0
    var textBytes = 0
    var integerSum: Int64 = 0
    var dates = 0

    mutating func text(_ text: String) { textBytes += text.utf8.count }
    mutating func integer(_ value: Int64) { integerSum &+= value }

    var description: String {
        "attributes=\(attributes) records=\(records) textBytes=\(textBytes) integerSum=\(integerSum) dates=\(dates)"
    }
}
