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
    }
}
