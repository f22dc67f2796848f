package io.libjump;

import static io.libjump.Support.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** The conformance suite (Tests/conformance, its README is the contract): one test per scenario, each a run of
 * run.py with the Java runner (io.libjump.conformance.ConformanceRunner: the public API only). The suite is read
 * from the checkout's Tests/conformance, or $JUMP_CONFORMANCE_DIR; without either the tests are skipped. */
final class ConformanceTests {
    private ConformanceTests() {}

    private static final Map<String, String> RESULTS = new ConcurrentHashMap<>();

    static Path dir() {
        String env = System.getenv("JUMP_CONFORMANCE_DIR");
        Path own = Path.of("Tests", "conformance").toAbsolutePath();
        Path d = env != null && !env.isEmpty() ? Path.of(env) : own;
        if (!Files.isRegularFile(d.resolve("run.py")) || !Files.isRegularFile(d.resolve("scenarios.json")))
            throw new TestRunner.Skipped("the conformance suite (" + d + "/run.py) is not in this checkout");
        return d;
    }

    /** run.py's "PASS name" / "FAIL name: ..." line for one scenario. */
    static String play(String scenario) throws Exception {
        Path d = dir();
        String java = System.getProperty("java.home") + "/bin/java";
        List<String> command = new ArrayList<>(List.of("python3", d.resolve("run.py").toString(), "java",
                "--scenario", scenario, "--", java, "-cp", System.getProperty("java.class.path"),
                "-Djava.library.path=" + System.getProperty("java.library.path"),
                "io.libjump.conformance.ConformanceRunner"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p.waitFor(150, TimeUnit.SECONDS), "run.py finished");
        for (String line : out.split("\n"))
            if (line.startsWith("PASS " + scenario) || line.startsWith("FAIL " + scenario)) {
                RESULTS.put(scenario, line);
                check(line.startsWith("PASS "), line + "\n" + out);
                return line;
            }
        throw new AssertionError("run.py printed no verdict for " + scenario + ":\n" + out);
    }

    private static final List<String> SCENARIOS = List.of("register_sign_in_bad_password", "edit_sync_plural_append",
            "refresh_after_clock_moves", "passing_server_error", "sign_out_restart", "sign_in_token_session", "cancel_async", "status_errors");

    @TestRunner.Test
    public static void every_scenario_has_a_test() throws Exception {
        Object doc = Json.parse(Files.readString(dir().resolve("scenarios.json")));
        TreeSet<String> names = new TreeSet<>();
        for (Object s : (List<?>) Json.get(doc, "scenarios")) names.add((String) Json.get(s, "name"));
        equal(names, new TreeSet<>(SCENARIOS), "the scenarios of scenarios.json (add a test for a new one)");
        check(new File(System.getProperty("jump.test.classes"), "io/libjump/conformance/ConformanceRunner.class").isFile(),
                "the runner was compiled");
    }

    @TestRunner.Test(seconds = 150)
    public static void conformance_register_sign_in_bad_password() throws Exception {
        play("register_sign_in_bad_password");
    }

    @TestRunner.Test(seconds = 150)
    public static void conformance_edit_sync_plural_append() throws Exception {
        play("edit_sync_plural_append");
    }

    @TestRunner.Test(seconds = 150)
    public static void conformance_refresh_after_clock_moves() throws Exception {
        play("refresh_after_clock_moves");
    }

    @TestRunner.Test
    public static void conformance_passing_server_error() throws Exception {
        play("passing_server_error");
    }

    @TestRunner.Test(seconds = 150)
    public static void conformance_sign_out_restart() throws Exception {
        play("sign_out_restart");
    }

    @TestRunner.Test(seconds = 150)
    public static void conformance_sign_in_token_session() throws Exception {
        play("sign_in_token_session");
    }

    @TestRunner.Test(seconds = 150)
    public static void conformance_cancel_async() throws Exception {
        play("cancel_async");
    }

    @TestRunner.Test(seconds = 150)
    public static void conformance_status_errors() throws Exception {
        play("status_errors");
    }
}
