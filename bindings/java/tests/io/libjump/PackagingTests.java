package io.libjump;

import static io.libjump.Support.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The jar: it loads libjump and the glue from inside itself (extracted to a private temporary directory). */
final class PackagingTests {
    private PackagingTests() {}

    /** Run in a child JVM with the jar alone on its class path. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            System.out.println("version " + Jump.version());
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/maps")))
                if (line.contains("libjumpjni.so")) {
                    System.out.println("mapped " + line.substring(line.indexOf('/')));
                    break;
                }
        }
    }

    @TestRunner.Test
    public static void the_jar_loads_its_own_native_libraries() throws Exception {
        String jar = System.getenv("JUMP_JAVA_JAR");
        check(jar != null && new File(jar).isFile(), "the jar (JUMP_JAVA_JAR=" + jar + ") was built");
        String probe = System.getProperty("jump.test.classes");
        check(probe != null, "jump.test.classes is set");
        // the probe's own class from the test classes, the binding from the jar only; no java.library.path
        File probeDir = java.nio.file.Files.createTempDirectory("jump-probe").toFile();
        String self = "io/libjump/PackagingTests$Probe.class";
        java.nio.file.Files.createDirectories(new File(probeDir, "io/libjump").toPath());
        java.nio.file.Files.copy(new File(probe, self).toPath(), new File(probeDir, self).toPath());
        String javaBin = System.getProperty("java.home") + "/bin/java";
        Process p = new ProcessBuilder(javaBin, "-cp", jar + File.pathSeparator + probeDir, "-Djava.library.path=/nonexistent",
                "io.libjump.PackagingTests$Probe").redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p.waitFor() == 0, "the probe ran: " + out);
        check(out.contains("version " + Jump.version()), "the jar's libjump answered: " + out);
        check(out.contains("/libjump-") && out.contains("(deleted)"), "loaded from a private temporary copy: " + out);
        List<String> names = List.of(new java.util.zip.ZipFile(jar).stream().map(java.util.zip.ZipEntry::getName).toArray(String[]::new));
        check(names.contains("META-INF/maven/io.libjump/jump/pom.xml"), "the pom is in the jar");
        check(names.contains("module-info.class"), "the jar is a named module");
    }

    /** A program of the unnamed package, run from source with the jar on the module path (and not on the class
     * path): it signs in against the emulator through module io.libjump. */
    private static final String MODULE_PROBE = String.join("\n",
            "import io.libjump.*;",
            "public class ModuleProbe {",
            "    public static void main(String[] args) {",
            "        System.out.println(\"module \" + Client.class.getModule().getName() + \" named \" + Client.class.getModule().isNamed());",
            "        try (Client c = Client.fromJson(args[0], null)) {",
            "            System.out.println(\"uuid \" + c.signIn(args[1], args[2]).uuid());",
            "            JumpFuture<SignInResult> f = c.signInAsync(args[1], args[2]);",
            "            System.out.println(\"async \" + f.join().uuid());",
            "        }",
            "    }",
            "}", "");

    @TestRunner.Test
    public static void the_jar_works_on_the_module_path() throws Exception {
        String jar = System.getenv("JUMP_JAVA_JAR");
        check(jar != null && new File(jar).isFile(), "the jar (JUMP_JAVA_JAR=" + jar + ") was built");
        String[] account = newAccount();
        File dir = java.nio.file.Files.createTempDirectory("jump-module-probe").toFile();
        File source = new File(dir, "ModuleProbe.java");
        java.nio.file.Files.writeString(source.toPath(), MODULE_PROBE);
        String javaBin = System.getProperty("java.home") + "/bin/java";
        Process p = new ProcessBuilder(javaBin, "--module-path", jar, "--add-modules", "io.libjump",
                "-Djava.library.path=/nonexistent", source.getPath(), Json.write(settings(null)), account[0], PASSWORD)
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p.waitFor() == 0, "the probe ran: " + out);
        check(out.contains("module io.libjump named true"), "loaded as the named module io.libjump: " + out);
        check(out.contains("uuid " + account[1]) && out.contains("async " + account[1]), "signed in through the module: " + out);
        check(!out.contains(PASSWORD), "no password in the output");
        source.delete();
        dir.delete();
    }
}
