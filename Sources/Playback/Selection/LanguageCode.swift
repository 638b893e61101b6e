/// Matches language tags as containers and apps write them: ISO 639-1 (`fr`), ISO 639-2 bibliographic and
/// terminological codes (`fre`, `fra`), BCP 47 tags with a region (`fr-CA`) and English names (`French`).
enum LanguageCode {
    /// ISO 639-1, 639-2/T, 639-2/B and the English name of common languages.
    private static let table: [(String, String, String, String)] = [
        ("en", "eng", "eng", "English"), ("fr", "fra", "fre", "French"), ("de", "deu", "ger", "German"),
        ("es", "spa", "spa", "Spanish"), ("it", "ita", "ita", "Italian"), ("pt", "por", "por", "Portuguese"),
        ("nl", "nld", "dut", "Dutch"), ("sv", "swe", "swe", "Swedish"), ("no", "nor", "nor", "Norwegian"),
        ("da", "dan", "dan", "Danish"), ("fi", "fin", "fin", "Finnish"), ("pl", "pol", "pol", "Polish"),
        ("cs", "ces", "cze", "Czech"), ("ru", "rus", "rus", "Russian"), ("uk", "ukr", "ukr", "Ukrainian"),
        ("el", "ell", "gre", "Greek"), ("tr", "tur", "tur", "Turkish"), ("ar", "ara", "ara", "Arabic"),
        ("he", "heb", "heb", "Hebrew"), ("hi", "hin", "hin", "Hindi"), ("zh", "zho", "chi", "Chinese"),
        ("ja", "jpn", "jpn", "Japanese"), ("ko", "kor", "kor", "Korean"), ("hu", "hun", "hun", "Hungarian"),
        ("ro", "ron", "rum", "Romanian"),
    ]

    /// A key for the language of `tag`: its row in the table, or the lowercased primary subtag.
    static func key(_ tag: String) -> String {
        let primary = String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? Substring(tag)).lowercased()
        for row in table where [row.0, row.1, row.2, row.3.lowercased()].contains(primary) { return row.1 }
        return primary
    }

    /// `tag` as a BCP 47 language tag: ISO 639-1 for a language of the table (`eng` -> `en`, `fre` -> `fr`), the
    /// region kept (`fra-CA` -> `fr-CA`); other tags as given; nil for `und` (undetermined) and an empty tag.
    static func bcp47(_ tag: String) -> String? {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let primary = parts.first?.lowercased(), !primary.isEmpty, primary != "und" else { return nil }
        let key = key(primary)
        let language = table.first { $0.1 == key }?.0 ?? primary
        return ([language] + parts.dropFirst()).joined(separator: "-")
    }

    /// Whether `a` and `b` name the same language.
    static func same(_ a: String, _ b: String) -> Bool { key(a) == key(b) }

    /// The English name of the language of `tag`, when it is in the table.
    static func englishName(of tag: String) -> String? {
        let key = key(tag)
        return table.first { $0.1 == key }?.3
    }
}
