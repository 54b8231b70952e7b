import COpenSSL

/// Conversion of ASN.1 times to unix seconds without consulting the local time zone.
enum UnixTime {
    /// Seconds since 1970-01-01T00:00:00Z for an `ASN1_TIME`, or nil when OpenSSL cannot parse it.
    static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        guard let time else {
            return nil
        }
        var broken = tm()
        guard ASN1_TIME_to_tm(time, &broken) == 1 else {
            return nil
        }
        let days = daysFromCivil(
            year: Int64(broken.tm_year) + 1900,
            month: Int64(broken.tm_mon) + 1,
            day: Int64(broken.tm_mday)
        )
        return days * 86_400 + Int64(broken.tm_hour) * 3_600 + Int64(broken.tm_min) * 60 + Int64(broken.tm_sec)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
