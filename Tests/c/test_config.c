/* test_config.c - jump_config: defaults, JSON and jansson forms, setters, refusals. No server. */
#include "harness.h"
#include "support.h"

static json_t *config_json(jump_config *config) {
    char *text = NULL;
    if (J.config_to_json(config, &text) != JUMP_OK) return NULL;
    return take_json(text);
}

/* Checks that the last error's message names `needle`. */
#define CHECK_MESSAGE_NAMES(needle)                                                                        \
    do {                                                                                                   \
        json_t *detail_ = json_parse(J.error_last());                                                      \
        const char *message_ = json_str(detail_, "message");                                               \
        CHECK_MSG(message_ != NULL && strstr(message_, needle) != NULL,                                    \
                  "the error message does not name \"%s\": %s", needle, message_ ? message_ : "(none)");   \
        json_decref(detail_);                                                                              \
    } while (0)

static const char *const documented_keys[] = {
    "captureDomain", "captureClientId", "captureLocale", "captureAppId", "captureFlowName",
    "captureFlowVersion", "captureFlowDomain", "captureTraditionalSignInFormName",
    "captureTraditionalRegistrationFormName", "captureSocialRegistrationFormName",
    "captureEditUserProfileFormName", "captureForgotPasswordFormName",
    "captureResendEmailVerificationFormName", "captureChangePasswordFormName", "captureEnableThinRegistration",
    "captureRedirectUri",
    "captureResponseType", "engageAppId", "engageDomain",
    "engageWhitelistedDomain", "engageResponseType", "engageCustomProviders", "engageTokenUrl", "engageDevice",
    "userAgentApp", "emulatorHost", "storageDirectory", "secretStore", "connectTimeoutMs",
    "requestTimeoutMs", "operationTimeoutMs", "tokenRefreshMarginSeconds", "maxResponseBytes",
    "captureSchemaFile", "signInTokenAuthBaseUrl", "signInTokenApiBaseUrl", "apiKeyHeader",
    "webLoginCookieName", "maxRetries", "proxy", "caFile", "pinnedPublicKeys", "accounts"};

static int is_documented(const char *key) {
    size_t i;
    for (i = 0; i < sizeof documented_keys / sizeof documented_keys[0]; i++)
        if (strcmp(documented_keys[i], key) == 0) return 1;
    return 0;
}

TEST(defaults_in_to_json) {
    jump_config *config = NULL;
    json_t *json;
    const char *key;
    json_t *value;
    struct {
        const char *key, *value;
    } strings[] = {{"captureTraditionalSignInFormName", "signInForm"},
                   {"captureTraditionalRegistrationFormName", "registrationForm"},
                   {"captureSocialRegistrationFormName", "socialRegistrationForm"},
                   {"captureEditUserProfileFormName", "editProfileForm"},
                   {"captureForgotPasswordFormName", "forgotPasswordForm"},
                   {"captureResendEmailVerificationFormName", "resendVerificationForm"},
                   {"captureChangePasswordFormName", "changePasswordForm"},
                   {"captureLocale", "en-US"},
                   {"captureResponseType", "token"},
                   {"engageResponseType", "token_profile"},
                   {"secretStore", "auto"}, {"accounts", "single"}};
    struct {
        const char *key;
        long long value;
    } ints[] = {{"connectTimeoutMs", 10000}, {"requestTimeoutMs", 30000}, {"operationTimeoutMs", 0},
                  {"tokenRefreshMarginSeconds", 60}, {"maxRetries", 2}};
    size_t i;

    REQUIRE_OK(J.config_new(&config));
    REQUIRE(config != NULL);
    json = config_json(config);
    REQUIRE_MSG(json_is_object(json), "jump_config_to_json did not give an object");
    for (i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        const char *got = json_str(json, strings[i].key);
        CHECK_MSG(got != NULL && strcmp(got, strings[i].value) == 0, "default %s: got %s, expected %s",
                  strings[i].key, got ? got : "(missing or not a string)", strings[i].value);
    }
    for (i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        json_t *got = json_object_get(json, ints[i].key);
        CHECK_MSG(json_is_integer(got) && json_integer_value(got) == ints[i].value, "default %s: expected %lld",
                  ints[i].key, ints[i].value);
    }
    CHECK_MSG(json_is_false(json_object_get(json, "captureEnableThinRegistration")),
              "default captureEnableThinRegistration is not false");
    /* Every documented key appears (null when unset), and only those. */
    for (i = 0; i < sizeof documented_keys / sizeof documented_keys[0]; i++)
        CHECK_MSG(json_object_get(json, documented_keys[i]) != NULL, "jump_config_to_json lacks the key \"%s\"",
                  documented_keys[i]);
    json_object_foreach(json, key, value) {
        (void)value;
        CHECK_MSG(is_documented(key), "jump_config_to_json has an undocumented key \"%s\"", key);
    }
    json_decref(json);
    J.config_free(config);
}

TEST(default_storage_directory_follows_xdg_data_home) {
    jump_config *config = NULL;
    json_t *json;
    const char *dir = emu_tmpdir();
    char expected[512];
    char *saved = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME")) : NULL;
    snprintf(expected, sizeof expected, "%s/jump", dir);
    setenv("XDG_DATA_HOME", dir, 1);
    if (CHECK_OK(J.config_new(&config))) {
        json = config_json(config);
        CHECK_MSG(json_str(json, "storageDirectory") != NULL && strcmp(json_str(json, "storageDirectory"), expected) == 0,
                  "storageDirectory default: got %s, expected %s",
                  json_str(json, "storageDirectory") ? json_str(json, "storageDirectory") : "(missing)", expected);
        json_decref(json);
        J.config_free(config);
    }
    if (saved != NULL) {
        setenv("XDG_DATA_HOME", saved, 1);
        free(saved);
    } else {
        unsetenv("XDG_DATA_HOME");
    }
}

TEST(from_json_round_trip) {
    const char *text =
        "{\"captureDomain\":\"https://example.janraincapture.com\",\"captureClientId\":\"abc123\","
        "\"captureLocale\":\"fr-FR\",\"captureAppId\":\"app42\",\"captureFlowName\":\"standard\","
        "\"captureFlowVersion\":\"20190618\",\"captureTraditionalSignInFormName\":\"signInUsernameForm\","
        "\"captureEnableThinRegistration\":true,\"captureResponseType\":\"code_and_token\","
        "\"storageDirectory\":\":memory:\","
        "\"connectTimeoutMs\":1234,\"requestTimeoutMs\":5678,\"tokenRefreshMarginSeconds\":7}";
    jump_config *config = NULL, *again = NULL;
    json_t *in, *out, *out2;
    const char *key;
    json_t *value;
    char *dumped;

    REQUIRE_OK(J.config_from_json(text, &config));
    REQUIRE(config != NULL);
    in = json_parse(text);
    out = config_json(config);
    REQUIRE(json_is_object(out));
    json_object_foreach(in, key, value) {
        CHECK_MSG(json_equal(value, json_object_get(out, key)), "key %s did not survive from_json -> to_json", key);
    }
    /* Defaults still filled in for keys not given. */
    CHECK_MSG(json_str(out, "captureForgotPasswordFormName") != NULL &&
                  strcmp(json_str(out, "captureForgotPasswordFormName"), "forgotPasswordForm") == 0,
              "a default is missing after from_json");
    /* to_json output is itself a valid config. */
    dumped = json_dumps(out, JSON_COMPACT);
    CHECK_OK(J.config_from_json(dumped, &again));
    out2 = config_json(again);
    CHECK_MSG(json_equal(out, out2), "from_json(to_json(c)) differs from c");
    free(dumped);
    json_decref(in);
    json_decref(out);
    json_decref(out2);
    J.config_free(again);
    J.config_free(config);
}

TEST(from_jansson_borrows) {
    json_t *in = json_pack("{s:s, s:s, s:i, s:b}", "captureClientId", "client-x", "captureLocale", "fr-FR",
                           "requestTimeoutMs", 4321, "captureEnableThinRegistration", 1);
    size_t refcount = in->refcount;
    jump_config *config = NULL;
    json_t *out;
    REQUIRE_OK(J.config_from_jansson(in, &config));
    CHECK_MSG(in->refcount == refcount, "jump_config_from_jansson changed the argument's refcount (%zu -> %zu)",
              refcount, in->refcount);
    out = config_json(config);
    CHECK(json_str(out, "captureClientId") && strcmp(json_str(out, "captureClientId"), "client-x") == 0);
    CHECK(json_str(out, "captureLocale") && strcmp(json_str(out, "captureLocale"), "fr-FR") == 0);
    CHECK(json_integer_value(json_object_get(out, "requestTimeoutMs")) == 4321);
    CHECK(json_is_true(json_object_get(out, "captureEnableThinRegistration")));
    /* The config holds a copy: changing the source afterwards changes nothing. */
    json_object_set_new(in, "captureClientId", json_string("changed"));
    json_decref(out);
    out = config_json(config);
    CHECK(json_str(out, "captureClientId") && strcmp(json_str(out, "captureClientId"), "client-x") == 0);
    json_decref(out);
    json_decref(in);
    J.config_free(config);
}

TEST(setters) {
    jump_config *config = NULL;
    json_t *out;
    REQUIRE_OK(J.config_new(&config));
    CHECK_OK(J.config_set_string(config, "captureLocale", "fr-FR"));
    CHECK_OK(J.config_set_string(config, "captureTraditionalSignInFormName", "customSignIn"));
    CHECK_OK(J.config_set_bool(config, "captureEnableThinRegistration", 1));
    CHECK_OK(J.config_set_int(config, "requestTimeoutMs", 2500));
    CHECK_OK(J.config_set_int(config, "tokenRefreshMarginSeconds", 0));
    out = config_json(config);
    CHECK(json_str(out, "captureLocale") && strcmp(json_str(out, "captureLocale"), "fr-FR") == 0);
    CHECK(json_str(out, "captureTraditionalSignInFormName") &&
          strcmp(json_str(out, "captureTraditionalSignInFormName"), "customSignIn") == 0);
    CHECK(json_is_true(json_object_get(out, "captureEnableThinRegistration")));
    CHECK(json_integer_value(json_object_get(out, "requestTimeoutMs")) == 2500);
    CHECK(json_is_integer(json_object_get(out, "tokenRefreshMarginSeconds")) &&
          json_integer_value(json_object_get(out, "tokenRefreshMarginSeconds")) == 0);
    json_decref(out);

    /* NULL restores the default; bool back to 0. */
    CHECK_OK(J.config_set_string(config, "captureTraditionalSignInFormName", NULL));
    CHECK_OK(J.config_set_bool(config, "captureEnableThinRegistration", 0));
    out = config_json(config);
    CHECK_MSG(json_str(out, "captureTraditionalSignInFormName") &&
                  strcmp(json_str(out, "captureTraditionalSignInFormName"), "signInForm") == 0,
              "set_string(key, NULL) did not restore the default");
    CHECK(json_is_false(json_object_get(out, "captureEnableThinRegistration")));
    json_decref(out);
    J.config_free(config);
}

TEST(bool_setter_accepts_only_0_and_1) {
    jump_config *config = NULL;
    REQUIRE_OK(J.config_new(&config));
    CHECK_STATUS(J.config_set_bool(config, "captureEnableThinRegistration", 2), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_bool(config, "captureEnableThinRegistration", -1), JUMP_E_INVALID_ARGUMENT);
    J.config_free(config);
}

TEST(extreme_int_values_do_not_trap) {
    jump_config *config = NULL;
    jump_status s;
    REQUIRE_OK(J.config_new(&config));
    s = J.config_set_int(config, "requestTimeoutMs", INT64_MAX);
    CHECK_MSG(s == JUMP_OK || s == JUMP_E_INVALID_ARGUMENT, "set_int(INT64_MAX) returned %d", (int)s);
    s = J.config_set_int(config, "connectTimeoutMs", INT64_MIN);
    CHECK_MSG(s == JUMP_OK || s == JUMP_E_INVALID_ARGUMENT, "set_int(INT64_MIN) returned %d", (int)s);
    s = J.config_set_int(config, "tokenRefreshMarginSeconds", -5);
    CHECK_MSG(s == JUMP_OK || s == JUMP_E_INVALID_ARGUMENT, "set_int(-5) returned %d", (int)s);
    J.config_free(config);
}

TEST(unknown_key_is_named) {
    jump_config *config = NULL, *other = (jump_config *)0;
    REQUIRE_OK(J.config_new(&config));
    CHECK_STATUS(J.config_set_string(config, "captureDomian", "x"), JUMP_E_INVALID_ARGUMENT);
    CHECK_MESSAGE_NAMES("captureDomian");
    CHECK_MESSAGE_NAMES("did you mean 'captureDomain'?");
    CHECK_STATUS(J.config_set_bool(config, "enableEverything", 1), JUMP_E_INVALID_ARGUMENT);
    CHECK_MESSAGE_NAMES("enableEverything");
    CHECK_STATUS(J.config_set_int(config, "timeoutMillis", 5), JUMP_E_INVALID_ARGUMENT);
    CHECK_MESSAGE_NAMES("timeoutMillis");
    CHECK_STATUS(J.config_from_json("{\"captureClientId\":\"a\",\"bogusKey\":1}", &other), JUMP_E_INVALID_ARGUMENT);
    CHECK_MESSAGE_NAMES("bogusKey");
    CHECK(other == NULL);
    /* Key names are case-sensitive (the right spelling is suggested). */
    CHECK_STATUS(J.config_set_string(config, "capturedomain", "x"), JUMP_E_INVALID_ARGUMENT);
    CHECK_MESSAGE_NAMES("did you mean 'captureDomain'?");
    J.config_free(config);
}

/* A bare host:port would silently become https and fail later with "SSL connect error". */
TEST(bare_host_and_port_is_refused_with_the_fix) {
    jump_config *config = NULL;
    jump_client *client = NULL;
    REQUIRE_OK(J.config_new(&config));
    CHECK_OK(J.config_set_string(config, "storageDirectory", ":memory:"));
    CHECK_OK(J.config_set_string(config, "captureDomain", "127.0.0.1:9080"));
    CHECK_STATUS(J.client_new(config, &client), JUMP_E_INVALID_ARGUMENT);
    CHECK(client == NULL);
    CHECK_MESSAGE_NAMES("write 'http://127.0.0.1:9080'");
    CHECK_MESSAGE_NAMES("captureDomain");
    CHECK_OK(J.config_set_string(config, "captureDomain", "http://127.0.0.1:9080"));
    CHECK_OK(J.client_new(config, &client));
    J.client_free(client);
    J.config_free(config);
}

TEST(wrong_types_refused) {
    jump_config *config = NULL, *other = NULL;
    const char *bad_json[] = {"{\"captureEnableThinRegistration\":\"yes\"}", "{\"requestTimeoutMs\":\"100\"}",
                              "{\"captureLocale\":5}", "{\"captureClientId\":true}",
                              "{\"connectTimeoutMs\":1.5}", "{\"captureDomain\":{\"host\":\"x\"}}",
                              "{\"captureEnableThinRegistration\":1}", "{\"tokenRefreshMarginSeconds\":[60]}"};
    size_t i;
    REQUIRE_OK(J.config_new(&config));
    CHECK_STATUS(J.config_set_string(config, "captureEnableThinRegistration", "true"), JUMP_E_INVALID_ARGUMENT);
    CHECK_MESSAGE_NAMES("captureEnableThinRegistration");
    CHECK_STATUS(J.config_set_string(config, "requestTimeoutMs", "100"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_bool(config, "captureLocale", 1), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_int(config, "captureLocale", 1), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_int(config, "captureEnableThinRegistration", 1), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_bool(config, "requestTimeoutMs", 1), JUMP_E_INVALID_ARGUMENT);
    for (i = 0; i < sizeof bad_json / sizeof bad_json[0]; i++) {
        other = (jump_config *)&config; /* not NULL: must be reset */
        if (!CHECK_STATUS(J.config_from_json(bad_json[i], &other), JUMP_E_INVALID_ARGUMENT))
            harness_note("input: %s", bad_json[i]);
        CHECK_MSG(other == NULL, "out not set to NULL for %s", bad_json[i]);
        if (other != NULL && other != (jump_config *)&config) J.config_free(other);
    }
    J.config_free(config);
}

TEST(malformed_and_non_object_json) {
    const char *bad[] = {"", "{", "{\"captureLocale\":}", "{\"captureLocale\":\"en-US\",}", "nul",
                         "{\"a\" \"b\"}", "{'captureLocale':'en-US'}", "{\"captureLocale\":\"en-US\"} trailing",
                         "[]", "42", "\"captureLocale\"", "null", "true", "[{\"captureLocale\":\"en-US\"}]"};
    size_t i;
    json_t *array = json_array(), *number = json_integer(3);
    jump_config *out;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        out = (jump_config *)&out;
        if (!CHECK_STATUS(J.config_from_json(bad[i], &out), JUMP_E_INVALID_ARGUMENT)) harness_note("input: '%s'", bad[i]);
        CHECK_MSG(out == NULL, "out not set to NULL for '%s'", bad[i]);
    }
    out = (jump_config *)&out;
    CHECK_STATUS(J.config_from_jansson(array, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK(out == NULL);
    out = (jump_config *)&out;
    CHECK_STATUS(J.config_from_jansson(number, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_EQ_INT(array->refcount, 1);
    json_decref(array);
    json_decref(number);
}

TEST(to_jansson_is_a_new_reference) {
    jump_config *config = NULL;
    json_t *a = NULL, *b = NULL, *text_form;
    REQUIRE_OK(J.config_new(&config));
    CHECK_OK(J.config_set_string(config, "captureClientId", "refcount-client"));
    REQUIRE_OK(J.config_to_jansson(config, &a));
    REQUIRE(a != NULL);
    CHECK(json_is_object(a));
    CHECK_MSG(a->refcount == 1, "to_jansson returned refcount %zu, expected a fresh reference (1)", a->refcount);
    text_form = config_json(config);
    CHECK_MSG(json_equal(a, text_form), "to_jansson and to_json disagree");
    /* Changing the returned object does not change the config. */
    json_object_set_new(a, "captureClientId", json_string("mutated"));
    REQUIRE_OK(J.config_to_jansson(config, &b));
    CHECK(json_str(b, "captureClientId") && strcmp(json_str(b, "captureClientId"), "refcount-client") == 0);
    CHECK(a != b);
    json_decref(a);
    json_decref(b);
    json_decref(text_form);
    /* The config is still usable after the caller released its references. */
    REQUIRE_OK(J.config_to_jansson(config, &a));
    json_decref(a);
    J.config_free(config);
}

static jump_status client_for_domain(const char *domain, const char *key) {
    jump_config *config = NULL;
    jump_client *client = (jump_client *)&config;
    jump_status s;
    if (J.config_new(&config) != JUMP_OK) return JUMP_E_INTERNAL;
    J.config_set_string(config, "captureClientId", "jump-default-client");
    J.config_set_string(config, "storageDirectory", ":memory:");
    s = J.config_set_string(config, key, domain);
    if (s == JUMP_OK) {
        s = J.client_new(config, &client);
        if (s != JUMP_OK) {
            CHECK_MSG(client == NULL, "jump_client_new failed but did not set *out to NULL");
        } else {
            J.client_free(client);
        }
    }
    J.config_free(config);
    return s;
}

TEST(plain_http_refused_except_loopback) {
    const char *refused[] = {"http://example.com", "http://capture.example.com:8080/", "http://10.0.0.1"};
    const char *allowed[] = {"http://127.0.0.1:1", "http://localhost:1", "http://[::1]:1",
                             "https://example.com", "example.janraincapture.com"};
    size_t i;
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        jump_status s = client_for_domain(refused[i], "captureDomain");
        CHECK_MSG(s == JUMP_E_INVALID_ARGUMENT || s == JUMP_E_UNSUPPORTED,
                  "captureDomain %s: expected a refusal, got %d (%s)", refused[i], (int)s, harness_status_name(s));
    }
    for (i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
        jump_status s = client_for_domain(allowed[i], "captureDomain");
        CHECK_MSG(s == JUMP_OK, "captureDomain %s: expected acceptance, got %d (%s)", allowed[i], (int)s,
                  harness_status_name(s));
    }
    {
        jump_status s = client_for_domain("http://cdn.example.com", "captureFlowDomain");
        CHECK_MSG(s == JUMP_E_INVALID_ARGUMENT || s == JUMP_E_UNSUPPORTED,
                  "captureFlowDomain over plain http to a remote host was accepted (%d)", (int)s);
    }
}

TEST(client_keeps_its_own_copy) {
    jump_config *config = NULL;
    jump_client *client = NULL;
    json_t *state;
    REQUIRE_OK(J.config_new(&config));
    CHECK_OK(J.config_set_string(config, "captureDomain", "http://127.0.0.1:1"));
    CHECK_OK(J.config_set_string(config, "captureClientId", "c"));
    CHECK_OK(J.config_set_string(config, "storageDirectory", ":memory:"));
    REQUIRE_OK(J.client_new(config, &client));
    J.config_free(config);
    state = get_state(client);
    CHECK(json_is_object(state));
    CHECK(json_is_false(json_object_get(state, "signed_in")));
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    json_decref(state);
    J.client_free(client);
}
