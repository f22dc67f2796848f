/* test_basics.c - versions, status strings, the thread-local last error, jump_string_free. No server. */
#include "harness.h"
#include "support.h"

#include <pthread.h>

TEST(version_string_matches_header) {
    const char *version = J.version();
    REQUIRE(version != NULL);
    CHECK_STR_EQ(version, JUMP_VERSION);
    CHECK(J.version() == version || strcmp(J.version(), version) == 0);
}

TEST(version_number_matches_header) {
    uint32_t number = J.version_number();
    char text[64];
    CHECK_EQ_INT(number, JUMP_VERSION_NUMBER);
    CHECK_EQ_INT(number, ((uint32_t)JUMP_VERSION_MAJOR << 16) | ((uint32_t)JUMP_VERSION_MINOR << 8) |
                             (uint32_t)JUMP_VERSION_PATCH);
    /* The string and the number describe the same version. */
    snprintf(text, sizeof text, "%u.%u.%u", (unsigned)(number >> 16), (unsigned)((number >> 8) & 0xff),
             (unsigned)(number & 0xff));
    CHECK_STR_EQ(J.version(), text);
    CHECK(JUMP_VERSION_CHECK(0, 0, 0));
    CHECK(JUMP_VERSION_CHECK(JUMP_VERSION_MAJOR, JUMP_VERSION_MINOR, JUMP_VERSION_PATCH));
    CHECK(!JUMP_VERSION_CHECK(JUMP_VERSION_MAJOR, JUMP_VERSION_MINOR + 1, 0));
}

TEST(abi_version_matches_header) { CHECK_EQ_INT(J.abi_version(), JUMP_ABI_VERSION); }

/* Every status of jump.h, from the harness's checked copy (a literal count here drifted once). */
#define STATUS_COUNT HARNESS_STATUS_COUNT

TEST(status_strings_distinct_and_non_empty) {
    const char *strings[STATUS_COUNT];
    int i, j;
    for (i = 0; i < STATUS_COUNT; i++) {
        strings[i] = J.status_str((jump_status)-i);
        if (!CHECK_MSG(strings[i] != NULL && strings[i][0] != '\0', "jump_status_str(%d) is NULL or empty", -i))
            strings[i] = "";
    }
    for (i = 0; i < STATUS_COUNT; i++)
        for (j = i + 1; j < STATUS_COUNT; j++)
            if (strings[i][0] != '\0')
                CHECK_MSG(strcmp(strings[i], strings[j]) != 0, "jump_status_str(%d) == jump_status_str(%d): \"%s\"",
                          -i, -j, strings[i]);
}

TEST(status_string_is_static) {
    char copy[256];
    const char *s = J.status_str(JUMP_E_NETWORK);
    REQUIRE(s != NULL);
    snprintf(copy, sizeof copy, "%s", s);
    /* Other calls, other codes: the first string stays valid and unchanged. */
    (void)J.status_str(JUMP_E_TIMEOUT);
    (void)J.status_str((jump_status)-999);
    (void)J.version();
    CHECK_STR_EQ(s, copy);
}

TEST(status_string_for_unknown_codes) {
    /* Just past the last status, and far from any. */
    long unknown[] = {1, 2, 100, -STATUS_COUNT, -STATUS_COUNT - 1, -1000, 2147483647L, -2147483647L - 1};
    size_t i;
    int k;
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *s = J.status_str((jump_status)unknown[i]);
        if (!CHECK_MSG(s != NULL && s[0] != '\0', "jump_status_str(%ld) is NULL or empty", unknown[i])) continue;
        for (k = 0; k < STATUS_COUNT; k++) {
            const char *known = J.status_str((jump_status)-k);
            CHECK_MSG(known == NULL || strcmp(s, known) != 0, "jump_status_str(%ld) describes a known code (%d): %s",
                      unknown[i], -k, s);
        }
    }
}

static void *error_last_on_fresh_thread(void *arg) {
    const char **out = arg;
    const char *text = J.error_last();
    *out = text != NULL ? strdup(text) : NULL;
    return NULL;
}

TEST(error_last_when_no_error) {
    pthread_t thread;
    char *fresh = NULL;
    json_t *json;
    jump_config *config = NULL;
    const char *text;

    /* A thread that never called libjump. */
    REQUIRE(pthread_create(&thread, NULL, error_last_on_fresh_thread, &fresh) == 0);
    pthread_join(thread, NULL);
    CHECK_MSG(fresh != NULL, "jump_error_last() is NULL on a fresh thread");
    json = json_parse(fresh);
    CHECK_MSG(json_is_object(json), "jump_error_last() on a fresh thread is not a JSON object: %s",
              fresh ? fresh : "(NULL)");
    if (json_object_get(json, "status") != NULL)
        CHECK_MSG(json_is_integer(json_object_get(json, "status")) &&
                      json_integer_value(json_object_get(json, "status")) == 0,
                  "fresh thread: status is not 0: %s", fresh);
    json_decref(json);
    free(fresh);

    /* After a successful call. */
    REQUIRE_OK(J.config_new(&config));
    text = J.error_last();
    REQUIRE_MSG(text != NULL, "jump_error_last() is NULL after a success");
    json = json_parse(text);
    CHECK_MSG(json_is_object(json), "jump_error_last() after a success is not a JSON object: %s", text);
    json_decref(json);
    J.config_free(config);
}

TEST(error_last_describes_the_failure) {
    jump_config *config = NULL;
    const char *text;
    json_t *detail, *detail2 = NULL;
    REQUIRE_OK(J.config_new(&config));
    CHECK_STATUS(J.config_set_string(config, "noSuchKey", "x"), JUMP_E_INVALID_ARGUMENT);
    text = J.error_last();
    REQUIRE(text != NULL);
    detail = json_parse(text);
    REQUIRE_MSG(json_is_object(detail), "jump_error_last() is not a JSON object: %s", text);
    CHECK_MSG(json_integer_value(json_object_get(detail, "status")) == JUMP_E_INVALID_ARGUMENT,
              "status in %s", text);
    CHECK_MSG(json_str(detail, "status_name") != NULL &&
                  strcmp(json_str(detail, "status_name"), "JUMP_E_INVALID_ARGUMENT") == 0,
              "status_name in %s", text);
    CHECK_MSG(json_str(detail, "message") != NULL && json_str(detail, "message")[0] != '\0', "message in %s",
              text);

    /* The same detail as jansson: a new reference, equal to the text form. */
    CHECK_STATUS(J.config_set_string(config, "noSuchKey", "x"), JUMP_E_INVALID_ARGUMENT);
    CHECK_OK(J.error_last_jansson(&detail2));
    if (CHECK(detail2 != NULL)) {
        CHECK(json_is_object(detail2));
        CHECK_MSG(json_equal(detail, detail2), "jump_error_last_jansson differs from jump_error_last");
        CHECK(detail2->refcount >= 1);
        json_decref(detail2);
    }
    json_decref(detail);
    J.config_free(config);
}

typedef struct thread_error {
    long status_seen;
} thread_error;

static void *fail_differently(void *arg) {
    thread_error *te = arg;
    jump_config *config = NULL;
    json_t *detail;
    J.config_from_json("{not json", &config);
    detail = json_parse(J.error_last());
    te->status_seen = (long)json_integer_value(json_object_get(detail, "status"));
    json_decref(detail);
    return NULL;
}

TEST(error_last_is_thread_local) {
    pthread_t thread;
    thread_error te = {0};
    json_t *detail;
    CHECK_STATUS(J.config_set_string(NULL, "captureLocale", "en-US"), JUMP_E_INVALID_HANDLE);
    REQUIRE(pthread_create(&thread, NULL, fail_differently, &te) == 0);
    pthread_join(thread, NULL);
    CHECK_EQ_INT(te.status_seen, JUMP_E_INVALID_ARGUMENT);
    /* This thread still sees its own failure. */
    detail = json_parse(J.error_last());
    CHECK_MSG(json_integer_value(json_object_get(detail, "status")) == JUMP_E_INVALID_HANDLE,
              "another thread's failure replaced this thread's last error");
    json_decref(detail);
}

TEST(string_free_null_and_real) {
    jump_config *config = NULL;
    char *text = NULL;
    J.string_free(NULL);
    REQUIRE_OK(J.config_new(&config));
    REQUIRE_OK(J.config_to_json(config, &text));
    CHECK(text != NULL);
    J.string_free(text);
    J.config_free(config);
    J.config_free(NULL);
}

TEST(log_callback_userdata_freed_once) {
    recorder first, second;
    recorder_init(&first);
    recorder_init(&second);
    CHECK_OK(J.set_log_callback(recorder_callback, &first, recorder_free));
    CHECK_EQ_INT(recorder_frees(&first), 0);
    /* Replacing drops the first callback. */
    CHECK_OK(J.set_log_callback(recorder_callback, &second, recorder_free));
    CHECK_MSG(recorder_wait_frees(&first, 1, 2000), "the replaced log callback's userdata_free did not run");
    /* Removing drops the second. */
    CHECK_OK(J.set_log_callback(NULL, NULL, NULL));
    CHECK_MSG(recorder_wait_frees(&second, 1, 2000), "the removed log callback's userdata_free did not run");
    sleep_ms(50);
    CHECK_EQ_INT(recorder_frees(&first), 1);
    CHECK_EQ_INT(recorder_frees(&second), 1);
    recorder_destroy(&first);
    recorder_destroy(&second);
}
