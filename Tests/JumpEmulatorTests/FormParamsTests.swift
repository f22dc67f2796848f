import Testing

@testable import JumpEmulator

@Suite("Form parameters")
struct FormParamsTests {
    @Test func parsesPlusAndPercentEscapes() {
        let params = FormParams(query: nil, body: "name=Ada+Lovelace&email=a%40b.com&note=100%25")
        #expect(params["name"] == "Ada Lovelace")
        #expect(params["email"] == "a@b.com")
        #expect(params["note"] == "100%")
    }

    @Test func toleratesLeadingAmpersandEmptyKeysAndRawBrackets() {
        let params = FormParams(query: nil, body: "&&=x&birthdate[dateselect_year]=1990&flag&a=1&")
        #expect(params["birthdate[dateselect_year]"] == "1990")
        #expect(params["flag"] == "")
        #expect(params["a"] == "1")
        #expect(params[""] == nil)
        #expect(params.values.count == 3)
    }

    @Test func mergesQueryAndBodyWithBodyWinning() {
        let params = FormParams(query: "a=query&b=query", body: "b=body&c=body")
        #expect(params["a"] == "query")
        #expect(params["b"] == "body")
        #expect(params["c"] == "body")
    }

    @Test func keepsMalformedEscapesLiterally() {
        let params = FormParams(query: nil, body: "a=%zz&b=%4&c=%E2%82%AC")
        #expect(params["a"] == "%zz")
        #expect(params["b"] == "%4")
        #expect(params["c"] == "€")
    }

    @Test func blankValuesCountAsMissing() {
        let params = FormParams(query: nil, body: "a=+++&b=x")
        #expect(params.nonEmpty("a") == nil)
        #expect(params.nonEmpty("b") == "x")
    }
}
