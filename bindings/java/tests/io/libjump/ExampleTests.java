package io.libjump;

import static io.libjump.Support.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The examples/java programs (compiled by build.sh into build/java/examples), run against the test emulator
 * as a user runs them. The loopback example's $BROWSER is FakeIdP's main, which plays the browser. */
final class ExampleTests {
    private ExampleTests() {}

    private static String run(String main, String... args) throws Exception {
        String examples = System.getProperty("jump.examples");
        check(examples != null && new File(examples, main + ".class").isFile(), main + " was compiled into " + examples);
        String java = System.getProperty("java.home") + "/bin/java";
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Djava.library.path=" + System.getProperty("java.library.path"), main));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("BROWSER", java + " -cp " + System.getProperty("java.class.path") + " io.libjump.FakeIdP");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p.waitFor(60, TimeUnit.SECONDS), main + " finished");
        equal(0, p.exitValue(), main + "'s exit status; output: " + out);
        check(!out.contains(PASSWORD), "no password in the output");
        return out;
    }

    @TestRunner.Test(seconds = 90)
    public static void quickstart_example() throws Exception {
        String out = run("Quickstart", emu().url);
        check(out.contains("registered ") && out.contains("wrong password refused: E_BAD_CREDENTIALS"), out);
        check(out.contains("synced [/aboutMe]") && out.contains("event: signed_in"), out);
        check(out.contains("after restart: signed in true, aboutMe Hello from Java"), out);
        check(out.contains("signed out: true"), out);
    }

    @TestRunner.Test(seconds = 90)
    public static void loopback_sign_in_example() throws Exception {
        String out = run("LoopbackSignIn", emu().url, "google");
        check(out.contains("Opening your browser") && out.contains("signed in with google as "), out);
        check(out.contains("linked: true"), out);
    }

    @TestRunner.Test(seconds = 90)
    public static void sign_in_token_session_example() throws Exception {
        String out = run("SignInTokenSession", emu().url, tempDir().toString());
        check(out.contains("identify: signed_in") && out.contains("the token is for "), out);
        check(out.contains("saved the profile: HTTP 200"), out);
        check(out.contains("after restart: identify none") && out.contains("visits"), out);
        check(out.contains("signed out: true"), out);
    }
}
