package io.libjump.conformance;

import io.libjump.Client;
import io.libjump.Config;
import io.libjump.HttpResponse;
import io.libjump.Json;
import io.libjump.Jump;
import io.libjump.JumpException;
import io.libjump.JumpFuture;
import io.libjump.Record;
import io.libjump.SavedAccount;
import io.libjump.SavedAccounts;
import io.libjump.SignInResult;
import io.libjump.SignInStatus;
import io.libjump.SignInTokenInfo;
import io.libjump.SignInWithTokenResult;
import io.libjump.SocialOutcome;
import io.libjump.Storage;
import io.libjump.SyncResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The Java runner of Tests/conformance (its README is the contract): plays the scenario named by the last
 * argument with the binding's public API and prints {"scenario","outcome"} on stdout, one line. Its own
 * package, so that only the public API is reachable. */
public final class ConformanceRunner {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).proxy(HttpClient.Builder.NO_PROXY)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();
    private final Map<String, String> placeholders = new LinkedHashMap<>();
    private final Object doc;
    private final Object input;

    private ConformanceRunner(Object doc, Object input) {
        this.doc = doc;
        this.input = input;
    }

    public static void main(String[] args) {
        String name = args[args.length - 1];
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("scenario", name);
        try {
            Object doc = Json.parse(Files.readString(Path.of(System.getenv("JUMP_CONFORMANCE_SCENARIOS"))));
            Object scenario = null;
            for (Object s : (List<?>) Json.get(doc, "scenarios")) if (name.equals(Json.get(s, "name"))) scenario = s;
            if (scenario == null) throw new IllegalArgumentException("no scenario " + name);
            ConformanceRunner r = new ConformanceRunner(doc, Json.get(scenario, "input"));
            r.placeholders.put("${EMULATOR_URL}", System.getenv("JUMP_EMULATOR_URL"));
            r.placeholders.put("${STORAGE_DIR}", System.getenv("JUMP_CONFORMANCE_TMP") + "/storage");
            line.put("outcome", r.play(name));
        } catch (Throwable e) {
            line.remove("outcome");
            line.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            e.printStackTrace(System.err);
        }
        System.out.println(Json.write(line));
        System.out.flush();
        System.exit(0); // the delivery thread is a daemon, but a libjump thread may be attached: do not wait
    }

    // ---- helpers ----

    private Object replace(Object v) {
        if (v instanceof String) {
            String s = (String) v;
            for (Map.Entry<String, String> p : placeholders.entrySet()) s = s.replace(p.getKey(), p.getValue());
            return s;
        }
        if (v instanceof Map) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) m.put((String) e.getKey(), replace(e.getValue()));
            return m;
        }
        if (v instanceof List) {
            List<Object> l = new ArrayList<>();
            for (Object o : (List<?>) v) l.add(replace(o));
            return l;
        }
        return v;
    }

    private Object in(String key) {
        return replace(Json.get(input, key));
    }

    private String str(String key) {
        return (String) in(key);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> map(String key) {
        return (Map<String, Object>) in(key);
    }

    private long num(String key) {
        return ((Number) in(key)).longValue();
    }

    private Client client() {
        return client(str("config"));
    }

    private Client client(String name) {
        Object config = replace(Json.get(Json.get(doc, "configs"), name));
        try (Config c = Config.fromJson(Json.write(config))) {
            return new Client(c);
        }
    }

    /** An admin request of the input ({"method","path","headers"?,"body"?,"result"?}): the answer's JSON, or
     * its "result" member. */
    private Object send(String key) throws Exception {
        return sendRequest(key, in(key));
    }

    /** An admin request ({"method","path","headers"?,"body"?,"result"?}, placeholders replaced). */
    private Object sendRequest(String key, Object req) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(System.getenv("JUMP_EMULATOR_URL") + Json.get(req, "path")))
                .timeout(Duration.ofSeconds(30));
        Object headers = Json.get(req, "headers");
        if (headers instanceof Map) for (Map.Entry<?, ?> h : ((Map<?, ?>) headers).entrySet()) b.header((String) h.getKey(), (String) h.getValue());
        Object body = Json.get(req, "body");
        if (body != null && !(headers instanceof Map && ((Map<?, ?>) headers).containsKey("Content-Type")))
            b.header("Content-Type", "application/json");
        b.method((String) Json.get(req, "method"), body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(Json.write(body)));
        java.net.http.HttpResponse<String> r = HTTP.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) throw new IllegalStateException(key + ": HTTP " + r.statusCode());
        Object answer = r.body().isEmpty() ? Map.of() : Json.parse(r.body());
        String result = (String) Json.get(req, "result");
        return result == null ? answer : Json.get(answer, result);
    }

    private static String statusOf(Throwable e) {
        if (e instanceof ExecutionException) e = e.getCause();
        if (e instanceof CancellationException) return "JUMP_E_CANCELLED"; // the Java idiom for a cancelled call
        if (e instanceof JumpException) return ((JumpException) e).status().cName();
        throw new IllegalStateException("not a libjump failure: " + e, e);
    }

    private static Map<String, Object> obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private static String email(Client c) {
        try (Record r = c.record()) {
            return r.getString("/email");
        }
    }

    // ---- README sections 10 to 14: loopback social sign-in, host storage, event order, merge, API-key mode ----

    /** One request of the browser (redirects not followed): {status, Location or null}. */
    private static Object[] browserCall(String method, String url, String form) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (form == null) b.GET();
        else b.header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        java.net.http.HttpResponse<String> r = HTTP.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        return new Object[] {r.statusCode(), r.headers().firstValue("Location").orElse(null)};
    }

    /** The browser of README section 10: the provider's start page, its form posted at .../callback with the
     * identity, the redirect followed to the listener; the landing page's HTTP status. */
    private static int browse(String url, Map<String, Object> identity) throws Exception {
        Object[] page = browserCall("GET", url, null);
        if ((int) page[0] != 200) throw new IllegalStateException("the provider's start page answered " + page[0]);
        URI start = URI.create(url);
        String path = start.getRawPath().replaceFirst("/start$", "/callback");
        String callback = start.getScheme() + "://" + start.getRawAuthority() + path
                + (start.getRawQuery() == null ? "" : "?" + start.getRawQuery());
        List<String> pairs = new ArrayList<>();
        for (Map.Entry<String, Object> e : identity.entrySet())
            pairs.add(java.net.URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                    + java.net.URLEncoder.encode(String.valueOf(e.getValue()), StandardCharsets.UTF_8));
        Object[] answer = browserCall("POST", callback, String.join("&", pairs));
        int status = (int) answer[0];
        if (status < 300 || status >= 400 || answer[1] == null)
            throw new IllegalStateException("the provider answered " + status + " without a redirect");
        return (int) browserCall("GET", URI.create(callback).resolve((String) answer[1]).toString(), null)[0];
    }

    private Object loopbackSocialSignIn() throws Exception {
        java.util.concurrent.CompletableFuture<Object> landing = new java.util.concurrent.CompletableFuture<>();
        Map<String, Object> identity = map("identity");
        try (Client c = client()) {
            String status = "JUMP_OK";
            SocialOutcome result = null;
            try {
                result = c.social().signInLoopback(str("provider"), null, url -> new Thread(() -> {
                    try {
                        landing.complete(browse(url, identity));
                    } catch (Exception e) {
                        System.err.println("browser: " + e);
                        landing.complete(null);
                    }
                }).start(), Duration.ofMillis(num("timeout_ms")));
            } catch (JumpException e) {
                status = statusOf(e);
            }
            Object landed = null;
            try {
                landed = landing.get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // the browser never landed: null
            }
            return obj("status", status, "signed_in", c.isSignedIn(), "is_new", result == null ? null : result.isNew(),
                    "provider", result == null ? null : result.provider(), "landing_status", landed);
        }
    }

    /** Host storage in a map, counting saves. */
    private static final class MapStorage implements Storage {
        final Map<String, byte[]> entries = new java.util.concurrent.ConcurrentHashMap<>();
        final AtomicInteger saves = new AtomicInteger();

        @Override
        public byte[] load(String key) {
            return entries.get(key);
        }

        @Override
        public void save(String key, byte[] data) {
            saves.incrementAndGet();
            entries.put(key, data.clone());
        }

        @Override
        public void erase(String key) {
            entries.remove(key);
        }
    }

    private Client hostedClient(MapStorage store) {
        Object config = replace(Json.get(Json.get(doc, "configs"), str("config")));
        try (Config c = Config.fromJson(Json.write(config))) {
            c.storage(store);
            return new Client(c);
        }
    }

    private Object hostStorage() {
        Map<String, Object> out = new LinkedHashMap<>();
        MapStorage store = new MapStorage();
        try (Client first = hostedClient(store)) {
            out.put("register", obj("status", statusOfCall(() -> first.registerTraditional(map("user"), str("password")))));
        }
        out.put("saved_entries", store.saves.get() >= 1 && !store.entries.isEmpty());
        try (Client second = hostedClient(store)) {
            String status = statusOfCall(second::restore);
            out.put("restored", obj("status", status, "signed_in", second.isSignedIn(), "record_email", email(second)));
        }
        return out;
    }

    private Object eventOrder() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        List<Object> events = java.util.Collections.synchronizedList(new ArrayList<>());
        Map<String, Object> edit = map("edit");
        try (Client c = client()) {
            c.onEvent(e -> events.add(e.get("event")));
            out.put("register", obj("status", statusOfCall(() -> c.registerTraditional(map("user"), str("password")))));
            try (Record r = c.record()) {
                r.setString((String) edit.get("path"), (String) edit.get("value"));
            }
            out.put("sync", obj("status", statusOfCall(c::sync)));
            out.put("sign_out", obj("status", statusOfCall(c::signOut)));
            long deadline = System.nanoTime() + num("wait_ms") * 1_000_000L; // events arrive on the client's Executor
            while (!events.contains(str("last_event")) && System.nanoTime() < deadline) Thread.sleep(10);
            Thread.sleep(num("settle_ms"));
            synchronized (events) {
                out.put("events", new ArrayList<>(events));
            }
        }
        return out;
    }

    private Object mergeFlow() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        Object stage = send("stage");
        String account = (String) Json.get(Json.get(stage, "user"), "uuid");
        String token = (String) Json.get(Json.get(stage, "conflicting_identity"), "token");
        try (Client c = client()) {
            String status = "JUMP_OK";
            String mergeToken = null;
            try {
                c.social().signInNative(str("provider"), token, null, null);
            } catch (JumpException e) {
                status = statusOf(e);
                Object t = e.detail("merge_token");
                mergeToken = t instanceof String ? (String) t : null;
            }
            out.put("social", obj("status", status, "has_merge_token", mergeToken != null && !mergeToken.isEmpty(),
                    "signed_in", c.isSignedIn()));
            SignInResult merged = null;
            status = "JUMP_OK";
            try {
                merged = c.social().signInMerge(str("login"), str("password"), mergeToken == null ? "" : mergeToken);
            } catch (JumpException e) {
                status = statusOf(e);
            }
            out.put("merge", obj("status", status, "signed_in", c.isSignedIn(),
                    "same_uuid_as_password_account", merged != null && account != null && account.equals(merged.uuid()),
                    "merged", merged == null ? null : merged.merged()));
        }
        return out;
    }

    private Object apiKeyMode() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        String key = (String) send("create_team");
        placeholders.put("${API_KEY}", key);
        String id = (String) send("create_user");
        placeholders.put("${USER_ID}", id);
        try (Client c = client()) {
            out.put("use_api_key", obj("status", statusOfCall(() -> c.tokens().useApiKey(key, id, str("environment"), str("region")))));
            SignInStatus s = c.tokens().status();
            out.put("status", obj("use_api_key", s.useApiKey(), "use_sign_in_token", s.useSignInToken(),
                    "signed_in", s.signedIn(), "user_id_matches", id.equals(s.userId())));
            String status = "JUMP_OK";
            HttpResponse answer = null;
            try {
                answer = c.tokens().request("GET", str("user_path"), null, null);
            } catch (JumpException e) {
                status = statusOf(e);
            }
            out.put("request", obj("status", status, "http_status", answer == null ? null : answer.status()));
            status = statusOfCall(c::signOut);
            s = c.tokens().status();
            out.put("sign_out", obj("status", status, "use_api_key", s.useApiKey(), "signed_in", s.signedIn()));
        }
        return out;
    }

    // ---- the scenarios ----

    private Object play(String name) throws Exception {
        if (Json.get(input, "steps") != null) return playSteps();
        switch (name) {
            case "register_sign_in_bad_password": return registerSignInBadPassword();
            case "edit_sync_plural_append": return editSyncPluralAppend();
            case "refresh_after_clock_moves": return refreshAfterClockMoves();
            case "passing_server_error": return passingServerError();
            case "sign_out_restart": return signOutRestart();
            case "sign_in_token_session": return signInTokenSession();
            case "cancel_async": return cancelAsync();
            case "status_errors": return statusErrors();
            case "several_accounts": return severalAccounts();
            case "loopback_social_sign_in": return loopbackSocialSignIn();
            case "host_storage": return hostStorage();
            case "event_order": return eventOrder();
            case "merge_flow": return mergeFlow();
            case "api_key_mode": return apiKeyMode();
            default: throw new IllegalArgumentException("unknown scenario " + name);
        }
    }

    /** Runs a call that returns nothing: "JUMP_OK" or the status of its JumpException. */
    private static String statusOfCall(Runnable call) {
        try {
            call.run();
            return "JUMP_OK";
        } catch (JumpException e) {
            return statusOf(e);
        }
    }

    /** {count, active email (null when none), every email sorted} of a SavedAccounts. */
    private static Object[] summary(SavedAccounts listed) {
        String active = null;
        List<String> emails = new ArrayList<>();
        for (SavedAccount a : listed.accounts()) {
            emails.add(a.email());
            if (a.uuid().equals(listed.active())) active = a.email();
        }
        java.util.Collections.sort(emails);
        return new Object[] {listed.accounts().size(), active, emails};
    }

    /** README section 9: two users registered (each registration signs its user in) and signed in again into one
     * client with accounts "multiple", listed, switched, one removed. */
    @SuppressWarnings("unchecked")
    private Object severalAccounts() {
        Map<String, Object> out = new LinkedHashMap<>();
        List<Object> users = (List<Object>) in("users");
        Map<String, Object> ann = (Map<String, Object>) users.get(0), bob = (Map<String, Object>) users.get(1);
        String annEmail = (String) ann.get("email"), bobEmail = (String) bob.get("email"), password = str("password");
        try (Client c = client()) {
            c.registerTraditional(ann, password);
            c.registerTraditional(bob, password);
            c.signIn(annEmail, password);
            c.signIn(bobEmail, password);
            SavedAccounts listed = c.accounts();
            Object[] s = summary(listed);
            out.put("after_two_sign_ins", obj("count", s[0], "active_email", s[1], "emails", s[2]));
            Map<String, String> uuidOf = new LinkedHashMap<>();
            for (SavedAccount a : listed.accounts()) uuidOf.put(a.email(), a.uuid());
            String status = statusOfCall(() -> c.switchAccount(uuidOf.get(annEmail)));
            out.put("switch", obj("status", status, "record_email", email(c)));
            status = statusOfCall(() -> c.removeAccount(uuidOf.get(bobEmail)));
            s = summary(c.accounts());
            out.put("remove", obj("status", status, "count", s[0], "signed_in", c.isSignedIn(), "active_email", s[1]));
            out.put("switch_removed", obj("status", statusOfCall(() -> c.switchAccount(uuidOf.get(bobEmail)))));
        }
        return out;
    }

    private Object registerSignInBadPassword() {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> user = map("user");
        try (Client a = client()) {
            SignInResult reg = a.registerTraditional(user, str("password"));
            out.put("register", obj("status", "JUMP_OK", "is_new", reg.isNew(), "signed_in", a.isSignedIn()));
            a.signOut();
            out.put("sign_out", obj("status", "JUMP_OK", "signed_in", a.isSignedIn()));
            String who = (String) user.get(str("sign_in_with"));
            SignInResult in = a.signIn(who, str("password"));
            out.put("sign_in", obj("status", "JUMP_OK", "is_new", in.isNew(), "same_uuid", reg.uuid().equals(in.uuid()),
                    "signed_in", a.isSignedIn()));
            out.put("record_email", email(a));
            String status = "JUMP_OK";
            try {
                a.signIn(who, str("wrong_password"));
            } catch (JumpException e) {
                status = statusOf(e);
            }
            out.put("wrong_password", obj("status", status, "signed_in", a.isSignedIn()));
        }
        return out;
    }

    private Object editSyncPluralAppend() {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> edit = map("edit"), append = map("append");
        String plural = (String) append.get("plural");
        try (Client c = client()) {
            c.registerTraditional(map("user"), str("password"));
            try (Record r = c.record()) {
                r.setString((String) edit.get("path"), (String) edit.get("value"));
                SyncResult s1 = c.sync();
                out.put("sync_edit", obj("status", "JUMP_OK", "changed", s1.changed()));
                @SuppressWarnings("unchecked")
                Map<String, ?> element = (Map<String, ?>) append.get("element");
                out.put("append_path", r.append(plural, element));
                SyncResult s2 = c.sync();
                List<String> from = new ArrayList<>(s2.renamed().keySet());
                java.util.Collections.sort(from);
                boolean serverIds = !s2.renamed().isEmpty();
                for (String to : s2.renamed().values()) serverIds &= to.matches(java.util.regex.Pattern.quote(plural) + "#[1-9][0-9]*");
                out.put("sync_append", obj("status", "JUMP_OK", "changed", s2.changed(), "renamed_from", from,
                        "renamed_to_server_id", serverIds));
                c.fetchRecord();
                out.put("fetch", obj("status", "JUMP_OK"));
                out.put("edited_value", r.getString((String) edit.get("path")));
                out.put("plural_count", r.elementCount(plural));
                List<String> members = new ArrayList<>();
                List<String> paths = r.elementPaths(plural);
                for (String p : paths) members.add(r.getString(p + "/" + append.get("member")));
                out.put("plural_members", members);
                out.put("element_paths_are_renamed", paths.equals(new ArrayList<>(s2.renamed().values())));
                out.put("unsynced_changes", c.state().unsyncedChanges());
            }
        }
        return out;
    }

    private Object passingServerError() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        try (Client c = client()) {
            c.registerTraditional(map("user"), str("password"));
            send("clear_counters");
            send("fault_once");
            out.put("passing", obj("status", fetchStatus(c)));
            out.put("entity_requests_passing", counter("entity_counter"));
            send("fault_lasting");
            out.put("lasting", obj("status", fetchStatus(c)));
            out.put("entity_requests", counter("entity_counter"));
            out.put("signed_in", c.isSignedIn());
        }
        return out;
    }

    private static String fetchStatus(Client c) {
        try {
            c.fetchRecord();
            return "JUMP_OK";
        } catch (JumpException e) {
            return statusOf(e);
        }
    }

    /** The emulator's count of the requests the input's nameKey names (the admin request "counters"). */
    private long counter(String nameKey) throws Exception {
        Object n = Json.get(Json.get(send("counters"), "counters"), str(nameKey));
        return n == null ? 0L : ((Number) n).longValue();
    }

    private Object refreshAfterClockMoves() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        try (Client c = client()) {
            c.registerTraditional(map("user"), str("password"));
            send("clear_counters");
            send("advance_clock");
            out.put("fetch", obj("status", fetchStatus(c)));
            out.put("refresh_requests", counter("refresh_counter"));
            out.put("signed_in", c.isSignedIn());
            out.put("record_email", email(c));
        }
        return out;
    }

    private Object signOutRestart() {
        Map<String, Object> out = new LinkedHashMap<>();
        String uuid;
        try (Client a = client()) {
            uuid = a.registerTraditional(map("user"), str("password")).uuid();
            out.put("first", obj("status", "JUMP_OK", "signed_in", a.isSignedIn()));
        }
        try (Client b = client()) {
            out.put("restored", obj("signed_in", b.isSignedIn(), "same_uuid", uuid.equals(b.state().uuid()),
                    "record_email", email(b)));
            b.signOut();
            out.put("sign_out", obj("status", "JUMP_OK", "signed_in", b.isSignedIn()));
        }
        try (Client c3 = client()) {
            out.put("after_sign_out", obj("signed_in", c3.isSignedIn()));
        }
        return out;
    }

    private Object signInTokenSession() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        String userId = (String) send("create_user");
        placeholders.put("${USER_ID}", userId);
        String token = (String) send("mint");
        SignInTokenInfo decoded = Jump.decodeSignInToken(token);
        out.put("decode", obj("status", "JUMP_OK", "user_id_matches", userId.equals(decoded.userId()),
                "environment", decoded.environment().json(), "region", decoded.region().json()));
        try (Client c = client()) {
            out.put("before", obj("signed_in", c.tokens().status().signedIn()));
            SignInWithTokenResult r = c.tokens().signInWithToken(token);
            out.put("sign_in", obj("status", "JUMP_OK", "user_id_matches", userId.equals(r.userId()),
                    "changed", r.changed(), "migrated", r.migrated()));
            SignInStatus s = c.tokens().status();
            out.put("status", obj("signed_in", s.signedIn(), "use_sign_in_token", s.useSignInToken(), "use_api_key",
                    s.useApiKey(), "user_id_matches", userId.equals(s.userId())));
            String path = str("profile_path");
            HttpResponse put = c.tokens().request("PUT", path, Map.of("Content-Type", "application/json"),
                    Json.write(in("profile")).getBytes(StandardCharsets.UTF_8));
            out.put("put", obj("status", "JUMP_OK", "http_status", put.status()));
            HttpResponse get = c.tokens().request("GET", path, null, null);
            out.put("get", obj("status", "JUMP_OK", "http_status", get.status(), "data",
                    Json.get(Json.parse(get.body()), "data")));
            SignInWithTokenResult again = c.tokens().signInWithToken((String) send("mint"));
            out.put("sign_in_again", obj("status", "JUMP_OK", "changed", again.changed()));
            c.signOut();
            out.put("sign_out", obj("status", "JUMP_OK"));
            out.put("after_sign_out", obj("signed_in", c.tokens().status().signedIn()));
        }
        return out;
    }

    private Object cancelAsync() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        try (Client c = client()) {
            c.registerTraditional(map("user"), str("password"));
            send("clear_counters");
            send("delay");
            AtomicInteger completions = new AtomicInteger();
            JumpFuture<Void> f = c.fetchRecordAsync();
            f.whenComplete((v, e) -> completions.incrementAndGet());
            long end = System.nanoTime() + num("reach_timeout_ms") * 1_000_000L;
            while (System.nanoTime() < end) {
                if (counter("reached_counter") >= 1) break;
                Thread.sleep(20);
            }
            out.put("pending_before_cancel", !f.isDone());
            f.cancel(true);
            long t0 = System.nanoTime();
            String status = "JUMP_OK";
            try {
                f.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                status = statusOf(e);
            }
            // the future is cancelled at once; libjump's side must have stopped too, not waited for the server
            boolean stopped = f.awaitNative(Duration.ofSeconds(10));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            out.put("status", status);
            out.put("within_deadline", stopped && ms < num("cancel_deadline_ms"));
            Thread.sleep(num("settle_ms"));
            out.put("completions", (long) completions.get());
            out.put("signed_in", c.isSignedIn());
        }
        return out;
    }

    private Object statusErrors() {
        List<String> names = new ArrayList<>();
        for (Object s : (List<?>) in("statuses"))
            names.add(JumpException.forStatus(((Number) Json.get(s, "code")).intValue(), null).status().cName());
        return obj("names", names);
    }

    // ---- the generic steps (README, "Step scenarios"): a scenario whose input has "steps" ----

    @FunctionalInterface
    private interface Call<T> {
        T call() throws Exception;
    }

    /** {"status", the detail facts the step asks for} of a call; holder[0] receives what it returned. */
    private static <T> Map<String, Object> stepStatus(Object step, Call<T> call, Object[] holder) throws Exception {
        Object detail = null;
        String status = "JUMP_OK";
        try {
            T result = call.call();
            if (holder != null) holder[0] = result;
        } catch (JumpException | ExecutionException | CancellationException e) {
            status = statusOf(e);
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            if (cause instanceof JumpException) detail = ((JumpException) cause).detailJson();
        }
        Map<String, Object> fact = obj("status", status);
        Object names = Json.get(step, "detail");
        if (names instanceof List) {
            Map<String, Object> picked = new LinkedHashMap<>();
            for (Object k : (List<?>) names) picked.put((String) k, Json.get(detail, (String) k));
            fact.put("detail", picked);
        }
        Object keysOf = Json.get(step, "detail_keys");
        if (keysOf instanceof String) {
            Object member = Json.get(detail, (String) keysOf);
            List<String> keys = null;
            if (member instanceof Map) {
                keys = new ArrayList<>();
                for (Object k : ((Map<?, ?>) member).keySet()) keys.add((String) k);
                java.util.Collections.sort(keys);
            }
            fact.put("detail_keys", keys);
        }
        Object pathsOf = Json.get(step, "detail_paths");
        if (pathsOf instanceof String) {
            Object member = Json.get(detail, (String) pathsOf);
            List<Object> paths = null;
            if (member instanceof List) {
                paths = new ArrayList<>();
                for (Object e : (List<?>) member) paths.add(Json.get(e, "path"));
            }
            fact.put("detail_paths", paths);
        }
        return fact;
    }

    @SuppressWarnings("unchecked")
    private Object playSteps() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Client> clients = new LinkedHashMap<>();
        try {
            for (Object raw : (List<?>) Json.get(input, "steps")) {
                Object step = replace(raw);
                String name = (String) Json.get(step, "client");
                Client c = name == null ? null : clients.get(name);
                String op = (String) Json.get(step, "do");
                Object fact = null;
                Object[] holder = new Object[1];
                Map<String, Object> f;
                switch (op) {
                    case "open": {
                        String config = (String) Json.get(step, "config");
                        clients.put(name, config == null ? client() : client(config));
                        break;
                    }
                    case "close":
                        clients.remove(name).close();
                        break;
                    case "register":
                        f = stepStatus(step, () -> c.registerTraditional((Map<String, ?>) Json.get(step, "user"),
                                (String) Json.get(step, "password")), null);
                        f.put("signed_in", c.isSignedIn());
                        fact = f;
                        break;
                    case "sign_in":
                        f = stepStatus(step, () -> c.signIn((String) Json.get(step, "login"), (String) Json.get(step, "password")), null);
                        f.put("signed_in", c.isSignedIn());
                        fact = f;
                        break;
                    case "sign_out":
                        f = stepStatus(step, () -> { c.signOut(); return null; }, null);
                        f.put("signed_in", c.isSignedIn());
                        fact = f;
                        break;
                    case "sync":
                        f = stepStatus(step, c::sync, holder);
                        f.put("changed", holder[0] == null ? null : ((SyncResult) holder[0]).changed());
                        fact = f;
                        break;
                    case "fetch":
                        fact = stepStatus(step, () -> { c.fetchRecord(); return null; }, null);
                        break;
                    case "request": {
                        String body = (String) Json.get(step, "body");
                        f = stepStatus(step, () -> c.tokens().request((String) Json.get(step, "method"), (String) Json.get(step, "path"),
                                (Map<String, String>) Json.get(step, "headers"), body == null ? null : body.getBytes(StandardCharsets.UTF_8)), holder);
                        f.put("http_status", holder[0] == null ? null : (Object) ((HttpResponse) holder[0]).status());
                        fact = f;
                        break;
                    }
                    case "set":
                        try (Record r = c.record()) {
                            r.setString((String) Json.get(step, "path"), (String) Json.get(step, "value"));
                        }
                        break;
                    case "get":
                        try (Record r = c.record()) {
                            fact = r.getString((String) Json.get(step, "path"));
                        }
                        break;
                    case "signed_in":
                        fact = c.isSignedIn();
                        break;
                    case "admin": {
                        Object answer = sendRequest("step", Json.get(step, "request"));
                        Object counter = Json.get(step, "counter");
                        if (counter != null) {
                            Object n = Json.get(Json.get(answer, "counters"), (String) counter);
                            fact = n == null ? 0L : ((Number) n).longValue();
                        }
                        break;
                    }
                    default:
                        throw new IllegalArgumentException("unknown step " + op);
                }
                Object key = Json.get(step, "out");
                if (key != null) out.put((String) key, fact);
            }
        } finally {
            for (Client c : clients.values()) c.close();
        }
        return out;
    }
}
