package io.libjump;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Loads libjump.so and the JNI glue (libjumpjni.so) once: from inside the jar (native/<os>-<arch>/, copied to
 * a private temporary directory first, as sqlite-jdbc does) when the jar holds them, else from
 * java.library.path (libjump.so.1 beside libjumpjni.so, or wherever the dynamic linker finds it). */
final class Loader {
    private static boolean loaded;

    private Loader() {}

    static String platform() {
        String arch = System.getProperty("os.arch", "");
        if (arch.equals("amd64") || arch.equals("x86_64")) arch = "x86_64";
        String os = System.getProperty("os.name", "").toLowerCase().startsWith("linux") ? "linux" : "unsupported";
        return os + "-" + arch;
    }

    static synchronized void ensure() {
        if (loaded) return;
        String dir = "/native/" + platform() + "/";
        if (Loader.class.getResource(dir + "libjumpjni.so") != null) {
            fromJar(dir);
        } else {
            for (String d : System.getProperty("java.library.path", "").split(File.pathSeparator)) {
                File lib = new File(d, "libjump.so.1");
                if (!d.isEmpty() && lib.isFile()) {
                    // loaded first, so that the glue's NEEDED libjump.so.1 is this one (matched by soname)
                    System.load(lib.getAbsolutePath());
                    break;
                }
            }
            System.loadLibrary("jumpjni");
        }
        int abi = Native.jump_abi_version();
        if (abi != Native.ABI_VERSION)
            throw new UnsatisfiedLinkError("libjump's ABI version is " + abi + ", this binding needs " + Native.ABI_VERSION);
        loaded = true;
    }

    private static void fromJar(String dir) {
        try {
            // owner-only (rwx------), so no other user can swap the library before it is loaded
            Path tmp = Files.createTempDirectory("libjump-");
            // the libraries libjump needs beyond the C library's own, bundled beside it (found through its
            // RUNPATH $ORIGIN): copied first, deleted with the rest once mapped
            java.util.List<Path> bundled = new java.util.ArrayList<>();
            try (InputStream list = Loader.class.getResourceAsStream(dir + "bundled-libraries.txt")) {
                if (list != null)
                    for (String name : new String(list.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n"))
                        if (!name.isBlank() && name.indexOf('/') < 0) {
                            Path p = copy(dir + name.strip(), tmp);
                            if (p != null) bundled.add(p);
                        }
            }
            Path jump = copy(dir + "libjump.so.1", tmp);
            Path jni = copy(dir + "libjumpjni.so", tmp);
            try {
                if (jump != null) System.load(jump.toString());
                System.load(jni.toString());
            } finally {
                // mapped now: the files are no longer needed (libjump is never unloaded)
                if (jump != null) Files.deleteIfExists(jump);
                Files.deleteIfExists(jni);
                for (Path p : bundled) Files.deleteIfExists(p);
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("cannot extract libjump from the jar: " + e);
        }
    }

    private static Path copy(String resource, Path dir) throws IOException {
        try (InputStream in = Loader.class.getResourceAsStream(resource)) {
            if (in == null) return null;
            Path target = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        }
    }
}
