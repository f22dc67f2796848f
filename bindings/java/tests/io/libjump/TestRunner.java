package io.libjump;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** A tiny test runner (no JUnit offline): a test is a public static void method without parameters marked
 * @Test in a class CLASSES lists; each runs on its own thread under a time limit. Prints "ok"/"FAIL" lines and
 * ends with "N passed, N failed[, N skipped]" (the line scripts/run-tests.sh counts; a test throws Skipped when
 * what it needs is absent, with the reason). A public method of a listed class
 * without @Test, or a @Test that is not public static void(), is a failure: a test cannot be forgotten.
 * Usage: TestRunner [NAME-FILTER] */
public final class TestRunner {
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Test {
        /** The time limit in seconds. */
        int seconds() default 60;
    }

    /** Thrown by a test that cannot run here (what it needs is absent): counted as skipped, with the reason. */
    static final class Skipped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Skipped(String reason) {
            super(reason);
        }
    }

    static final Class<?>[] CLASSES = {
        ErrorTests.class, CoreTests.class, AsyncTests.class, SafetyTests.class, SocialTests.class,
        TokenTests.class, PackagingTests.class, ExampleTests.class, ConformanceTests.class, ApiTests.class,
        DocTests.class, ResultTests.class, AccountTests.class,
    };

    public static void main(String[] args) throws Exception {
        String filter = args.length > 0 ? args[0] : null;
        int passed = 0, failed = 0, skipped = 0;
        long started = System.nanoTime();
        try {
            for (Class<?> cls : CLASSES) {
                Method[] methods = cls.getDeclaredMethods();
                // declaration order is not guaranteed by reflection: by name, stable across runs
                Arrays.sort(methods, Comparator.comparing(Method::getName));
                for (Method m : methods) {
                    String name = cls.getSimpleName() + "." + m.getName();
                    Test test = m.getAnnotation(Test.class);
                    boolean isPublic = Modifier.isPublic(m.getModifiers());
                    if (test == null) {
                        if (isPublic && !m.isSynthetic()) {
                            failed++;
                            System.out.println("FAIL [discovery] " + name + ": public but not a @Test (mark it, or make it private)");
                        }
                        continue;
                    }
                    if (!isPublic || !Modifier.isStatic(m.getModifiers()) || m.getReturnType() != void.class
                            || m.getParameterCount() != 0) {
                        failed++;
                        System.out.println("FAIL [discovery] " + name + ": a @Test must be public static void()");
                        continue;
                    }
                    if (filter != null && !name.contains(filter)) continue;
                    long t0 = System.nanoTime();
                    Throwable error = run(m, test.seconds());
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    if (error instanceof Skipped) {
                        skipped++;
                        System.out.println("skip " + name + ": " + error.getMessage());
                    } else if (error == null) {
                        passed++;
                        System.out.println("ok   " + name + " (" + ms + " ms)");
                    } else {
                        failed++;
                        System.out.println("FAIL " + name + " (" + ms + " ms): " + error);
                        error.printStackTrace(System.out);
                    }
                    System.out.flush();
                }
            }
        } finally {
            Emulator.stopShared();
        }
        System.out.printf("Java binding tests took %.1f s%n", (System.nanoTime() - started) / 1e9);
        System.out.println(passed + " passed, " + failed + " failed" + (skipped > 0 ? ", " + skipped + " skipped" : ""));
        System.out.flush();
        // daemon threads (delivery, attached libjump threads) must not keep a failed run alive
        System.exit(failed == 0 ? 0 : 1);
    }

    private static Throwable run(Method m, int seconds) throws InterruptedException {
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                m.invoke(null);
            } catch (InvocationTargetException e) {
                error.set(e.getCause());
            } catch (Throwable e) {
                error.set(e);
            }
        }, "test " + m.getName());
        t.setDaemon(true);
        t.start();
        t.join(seconds * 1000L);
        if (t.isAlive()) return new AssertionError("did not finish within " + seconds + " s");
        return error.get();
    }

    /** The names of the tests (for the harness's own checks). */
    static List<String> names() {
        List<String> out = new ArrayList<>();
        for (Class<?> cls : CLASSES)
            for (Method m : cls.getDeclaredMethods())
                if (m.getAnnotation(Test.class) != null) out.add(cls.getSimpleName() + "." + m.getName());
        return out;
    }
}
