import Hummingbird
import Testing

@testable import JumpEmulator

/// The merge flow (docs/protocol.md §11.2): a 380's token sent back as `merge_token`.
@Suite("merge_token")
struct SocialMergeTests {
    @Test func aPasswordSignInAttachesTheConflictingIdentity() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let mergeToken = try await h.engageToken()
            #expect(try await h.authNative(mergeToken)["existing_provider"] == "capture")

            let answer = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "correct horse"),
                ("merge_token", mergeToken),
            ])
            #expect(answer["stat"] == "ok")
            #expect(answer["is_new"] == false)
            let profiles = answer["capture_user"]?["profiles"]?.arrayValue ?? []
            #expect(profiles.map { $0["identifier"] } == ["https://facebook.example/1"])
            #expect(answer["capture_user"]?["password"] == ["type": "password-bcrypt"])
            #expect(try await h.engageTokenRow(mergeToken)?.captureState == "used")

            // From now on the social identity signs in to the same account.
            let social = try await h.authNative(try await h.engageToken())
            #expect(social["stat"] == "ok")
            #expect(social["capture_user"]?["uuid"] == answer["capture_user"]?["uuid"])

            // A merge token is spent once.
            let again = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "correct horse"),
                ("merge_token", mergeToken),
            ])
            #expect(again["code"] == 200)
            #expect(again["argument_name"] == "merge_token")
        }
    }

    @Test func aSocialSignInWithTheExistingProviderAttachesTheConflictingIdentity() async throws {
        try await Harness.run { h in
            let google = try await h.socialUser(provider: "google", identifier: "https://google.example/7")
            let mergeToken = try await h.engageToken()
            #expect(try await h.authNative(mergeToken)["existing_provider"] == "google")

            let fresh = try await h.engageToken(provider: "google", identifier: "https://google.example/7")
            let answer = try await h.authNative(fresh, [("merge_token", mergeToken)])
            #expect(answer["stat"] == "ok")
            #expect(answer["capture_user"]?["uuid"] == google["capture_user"]?["uuid"])
            let identifiers = answer["capture_user"]?["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }
            #expect(identifiers == ["https://google.example/7", "https://facebook.example/1"])
            let rows = try await h.identityRows()
            #expect(rows.map(\.provider) == ["facebook", "google"])
            #expect(Set(rows.map(\.userId)).count == 1)
        }
    }

    @Test func aMergeTokenThatDidNotAnswer380IsRefusedAndNothingChanges() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let fresh = try await h.engageToken(identifier: "https://facebook.example/9", email: "other@example.com")
            let traditional = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "correct horse"),
                ("merge_token", fresh),
            ])
            #expect(traditional["code"] == 200)
            #expect(traditional["error"] == "invalid_argument")
            #expect(traditional["argument_name"] == "merge_token")

            // A registration token is not a merge token either.
            #expect(try await h.authNative(fresh)["code"] == 310)
            _ = try await h.socialUser(provider: "google", identifier: "https://google.example/7", email: "grace@example.com")
            let google = try await h.engageToken(provider: "google", identifier: "https://google.example/7", email: "grace@example.com")
            let social = try await h.authNative(google, [("merge_token", fresh)])
            #expect(social["argument_name"] == "merge_token")
            // The refused sign-in spent nothing.
            #expect(try await h.engageTokenRow(google)?.captureState == nil)
            #expect(try await h.engageTokenRow(fresh)?.captureState == "registration")
        }
    }

    @Test func aMergeTokenOfAnotherClientIsRefused() async throws {
        try await Harness.run { h in
            let (status, _) = try await h.admin(.post, "/apps", ["client_id": "second", "capture_app_id": "second-app"])
            #expect(status == .created)
            _ = try await h.registeredToken(email: "ada@example.com")
            _ = try await h.register(email: "ada@example.com", [("client_id", "second")])
            let mergeToken = try await h.engageToken()
            #expect(try await h.authNative(mergeToken, [("client_id", "second")])["code"] == 380)
            let answer = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "correct horse"),
                ("merge_token", mergeToken),
            ])
            #expect(answer["argument_name"] == "merge_token")
        }
    }

    @Test func aWrongPasswordKeepsTheMergeToken() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let mergeToken = try await h.engageToken()
            _ = try await h.authNative(mergeToken)
            let wrong = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "not it at all"),
                ("merge_token", mergeToken),
            ])
            #expect(wrong["code"] == 210)
            #expect(try await h.engageTokenRow(mergeToken)?.captureState == "merge")
        }
    }

    @Test func mergingAnIdentityOfAnotherAccountIs361() async throws {
        try await Harness.run { h in
            _ = try await h.registeredToken(email: "ada@example.com")
            let mergeToken = try await h.engageToken()
            _ = try await h.authNative(mergeToken)
            // Meanwhile the identity was linked to another account.
            let grace = try await h.registeredToken(email: "grace@example.com")
            #expect(try await h.capture("/oauth/link_account_native", [
                ("access_token", grace), ("token", try await h.engageToken()),
            ])["stat"] == "ok")
            let answer = try await h.signIn([
                ("form", "signInForm"), ("signInEmailAddress", "ada@example.com"), ("currentPassword", "correct horse"),
                ("merge_token", mergeToken),
            ])
            #expect(answer["code"] == 361)
            #expect(answer["attribute_name"] == "/profiles/identifier")
        }
    }
}
