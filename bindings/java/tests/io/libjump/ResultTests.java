package io.libjump;

import static io.libjump.Support.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The generated result records (scripts/generators/java_results.py) and how the binding uses them. */
final class ResultTests {
    private ResultTests() {}

    // Functions whose JSON the binding hands over as text on purpose, with why.
    private static final Map<String, String> AS_TEXT = Map.of(
            "jump_config_to_json", "Config.toJson: the settings as JSON text, for Config.fromJson",
            "jump_record_get", "Record.getJson: any JSON value of the record, as text (Record.get parses it)",
            "jump_error_last", "Jump.lastErrorDetail: the detail as text, for diagnostics (the exceptions carry it)",
            "jump_client_next_event", "Client.nextEvent: the queue's documents as text, whatever their kind");

    /**
     * Every function with a "result" in jump_api.json that the binding calls is decoded by its generated
     * Results method, whose return type comes from that "result": a method cannot return another type.
     */
    @TestRunner.Test
    public static void every_result_is_decoded_by_its_generated_decoder() throws Exception {
        String[] roots = System.getProperty("jump.sources").split(File.pathSeparator);
        String results = Files.readString(new File(roots[1], "io/libjump/Results.java").toPath(), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("What (jump_\\w+) returns.*\\n\\s+static .+? (\\w+)\\(Object o\\)").matcher(results);
        StringBuilder source = new StringBuilder();
        for (File f : new File(roots[0], "io/libjump").listFiles()) {
            source.append(Files.readString(f.toPath(), StandardCharsets.UTF_8));
        }
        int typed = 0;
        while (m.find()) {
            if (!source.toString().contains("Native." + m.group(1) + "(") || AS_TEXT.containsKey(m.group(1))) continue;
            typed++;
            check(source.toString().contains("Results." + m.group(2) + "(") || source.toString().contains("Results::" + m.group(2)),
                    m.group(1) + " has a \"result\" in jump_api.json, but the binding does not decode it with Results." + m.group(2));
        }
        check(typed > 30, "the typed functions found: " + typed);
    }

    /** Decoding is lenient: a key or value a newer library adds is kept (json, UNKNOWN), absent keys are zero. */
    @TestRunner.Test
    public static void records_decode_leniently_and_redact_secrets() {
        String doc = "{\"signed_in\":true,\"uuid\":null,\"access_token_expires_at\":1700000000,\"clock_offset_seconds\":-3,"
                + "\"secret_store\":\"enclave\",\"quarantine\":[{\"entry\":\"e\",\"reason\":\"later\",\"quarantined_at\":5}],"
                + "\"added_later\":{\"x\":1}}";
        ClientState s = ClientState.of(Json.parse(doc));
        check(s.signedIn() && s.uuid() == null && Instant.ofEpochSecond(1700000000).equals(s.accessTokenExpiresAt())
                && Duration.ofSeconds(-3).equals(s.clockOffsetSeconds()) && s.secretStore() == ClientState.SecretStore.UNKNOWN
                && s.quarantine().get(0).reason() == QuarantineEntry.Reason.UNKNOWN && s.restoreError() == null
                && Instant.ofEpochSecond(5).equals(s.quarantine().get(0).quarantinedAt()), "decoded: " + s);
        equal(Map.of("x", 1L), s.get("added_later"), "a key this binding does not name, through json");
        check(!s.unsyncedChanges() && s.flowVersion() == null, "absent keys are false and null");
        SignInResult r = SignInResult.of(Json.parse("{\"is_new\":false,\"uuid\":\"u\",\"authorization_code\":\"s3cret\"}"));
        check(r.authorizationCode().equals("s3cret") && !r.toString().contains("s3cret") && r.keptChanges().isEmpty(),
                "the secret is left out of toString: " + r);
        equal("signed_in", Event.Name.SIGNED_IN.toString(), "an enum reads as its JSON value");
    }
}
