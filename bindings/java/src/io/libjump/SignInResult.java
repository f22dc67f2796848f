package io.libjump;

import java.util.List;

/** The outcome of a sign-in or registration (jump.h's sign_in_result; social sign-ins add "outcome",
 * "provider", ...: all of it is in json). */
public record SignInResult(boolean isNew, String uuid, String authorizationCode, List<String> keptChanges,
                           boolean merged, String json) {
    static SignInResult of(Object o) {
        return new SignInResult(Json.bool(o, "is_new"), Json.string(o, "uuid"), Json.string(o, "authorization_code"),
                Json.strings(o, "kept_changes"), Json.bool(o, "merged"), Json.write(o));
    }

    /**
     * A member of the result not named by a component.
     *
     * @param key "outcome", "provider", ...
     * @return its JSON value, or null
     */
    public Object get(String key) {
        return Json.get(Json.parse(json), key);
    }

    @Override
    public String toString() {
        // authorization_code is a credential: not printed
        return "SignInResult[isNew=" + isNew + ", uuid=" + uuid + ", merged=" + merged + "]";
    }
}
