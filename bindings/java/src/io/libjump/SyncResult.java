package io.libjump;

import java.util.List;
import java.util.Map;

/** What a sync sent: the changed paths, the number of requests, and local element paths renamed to the
 * server's ("/photos#-1" -> "/photos#12"). */
public record SyncResult(List<String> changed, long requests, Map<String, String> renamed, String json) {
    static SyncResult of(Object o) {
        Map<String, String> renamed = new java.util.LinkedHashMap<>();
        Object r = Json.get(o, "renamed");
        if (r instanceof Map) for (Map.Entry<?, ?> e : ((Map<?, ?>) r).entrySet()) renamed.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
        Long n = Json.number(o, "requests");
        return new SyncResult(Json.strings(o, "changed"), n == null ? 0 : n, Map.copyOf(renamed), Json.write(o));
    }
}
