package io.libjump;

import static io.libjump.Support.*;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import javax.tools.DocumentationTool;
import javax.tools.ToolProvider;

/** The binding's Javadoc: every public member documented, -Xdoclint:all without a warning. */
final class DocTests {
    private DocTests() {}

    @TestRunner.Test(seconds = 120)
    public static void javadoc_doclint_all_is_clean() throws Exception {
        String sources = System.getProperty("jump.sources");
        // the source roots, hand-written first (module-info.java), then the generated ones
        check(sources != null && new File(sources.split(File.pathSeparator)[0], "module-info.java").isFile(),
                "jump.sources (" + sources + ") starts with the root holding module-info.java");
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        check(javadoc != null, "the JDK's javadoc tool");
        File out = Files.createTempDirectory("jump-javadoc").toFile();
        try {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            int rc;
            try (PrintStream ps = new PrintStream(log, true, StandardCharsets.UTF_8)) {
                rc = javadoc.run(null, ps, ps, "-quiet", "-Xdoclint:all", "-Xmaxwarns", "10000", "-Xmaxerrs", "10000",
                        "--release", "17", "-d", out.getPath(), "-sourcepath", sources, "--module", "io.libjump");
            }
            String text = log.toString(StandardCharsets.UTF_8);
            equal(0, rc, "javadoc's exit status: " + text);
            check(!text.contains("warning") && !text.contains("error"), "no doclint warning: " + text);
            check(new File(out, "io.libjump/io/libjump/JumpFuture.html").isFile(), "JumpFuture's page");
            check(new File(out, "io.libjump/io/libjump/ConfigKey.html").isFile(), "ConfigKey's page");
        } finally {
            try (var walk = Files.walk(out.toPath())) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
