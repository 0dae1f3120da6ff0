import Foundation

/// How the menu compares text: search ignores case and accents the way the
/// app's `CONTAINS[cd]` does (so `ñ` matches `n`), while ordering is Spanish:
/// case and accents ignored, but `ñ` sorts after `n`.
public enum MenuText {
    /// The text folded for searching: lower case, no diacritics (`Ñoquis` → `noquis`).
    public static func searchKey(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The text folded for ordering: like `searchKey`, but `ñ` stays after `n`
    /// (it becomes `n` followed by a character that sorts after every letter).
    public static func sortKey(_ s: String) -> String {
        var out = ""
        for ch in s {
            if ch == "ñ" || ch == "Ñ" {
                out += "n~"
            } else {
                out += searchKey(String(ch))
            }
        }
        return out
    }

    /// Orders two names by `sortKey`, compared scalar by scalar.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        sortKey(a).unicodeScalars.lexicographicallyPrecedes(sortKey(b).unicodeScalars)
    }
}
