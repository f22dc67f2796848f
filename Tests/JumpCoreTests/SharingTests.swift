import Testing
@testable import JumpCore

/// Sharing without a network: activity validation, error classification, per-provider results and the
/// email/SMS content (docs/protocol.md §4.8; jump.h jump_client_share, jump_client_share_content).
@Suite struct SharingTests {
    static let full: JSON = [
        "action": "read an article",
        "url": "https://example.com/a",
        "user_generated_content": "Look!",
        "title": "The Article",
        "description": "All about it",
        "action_links": [["text": "Read", "href": "https://example.com/a"]],
        "media": [["type": "image", "src": "https://example.com/i.png", "href": "https://example.com/a"],
                  ["type": "flash", "swfsrc": "s.swf", "imgsrc": "i.png", "width": 100, "expanded_height": "300"],
                  ["type": "mp3", "src": "s.mp3", "title": "Song"]],
        "properties": ["Rating": "5"],
        "email": ["subject": "Hi", "message_body": "Body", "urls": ["https://example.com/e"]],
        "sms": ["message": "Text", "urls": []],
    ]

    // MARK: Activity validation

    @Test func acceptsAFullActivityAndStripsClientMembersFromTheWire() throws {
        let activity = try ShareActivity(json: Self.full)
        #expect(activity.action == "read an article")
        #expect(activity.url == "https://example.com/a")
        #expect(activity.userGeneratedContent == "Look!")
        #expect(activity.email == .init(subject: "Hi", messageBody: "Body", urls: ["https://example.com/e"]))
        #expect(activity.sms == .init(message: "Text", urls: []))
        var expected = try #require(Self.full.objectValue)
        expected["email"] = nil
        expected["sms"] = nil
        #expect(activity.wireJSON == .object(expected))
    }

    @Test func wireAlwaysCarriesAURLAndDropsNulls() throws {
        let activity = try ShareActivity(json: ["action": "x", "title": nil, "email": nil])
        #expect(activity.url == "")
        #expect(activity.wireJSON == ["action": "x", "url": ""])
        #expect(activity.email == .init())
        #expect(activity.sms == .init())
        #expect(activity.userGeneratedContent == nil)
    }

    @Test(arguments: [
        (JSON.array([]), "JSON object"),
        (["url": "u"], "\"action\""),
        (["action": ""], "\"action\""),
        (["action": "  "], "\"action\""),
        (["action": 3], "\"action\""),
        (["action": "a", "url": 1], "\"url\" must be a string, not number"),
        (["action": "a", "title": true], "\"title\""),
        (["action": "a", "description": ["x"]], "\"description\""),
        (["action": "a", "user_generated_content": 1], "\"user_generated_content\""),
        (["action": "a", "descripton": "typo"], "unknown member \"descripton\""),
        (["action": "a", "action_links": "x"], "\"action_links\" must be an array"),
        (["action": "a", "action_links": ["x"]], "action_links[0] must be an object"),
        (["action": "a", "action_links": [["text": "t", "href": "h"], ["text": "t"]]], "action_links[1] needs a \"href\""),
        (["action": "a", "action_links": [["text": 1, "href": "h"]]], "action_links[0]'s \"text\" must be a string"),
        (["action": "a", "media": ["type": "image"]], "\"media\" must be an array"),
        (["action": "a", "media": [1]], "media[0] must be an object"),
        (["action": "a", "media": [["type": "video", "src": "v"]]], "media[0]'s \"type\""),
        (["action": "a", "media": [["src": "v"]]], "media[0]'s \"type\""),
        (["action": "a", "media": [["type": "image", "src": "s"]]], "media[0] (image) needs a \"href\""),
        (["action": "a", "media": [["type": "flash", "swfsrc": "s"]]], "media[0] (flash) needs a \"imgsrc\""),
        (["action": "a", "media": [["type": "mp3"]]], "media[0] (mp3) needs a \"src\""),
        (["action": "a", "media": [["type": "mp3", "src": "s", "artist": 1]]], "media[0]'s \"artist\""),
        (["action": "a", "media": [["type": "flash", "swfsrc": "s", "imgsrc": "i", "width": true]]], "media[0]'s \"width\""),
        (["action": "a", "properties": ["x"]], "\"properties\" must be an object"),
        (["action": "a", "email": "x"], "\"email\" must be an object"),
        (["action": "a", "email": ["subject": 1]], "email's \"subject\""),
        (["action": "a", "email": ["message_body": 1]], "email's \"message_body\""),
        (["action": "a", "email": ["urls": "u"]], "email's \"urls\" must be an array"),
        (["action": "a", "email": ["urls": ["u", 2]]], "email.urls[1] must be a string"),
        (["action": "a", "email": ["messageBody": "x"]], "email has an unknown member \"messageBody\""),
        (["action": "a", "sms": 1], "\"sms\" must be an object"),
        (["action": "a", "sms": ["message": 1]], "sms's \"message\""),
        (["action": "a", "sms": ["urls": [nil]]], "sms.urls[0] must be a string"),
    ] as [(JSON, String)])
    func refusesInvalidActivities(_ json: JSON, _ mentions: String) {
        let error = #expect(throws: JumpError.self) { try ShareActivity(json: json) }
        #expect(error?.status == .invalidArgument)
        #expect(error?.detail["argument"] == "activity")
        #expect(error?.message.contains(mentions) == true, "\(error?.message ?? "no error")")
    }

    // MARK: Error classification

    @Test(arguments: [
        (0, "Missing parameter: apiKey", "facebook", SharingErrorClass.reauthenticate),
        (1, "missing parameter: APIKEY", "facebook", .reauthenticate),
        (0, "Missing parameter: activity", "facebook", .invalidParameter),
        (1, "Invalid parameter: url", "twitter", .invalidParameter),
        (4, "Facebook Error: Invalid OAuth 2.0 Access Token", "facebook", .reauthenticate),
        (4, "Error validating access token: Session has expired", "facebook", .reauthenticate),
        (4, "ERROR VALIDATING ACCESS TOKEN", "facebook", .reauthenticate),
        (4, "The session has been invalidated because the user changed the password", "facebook", .reauthenticate),
        (4, "(#341) Feed action request limit reached", "facebook", .rateLimit),
        (4, "Image could not be retrieved", "facebook", .media),
        (4, "FBML error: flash src must be absolute", "facebook", .media),
        (4, "Invalid media URL", "facebook", .media),
        (4, "Something else went wrong", "facebook", .provider),
        (6, "Twitter error: Status is a duplicate.", "twitter", .duplicate),
        (6, "Status is a duplicate", "twitter", .duplicate),
        (6, "Twitter: Duplicate status", "linkedin", .duplicate),
        (6, "Status is a duplicate", "linkedin", .provider),
        (6, "Over capacity", "twitter", .provider),
        (100, "Comment text too long", "linkedin", .characterLimit),
        (2, "Service temporarily unavailable", "facebook", .failed),
        (500, "", "facebook", .failed),
    ] as [(Int, String, String, SharingErrorClass)])
    func classifiesEngageErrors(_ code: Int, _ message: String, _ provider: String, _ expected: SharingErrorClass) {
        #expect(SharingErrorClass.classify(code: code, message: message, provider: provider) == expected)
    }

    @Test func missingCodeIsAGenericFailure() {
        #expect(SharingErrorClass.classify(code: nil, message: "Missing parameter: apiKey", provider: "x") == .failed)
    }

    @Test func everyClassHasTheNameOfJumpH() {
        #expect(SharingErrorClass.allCases.map(\.rawValue) == [
            "invalid_parameter", "reauthenticate", "rate_limit", "media", "duplicate", "character_limit", "provider",
            "not_signed_in", "failed",
        ])
    }

    // MARK: Per-provider results

    @Test func okReplyIsASuccessWithItsMethod() {
        #expect(ShareResult.json(reply: ["stat": "ok"], method: "activity", provider: "facebook")
            == ["ok": true, "method": "activity"])
        #expect(ShareResult.json(reply: ["stat": "ok", "extra": 1], method: "set_status", provider: "twitter")
            == ["ok": true, "method": "set_status"])
    }

    @Test func failReplyCarriesClassCodeAndMessage() {
        let reply: JSON = ["stat": "fail", "err": ["code": 4, "msg": "(#341) Feed action request limit reached"]]
        #expect(ShareResult.json(reply: reply, method: "activity", provider: "facebook") == [
            "ok": false, "error_class": "rate_limit", "code": 4, "message": "(#341) Feed action request limit reached",
        ])
        let stringCode: JSON = ["stat": "fail", "err": ["code": "100", "msg": "too long"]]
        #expect(ShareResult.json(reply: stringCode, method: "activity", provider: "linkedin")["error_class"] == "character_limit")
        #expect(ShareResult.json(reply: stringCode, method: "activity", provider: "linkedin")["code"] == 100)
    }

    @Test func unreadableRepliesAreFailuresWithoutCode() {
        for reply: JSON in [.null, "<html>", [1, 2], ["stat": "fail"], ["stat": "fail", "err": "x"], [:]] {
            let result = ShareResult.json(reply: reply, method: "activity", provider: "facebook")
            #expect(result["ok"] == false)
            #expect(result["error_class"] == "failed")
            #expect(result["code"] == .null)
            #expect(result["message"]?.stringValue?.isEmpty == false)
        }
        let noMessage = ShareResult.json(reply: ["stat": "fail", "err": ["code": .double(1.5)]], method: "activity", provider: "x")
        #expect(noMessage["code"] == .null)
        #expect(noMessage["error_class"] == "failed")
    }

    @Test func notSignedInFailureForTheCaller() {
        #expect(ShareResult.failure(.notSignedIn, code: nil, message: "no device token") == [
            "ok": false, "error_class": "not_signed_in", "code": nil, "message": "no device token",
        ])
    }

    // MARK: Email and SMS content

    @Test func urlsDefaultToTheActivityURL() throws {
        let content = ShareContent(activity: try ShareActivity(json: ["action": "a", "url": "https://e.com/x"]))
        #expect(content.urlsToShorten == ["email": ["https://e.com/x"], "sms": ["https://e.com/x"]])
        let none = ShareContent(activity: try ShareActivity(json: ["action": "a"]))
        #expect(none.urlsToShorten == ["email": [], "sms": []])
        let own = ShareContent(activity: try ShareActivity(json: Self.full))
        #expect(own.urlsToShorten == ["email": ["https://example.com/e"], "sms": []])
        let duplicates = ShareContent(activity: try ShareActivity(json: ["action": "a", "email": ["urls": ["u", "", "u", "v"]]]))
        #expect(duplicates.emailURLs == ["u", "v"])
    }

    @Test func buildsFromSpecsWithShortenedURLs() throws {
        let activity = try ShareActivity(json: [
            "action": "shared", "url": "https://example.com/long", "title": "Title",
            "email": ["subject": "Subject", "message_body": "Hello"], "sms": ["message": "Hey"],
        ])
        let shortened: JSON = ["urls": ["email": ["https://example.com/long": "https://rpx.me/e1"],
                                        "sms": ["https://example.com/long": "https://rpx.me/s1"],
                                        "activity": ["https://example.com/long": "https://rpx.me/a1"]]]
        let built = ShareContent(activity: activity).build(shortened: shortened)
        #expect(built == [
            "email": ["subject": "Subject", "body": "Hello\n\nhttps://rpx.me/e1",
                      "urls": ["https://example.com/long": "https://rpx.me/e1"]],
            "sms": ["message": "Hey https://rpx.me/s1", "urls": ["https://example.com/long": "https://rpx.me/s1"]],
        ])
    }

    @Test func keepsLongURLsWhenShorteningFailed() throws {
        let activity = try ShareActivity(json: ["action": "shared", "url": "https://example.com/long",
                                                "email": ["urls": ["https://a.com", "https://b.com"]]])
        for shortened: JSON in [.null, ["urls": ["email": ["https://a.com": 3]]], "garbage", ["urls": ["email": ["https://a.com": ""]]]] {
            let built = ShareContent(activity: activity).build(shortened: shortened)
            #expect(built["email"]?["body"] == "shared\n\nhttps://a.com\nhttps://b.com")
            #expect(built["email"]?["urls"] == ["https://a.com": "https://a.com", "https://b.com": "https://b.com"])
            #expect(built["sms"]?["message"] == "shared https://example.com/long")
        }
        let partial = ShareContent(activity: activity).build(shortened: ["urls": ["email": ["https://b.com": "https://s.io/b"]]])
        #expect(partial["email"]?["body"] == "shared\n\nhttps://a.com\nhttps://s.io/b")
    }

    @Test func defaultsFollowTitleDescriptionAndAction() throws {
        func built(_ json: JSON) throws -> JSON { ShareContent(activity: try ShareActivity(json: json)).build(shortened: .null) }
        let titled = try built(["action": "act", "title": "T", "description": "D", "user_generated_content": "U"])
        #expect(titled == ["email": ["subject": "T", "body": "D", "urls": [:]], "sms": ["message": "T", "urls": [:]]])
        let ugc = try built(["action": "act", "user_generated_content": "U", "title": ""])
        #expect(ugc["email"]?["subject"] == "act")
        #expect(ugc["email"]?["body"] == "U")
        #expect(ugc["sms"]?["message"] == "act")
        let bare = try built(["action": "act", "email": ["subject": "", "message_body": ""]])
        #expect(bare["email"] == ["subject": "act", "body": "act", "urls": [:]])
    }

    @Test func smsTextIsCappedBeforeTheURLs() throws {
        let long = String(repeating: "é", count: 200)
        let activity = try ShareActivity(json: ["action": "a", "url": "https://e.com/x", "sms": ["message": .string(long)]])
        let message = try #require(ShareContent(activity: activity).build(shortened: .null)["sms"]?["message"]?.stringValue)
        #expect(message == String(repeating: "é", count: 159) + "… https://e.com/x")
        let exact = String(repeating: "x", count: 160)
        #expect(ShareContent.truncated(exact) == exact)
        #expect(ShareContent.truncated(exact + "y").count == 160)
        #expect(ShareContent.truncated(String(repeating: "👍🏽", count: 170)).hasSuffix("👍🏽…"))
    }
}
