package io.libjump;

/** A line of libjump's log (redacted: no secret). level: "debug", "info", "warning" or "error". */
public record LogLine(String level, String message) {
    static LogLine of(Object o) {
        return new LogLine(Json.string(o, "level"), Json.string(o, "message"));
    }
}
