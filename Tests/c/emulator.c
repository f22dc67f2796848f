/* emulator.c - see emulator.h. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* nftw */
#endif
#include "emulator.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Defined by harness.h in the test program: async-signal-safe cleanup before re-execution. */
extern void (*harness_crash_hook)(void);

static pid_t emu_pid = -1;
static int emu_stdout = -1;
static pthread_t emu_drainer;
static int emu_drainer_running;
static char emu_base[256];
static int emu_start_failed;
static char emu_root[256];
static int emu_cleanup_registered;
static int emu_tmp_counter;

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    /* Tests may leave directories unreadable or files read-only; root ignores modes, others retry. */
    if (remove(path) != 0) {
        chmod(path, 0700);
        remove(path);
    }
    return 0;
}

static void remove_tree(const char *path) {
    if (path[0] != '\0') nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void emu_crash_hook(void) {
    if (emu_pid > 0) kill(emu_pid, SIGKILL);
}

static void emu_at_exit(void) {
    emu_stop();
    remove_tree(emu_root);
}

static void ensure_root(void) {
    if (emu_root[0] != '\0') return;
    snprintf(emu_root, sizeof emu_root, "/tmp/jump-ctest.XXXXXX");
    if (mkdtemp(emu_root) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
    if (!emu_cleanup_registered) {
        emu_cleanup_registered = 1;
        atexit(emu_at_exit);
        curl_global_init(CURL_GLOBAL_DEFAULT);
    }
}

const char *emu_tmpdir(void) {
    static char paths[512][300];
    char *path;
    ensure_root();
    if (emu_tmp_counter >= 512) {
        fprintf(stderr, "too many temporary directories\n");
        exit(2);
    }
    path = paths[emu_tmp_counter];
    snprintf(path, sizeof paths[0], "%s/d%03d", emu_root, emu_tmp_counter);
    emu_tmp_counter++;
    if (mkdir(path, 0700) != 0) {
        perror(path);
        exit(2);
    }
    return path;
}

static int executable(const char *path) { return path != NULL && path[0] != '\0' && access(path, X_OK) == 0; }

static const char *emulator_binary(void) {
    const char *env = getenv("JUMP_EMULATOR");
    if (executable(env)) return env;
    if (executable("build/bin/jump-emulator")) return "build/bin/jump-emulator";
    if (executable(".build-emu/debug/jump-emulator")) return ".build-emu/debug/jump-emulator";
    return NULL;
}

static void *drain(void *arg) {
    char buffer[4096];
    (void)arg;
    for (;;) {
        ssize_t n = read(emu_stdout, buffer, sizeof buffer);
        if (n > 0) continue;
        if (n < 0 && errno == EINTR) continue;
        break;
    }
    return NULL;
}

/* Reads the first line of fd within timeout_ms; returns 0 on success. */
static int read_first_line(int fd, char *line, size_t size, int timeout_ms) {
    size_t used = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (used + 1 < size) {
        struct pollfd pfd;
        long elapsed;
        int r;
        char c;
        clock_gettime(CLOCK_MONOTONIC, &now);
        elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed >= timeout_ms) return -1;
        pfd.fd = fd;
        pfd.events = POLLIN;
        r = poll(&pfd, 1, (int)(timeout_ms - elapsed));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        r = (int)read(fd, &c, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        if (c == '\n') break;
        line[used++] = c;
    }
    line[used] = '\0';
    while (used > 0 && (line[used - 1] == '\r' || line[used - 1] == ' ')) line[--used] = '\0';
    return used > 0 ? 0 : -1;
}

static void print_log(const char *log_path) {
    char buffer[2048];
    size_t n;
    FILE *f = fopen(log_path, "r");
    if (f == NULL) return;
    printf("    --- emulator log (%s) ---\n", log_path);
    while ((n = fread(buffer, 1, sizeof buffer - 1, f)) > 0) {
        buffer[n] = '\0';
        printf("%s", buffer);
    }
    printf("\n    ---\n");
    fclose(f);
}

static int emu_start(void) {
    const char *binary = emulator_binary();
    char db[400], log_path[400], dir[300];
    int out[2];
    pid_t pid;

    ensure_root();
    if (binary == NULL) {
        printf("    jump-emulator not found ($JUMP_EMULATOR=%s, build/bin/jump-emulator, "
               ".build-emu/debug/jump-emulator)\n",
               getenv("JUMP_EMULATOR") ? getenv("JUMP_EMULATOR") : "unset");
        return -1;
    }
    snprintf(dir, sizeof dir, "%.200s/emulator", emu_root);
    mkdir(dir, 0700);
    snprintf(db, sizeof db, "%s/emu.sqlite", dir);
    snprintf(log_path, sizeof log_path, "%s/emulator.log", dir);
    if (pipe(out) != 0) {
        perror("pipe");
        return -1;
    }
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return -1;
    }
    if (pid == 0) {
        int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(out[1], STDOUT_FILENO);
        if (log >= 0) dup2(log, STDERR_FILENO);
        close(out[1]);
        execl(binary, binary, "--port", "0", "--db", db, "--password-hash-cost", "4", (char *)NULL);
        fprintf(stderr, "exec %s: %s\n", binary, strerror(errno));
        _exit(127);
    }
    close(out[1]);
    emu_pid = pid;
    emu_stdout = out[0];
    harness_crash_hook = emu_crash_hook;
    if (read_first_line(emu_stdout, emu_base, sizeof emu_base, 60000) != 0) {
        printf("    jump-emulator (%s) printed no address within 60 s\n", binary);
        print_log(log_path);
        emu_stop();
        return -1;
    }
    if (strncmp(emu_base, "http://", 7) != 0 && strncmp(emu_base, "https://", 8) != 0) {
        /* Tolerate "host:port" or a line with the URL after a label. */
        char *p = strstr(emu_base, "http");
        if (p != NULL) {
            memmove(emu_base, p, strlen(p) + 1);
        } else {
            char tmp[300];
            snprintf(tmp, sizeof tmp, "http://%.240s", emu_base);
            memcpy(emu_base, tmp, strlen(tmp) + 1);
        }
    }
    if (emu_base[strlen(emu_base) - 1] == '/') emu_base[strlen(emu_base) - 1] = '\0';
    if (pthread_create(&emu_drainer, NULL, drain, NULL) == 0) emu_drainer_running = 1;
    return 0;
}

const char *emu_url(void) {
    if (emu_pid > 0) return emu_base;
    if (emu_start_failed) return NULL;
    if (emu_start() != 0) {
        emu_start_failed = 1;
        return NULL;
    }
    return emu_base;
}

void emu_stop(void) {
    int i, status;
    if (emu_pid <= 0) return;
    kill(emu_pid, SIGTERM);
    for (i = 0; i < 100; i++) {
        pid_t r = waitpid(emu_pid, &status, WNOHANG);
        if (r == emu_pid || r < 0) break;
        {
            struct timespec ts = {0, 50000000L};
            nanosleep(&ts, NULL);
        }
    }
    if (i == 100) {
        kill(emu_pid, SIGKILL);
        waitpid(emu_pid, &status, 0);
    }
    emu_pid = -1;
    if (emu_drainer_running) {
        pthread_join(emu_drainer, NULL);
        emu_drainer_running = 0;
    }
    if (emu_stdout >= 0) close(emu_stdout);
    emu_stdout = -1;
}

/* ---- HTTP ---------------------------------------------------------------------------------------------- */

size_t emu_body_writer(char *ptr, size_t size, size_t nmemb, void *userdata) {
    emu_body *b = userdata;
    size_t n = size * nmemb;
    char *grown = realloc(b->data, b->size + n + 1);
    if (grown == NULL) return 0;
    b->data = grown;
    memcpy(b->data + b->size, ptr, n);
    b->size += n;
    b->data[b->size] = '\0';
    return n;
}

json_t *emu_call(const char *method, const char *path, const char *body, long *http_status) {
    return emu_http(method, path, body != NULL ? "application/json" : NULL, body, http_status);
}

json_t *emu_http(const char *method, const char *url_or_path, const char *content_type, const char *body,
                 long *http_status) {
    const char *base = emu_url(), *path = url_or_path;
    char url[2048], header[256];
    CURL *curl;
    CURLcode rc;
    struct curl_slist *headers = NULL;
    emu_body reply = {NULL, 0};
    long code = 0;
    json_t *json = NULL;

    if (http_status != NULL) *http_status = 0;
    if (base == NULL) return NULL;
    if (strncmp(url_or_path, "http://", 7) == 0)
        snprintf(url, sizeof url, "%s", url_or_path);
    else
        snprintf(url, sizeof url, "%s%s", base, url_or_path);
    curl = curl_easy_init();
    if (curl == NULL) return NULL;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 20000L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, emu_body_writer);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    if (body != NULL) {
        snprintf(header, sizeof header, "Content-Type: %s", content_type != NULL ? content_type : "application/json");
        headers = curl_slist_append(headers, header);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    }
    rc = curl_easy_perform(curl);
    if (rc == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
        if (reply.data != NULL) json = json_loads(reply.data, JSON_DECODE_ANY, NULL);
        if (code >= 300) {
            printf("    emulator: %s %s -> HTTP %ld %s\n", method, path, code, reply.data ? reply.data : "");
        }
    } else {
        printf("    emulator: %s %s failed: %s\n", method, path, curl_easy_strerror(rc));
    }
    if (http_status != NULL) *http_status = code;
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    free(reply.data);
    return json;
}

static int admin(const char *method, const char *path, const char *body) {
    long code;
    json_t *reply = emu_call(method, path, body, &code);
    json_decref(reply);
    return (code >= 200 && code < 300) ? 0 : -1;
}

int emu_reset(void) { return admin("POST", "/emulator/reset", "{}"); }

int emu_advance_clock(long seconds) {
    char body[64];
    snprintf(body, sizeof body, "{\"advance_seconds\": %ld}", seconds);
    return admin("POST", "/emulator/clock", body);
}

int emu_settings(const char *settings_json) { return admin("POST", "/emulator/settings", settings_json); }

int emu_fault(const char *kind, int count, const char *path, int delay_ms) {
    json_t *body = json_pack("{s:s, s:i}", "kind", kind, "count", count);
    char *text;
    int r;
    if (path != NULL) json_object_set_new(body, "path", json_string(path));
    if (delay_ms > 0) json_object_set_new(body, "delay_ms", json_integer(delay_ms));
    text = json_dumps(body, JSON_COMPACT);
    r = admin("POST", "/emulator/faults", text);
    free(text);
    json_decref(body);
    return r;
}

int emu_clear_faults(void) { return admin("DELETE", "/emulator/faults", NULL); }

int emu_clear_counters(void) { return admin("DELETE", "/emulator/counters", NULL); }

json_t *emu_counters(void) {
    long code;
    json_t *reply = emu_call("GET", "/emulator/counters", NULL, &code);
    json_t *counters = json_object_get(reply, "counters");
    if (!json_is_object(counters)) {
        json_decref(reply);
        return NULL;
    }
    json_incref(counters);
    json_decref(reply);
    return counters;
}

long emu_counter(const char *name) {
    json_t *counters = emu_counters();
    json_t *value;
    long result;
    if (counters == NULL) return -1;
    value = json_object_get(counters, name);
    result = json_is_integer(value) ? (long)json_integer_value(value) : 0;
    json_decref(counters);
    return result;
}

json_t *emu_list_users(void) {
    long code;
    json_t *reply = emu_call("GET", "/emulator/users", NULL, &code);
    json_t *users = json_object_get(reply, "users");
    if (!json_is_array(users)) {
        json_decref(reply);
        return NULL;
    }
    json_incref(users);
    json_decref(reply);
    return users;
}

static char *uuid_of(json_t *user) {
    json_t *uuid = json_object_get(user, "uuid");
    return json_is_string(uuid) ? strdup(json_string_value(uuid)) : NULL;
}

char *emu_create_user(const char *email, const char *password, const char *record_json) {
    json_t *body = json_pack("{s:s, s:s}", "email", email, "password", password);
    json_t *reply, *users;
    char *text, *uuid = NULL;
    long code;
    size_t i;

    if (record_json != NULL) {
        json_t *record = json_loads(record_json, 0, NULL);
        if (record == NULL) {
            printf("    emu_create_user: bad record JSON %s\n", record_json);
            json_decref(body);
            return NULL;
        }
        json_object_set_new(body, "record", record);
    }
    text = json_dumps(body, JSON_COMPACT);
    reply = emu_call("POST", "/emulator/users", text, &code);
    free(text);
    json_decref(body);
    if (code < 200 || code >= 300) {
        json_decref(reply);
        return NULL;
    }
    /* The reply's shape: {"user":{...}} or the user itself; else look the user up by email. */
    uuid = uuid_of(json_object_get(reply, "user"));
    if (uuid == NULL) uuid = uuid_of(reply);
    json_decref(reply);
    if (uuid != NULL) return uuid;
    users = emu_list_users();
    for (i = 0; users != NULL && i < json_array_size(users); i++) {
        json_t *user = json_array_get(users, i);
        json_t *mail = json_object_get(user, "email");
        if (json_is_string(mail) && strcmp(json_string_value(mail), email) == 0) {
            uuid = uuid_of(user);
            break;
        }
    }
    json_decref(users);
    return uuid;
}

json_t *emu_get_user(const char *uuid, long *active_sessions) {
    char path[512];
    long code;
    json_t *reply, *user, *sessions;
    snprintf(path, sizeof path, "/emulator/users/%s", uuid);
    reply = emu_call("GET", path, NULL, &code);
    user = json_object_get(reply, "user");
    sessions = json_object_get(reply, "active_sessions");
    if (active_sessions != NULL) *active_sessions = json_is_integer(sessions) ? (long)json_integer_value(sessions) : -1;
    if (!json_is_object(user)) {
        json_decref(reply);
        return NULL;
    }
    json_incref(user);
    json_decref(reply);
    return user;
}

int emu_closed_port(void) {
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    int port = 9;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return port;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
        getsockname(fd, (struct sockaddr *)&addr, &len) == 0)
        port = ntohs(addr.sin_port);
    close(fd);
    return port;
}

/* The string member `name` of reply (malloc'd) or NULL; reply is released. */
static char *take_string_member(json_t *reply, const char *name) {
    json_t *member = json_object_get(reply, name);
    char *copy = json_is_string(member) ? strdup(json_string_value(member)) : NULL;
    json_decref(reply);
    return copy;
}

char *emu_token_user(void) {
    return take_string_member(emu_call("POST", "/emulator/token_users", "{}", NULL), "user_id");
}

char *emu_sign_in_token(const char *user_id) {
    char path[256];
    snprintf(path, sizeof path, "/emulator/token_users/%s/sign_in_token", user_id);
    return take_string_member(emu_call("POST", path, "{}", NULL), "sign_in_token");
}
