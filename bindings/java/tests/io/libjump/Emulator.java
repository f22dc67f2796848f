package io.libjump;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A real jump-emulator process on a free loopback port ($JUMP_EMULATOR), and its admin API. */
final class Emulator implements AutoCloseable {
    private static Emulator shared;
    private final Process process;
    final String url;
    // HTTP/1.1: the JDK client otherwise asks a plain-http server for an h2c upgrade, which the emulator does
    // not answer for a request with a body
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER)
            .proxy(HttpClient.Builder.NO_PROXY).connectTimeout(Duration.ofSeconds(10)).build();

    Emulator() throws IOException {
        String binary = System.getenv().getOrDefault("JUMP_EMULATOR", "build/bin/jump-emulator");
        process = new ProcessBuilder(binary, "--port", "0", "--db", ":memory:", "--password-hash-cost", "4")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String line;
        try {
            line = first.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            line = null;
        }
        if (line == null || !line.startsWith("http")) {
            process.destroyForcibly();
            throw new IOException("jump-emulator (" + binary + ") did not print its URL");
        }
        url = line.trim().replaceAll("/+$", "");
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) { }
            } catch (IOException ignored) { }
        }, "emulator-stdout");
        drain.setDaemon(true);
        drain.start();
    }

    /** One emulator for the whole run (in memory; tests use unique users). */
    static synchronized Emulator shared() throws IOException {
        if (shared == null) shared = new Emulator();
        return shared;
    }

    static synchronized void stopShared() {
        if (shared != null) shared.close();
        shared = null;
    }

    /** "host:port" of the URL. */
    String hostPort() {
        return url.replaceFirst("^https?://", "");
    }

    /** An HTTP call; returns {status, body}. */
    static Object[] call(String method, String url, String json, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15));
        for (int i = 0; i + 1 < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        if (json != null) b.header("Content-Type", "application/json");
        b.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Object[] {r.statusCode(), r.body(), r};
    }

    /** An admin call's parsed answer (fails on an HTTP error). */
    Object admin(String method, String path, String json) throws IOException, InterruptedException {
        Object[] r = call(method, url + path, json);
        if ((int) r[0] >= 300) throw new AssertionError(method + " " + path + ": " + r[0] + " " + r[1]);
        return Json.parse((String) r[1]);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
        }
    }
}
