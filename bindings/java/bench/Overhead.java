package io.libjump;

/** What a call through the Java binding costs, against a no-op JNI call of the same shape through the same
 * glue (NativeBench.noop, (J)I). Rows: the raw native method (JNI + libjump's own cost) and the public API
 * (Client.isSignedIn: the closed-handle check on top). Median of 11 rounds, after a warm-up that lets the JIT
 * compile the loops. No network: the client is signed out. Usage: Overhead [CALLS] */
public final class Overhead {
    static final int ROUNDS = 11;
    static int sink;

    interface Loop {
        void run(int n);
    }

    static double median(Loop loop, int calls) {
        for (int i = 0; i < 20; i++) loop.run(calls / 10); // warm-up: C2 compiles the loop
        double[] samples = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = System.nanoTime();
            loop.run(calls);
            samples[r] = (System.nanoTime() - t0) / (double) calls;
        }
        java.util.Arrays.sort(samples);
        return samples[ROUNDS / 2];
    }

    public static void main(String[] args) {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        try (Client client = Client.fromJson("{\"storageDirectory\":\":memory:\"}", null)) {
            long h = client.handle();
            double floor = median(n -> { for (int i = 0; i < n; i++) sink += NativeBench.noop(h); }, calls);
            double raw = median(n -> { for (int i = 0; i < n; i++) sink += Native.jump_client_is_signed_in(h); }, calls);
            double api = median(n -> { for (int i = 0; i < n; i++) sink += client.isSignedIn() ? 1 : 0; }, calls);
            System.out.printf("%s %s: JNI no-op int(long) through the glue %.1f ns%n", System.getProperty("java.vm.name"),
                    System.getProperty("java.version"), floor);
            System.out.printf("Native.jump_client_is_signed_in raw JNI  vs noop %.1f ns/call %.2fx%n", raw, raw / floor);
            System.out.printf("Client.isSignedIn  vs noop %.1f ns/call %.2fx (+%.1f ns)%n", api, api / floor, api - floor);
        }
        if (sink == 42) System.out.println();
    }
}
