package io.libjump;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** The answer of an authorized request (jump_client_request): an HTTP error status is an answer, not a failure. */
public record HttpResponse(int status, List<Map.Entry<String, String>> headers, byte[] body) {
    static HttpResponse of(Object o) {
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        Object h = Json.get(o, "headers");
        if (h instanceof List)
            for (Object pair : (List<?>) h)
                if (pair instanceof List && ((List<?>) pair).size() == 2)
                    headers.add(Map.entry(String.valueOf(((List<?>) pair).get(0)), String.valueOf(((List<?>) pair).get(1))));
        String text = Json.string(o, "body");
        String b64 = Json.string(o, "body_base64");
        byte[] body = text != null ? Utf8.encode(text) : b64 != null ? Base64.getDecoder().decode(b64) : new byte[0];
        Long status = Json.number(o, "status");
        return new HttpResponse(status == null ? 0 : status.intValue(), List.copyOf(headers), body);
    }

    /**
     * The body as text.
     *
     * @return the body decoded as UTF-8
     */
    public String text() {
        return Utf8.decode(body);
    }
}
