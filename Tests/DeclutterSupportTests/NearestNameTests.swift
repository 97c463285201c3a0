import DeclutterSupport
import Testing

@Suite struct NearestNameTests {
    @Test func aNameEqualButForCaseComesFirst() {
        #expect("Kind".nearestName(among: ["kinds", "name", "kind"]) == "kind")
        #expect("CC".nearestName(among: ["lat", "cc"]) == "cc")
    }

    @Test func aMisspellingFindsTheNearestName() {
        // A swap of two neighbouring letters is one edit, as is a letter left out.
        #expect("knid".nearestName(among: ["name", "kind"]) == "kind")
        #expect("contry".nearestName(among: ["iata", "country", "city"]) == "country")
        // Ties go to the earlier name.
        #expect("cat".nearestName(among: ["bat", "hat"]) == "bat")
        // The nearer one wins over an earlier, farther one.
        #expect("lattitude".nearestName(among: ["altitude", "latitude"]) == "latitude")
    }

    @Test func namesTooFarOrTooShortAreNotSuggested() {
        #expect("zip".nearestName(among: ["name", "kind"]) == nil)
        // Two edits would turn any two-letter name into any other.
        #expect("cc".nearestName(among: ["id"]) == nil)
        #expect("state".nearestName(among: []) == nil)
        // The name itself is no suggestion.
        #expect("kind".nearestName(among: ["kind"]) == nil)
    }
}
