package io.libjump;

import static io.libjump.Support.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/** The conformance suite (Tests/conformance, its README is the contract): one test per scenario, reading the
 * verdicts of ONE run of run.py with the Java runner (io.libjump.conformance.ConformanceRunner: the public API
 * only), which saves its outcomes in build/conformance/java.jsonl for Tests/conformance/check.py (and `make
 * conformance`). The suite is read from the checkout's Tests/conformance, or $JUMP_CONFORMANCE_DIR; without
 * either the tests are skipped. */
final class ConformanceTests {
    private ConformanceTests() {}


    static Path dir() {
        String env = System.getenv("JUMP_CONFORMANCE_DIR");
        Path own = Path.of("Tests", "conformance").toAbsolutePath();
        Path d = env != null && !env.isEmpty() ? Path.of(env) : own;
        if (!Files.isRegularFile(d.resolve("run.py")) || !Files.isRegularFile(d.resolve("scenarios.json")))
            throw new TestRunner.Skipped("the conformance suite (" + d + "/run.py) is not in this checkout");
        return d;
    }

    private static String output;

    /** run.py over every scenario, once per test run (the first test to ask runs it): its output. */
    static synchronized String runAll() throws Exception {
        if (output != null) return output;
        Path d = dir();
        String java = System.getProperty("java.home") + "/bin/java";
        Path root = d.toAbsolutePath().getParent().getParent();
        List<String> command = new ArrayList<>(List.of("python3", d.resolve("run.py").toString(), "java",
                "--out", root.resolve("build").resolve("conformance").resolve("java.jsonl").toString(),
                "--", java, "-cp", System.getProperty("java.class.path"),
                "-Djava.library.path=" + System.getProperty("java.library.path"),
                "io.libjump.conformance.ConformanceRunner"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p.waitFor(600, TimeUnit.SECONDS), "run.py finished");
        System.err.print(out);
        output = out;
        return out;
    }

    /** run.py's "PASS name" / "FAIL name: ..." line for one scenario. */
    static String play(String scenario) throws Exception {
        String out = runAll();
        for (String line : out.split("\n"))
            if (line.startsWith("PASS " + scenario + " ") || line.startsWith("FAIL " + scenario + " ")) {
                check(line.startsWith("PASS "), line);
                return line;
            }
        throw new AssertionError("run.py printed no verdict for " + scenario + ":\n" + out);
    }

    private static final List<String> SCENARIOS = List.of("register_sign_in_bad_password",
            "edit_sync_plural_append",
            "refresh_after_clock_moves",
            "passing_server_error",
            "sign_out_restart",
            "sign_in_token_session",
            "cancel_async",
            "status_errors",
            "conflict_detail",
            "register_invalid_fields",
            "register_taken_fields",
            "sign_in_unknown_user",
            "sign_out_keeps_server_edits",
            "signed_out_calls",
            "edit_seen_by_second_client",
            "unknown_write_outcome",
            "server_error_on_sync",
            "lost_sync_answer",
            "lasting_sign_in_error",
            "wrong_device_clock",
            "several_accounts",
            "loopback_social_sign_in",
            "host_storage",
            "event_order",
            "merge_flow",
            "api_key_mode");

    @TestRunner.Test
    public static void every_scenario_has_a_test() throws Exception {
        Object doc = Json.parse(Files.readString(dir().resolve("scenarios.json")));
        TreeSet<String> names = new TreeSet<>();
        for (Object s : (List<?>) Json.get(doc, "scenarios")) names.add((String) Json.get(s, "name"));
        equal(names, new TreeSet<>(SCENARIOS), "the scenarios of scenarios.json (add a test for a new one)");
        check(new File(System.getProperty("jump.test.classes"), "io/libjump/conformance/ConformanceRunner.class").isFile(),
                "the runner was compiled");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_register_sign_in_bad_password() throws Exception {
        play("register_sign_in_bad_password");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_edit_sync_plural_append() throws Exception {
        play("edit_sync_plural_append");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_refresh_after_clock_moves() throws Exception {
        play("refresh_after_clock_moves");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_passing_server_error() throws Exception {
        play("passing_server_error");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_sign_out_restart() throws Exception {
        play("sign_out_restart");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_sign_in_token_session() throws Exception {
        play("sign_in_token_session");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_cancel_async() throws Exception {
        play("cancel_async");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_status_errors() throws Exception {
        play("status_errors");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_conflict_detail() throws Exception {
        play("conflict_detail");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_register_invalid_fields() throws Exception {
        play("register_invalid_fields");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_register_taken_fields() throws Exception {
        play("register_taken_fields");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_sign_in_unknown_user() throws Exception {
        play("sign_in_unknown_user");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_sign_out_keeps_server_edits() throws Exception {
        play("sign_out_keeps_server_edits");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_signed_out_calls() throws Exception {
        play("signed_out_calls");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_edit_seen_by_second_client() throws Exception {
        play("edit_seen_by_second_client");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_unknown_write_outcome() throws Exception {
        play("unknown_write_outcome");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_server_error_on_sync() throws Exception {
        play("server_error_on_sync");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_lost_sync_answer() throws Exception {
        play("lost_sync_answer");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_lasting_sign_in_error() throws Exception {
        play("lasting_sign_in_error");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_wrong_device_clock() throws Exception {
        play("wrong_device_clock");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_several_accounts() throws Exception {
        play("several_accounts");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_loopback_social_sign_in() throws Exception {
        play("loopback_social_sign_in");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_host_storage() throws Exception {
        play("host_storage");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_event_order() throws Exception {
        play("event_order");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_merge_flow() throws Exception {
        play("merge_flow");
    }

    @TestRunner.Test(seconds = 600)
    public static void conformance_api_key_mode() throws Exception {
        play("api_key_mode");
    }
}
