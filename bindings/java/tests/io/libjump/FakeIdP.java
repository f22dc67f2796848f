package io.libjump;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Plays the browser on the emulator's fake identity provider: opens the sign-in URL, creates an identity,
 * follows the redirect to where libjump waits (the loopback listener). As a program (main), the $BROWSER of
 * the loopback example: exit status 0 once the browser landed. */
final class FakeIdP {
    private FakeIdP() {}

    private static final Pattern FORM = Pattern.compile("<form\\b([^>]*)>(.*?)</form>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern INPUT = Pattern.compile("<input\\b([^>]*)>", Pattern.CASE_INSENSITIVE);
    private static final Pattern BUTTON = Pattern.compile("<button\\b([^>]*)>", Pattern.CASE_INSENSITIVE);
    private static final Pattern ATTR = Pattern.compile("([\\w-]+)\\s*=\\s*\"([^\"]*)\"");

    private static Map<String, String> attributes(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        Matcher a = ATTR.matcher(text);
        while (a.find()) m.put(a.group(1), a.group(2).replace("&amp;", "&").replace("&quot;", "\"")
                .replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'"));
        return m;
    }

    /** Opens url, submits the create-identity form (or presses the button with id `button`), and returns
     * where the provider redirects (absolute). */
    static String finish(String url, String name, String email, String button) throws Exception {
        Object[] page = Emulator.call("GET", url, null);
        if ((int) page[0] != 200) throw new AssertionError("GET " + url + ": " + page[0]);
        String text = (String) page[1];
        String id = button != null ? button : "create-identity";
        Matcher f = FORM.matcher(text);
        while (f.find()) {
            if (!f.group(2).contains("id=\"" + id + "\"")) continue;
            Map<String, String> form = attributes(f.group(1));
            Map<String, String> data = new LinkedHashMap<>();
            Matcher i = INPUT.matcher(f.group(2));
            while (i.find()) {
                Map<String, String> in = attributes(i.group(1));
                if (in.containsKey("name")) data.put(in.get("name"), in.getOrDefault("value", ""));
            }
            Matcher b = BUTTON.matcher(f.group(2));
            while (b.find()) {
                Map<String, String> bt = attributes(b.group(1));
                if (id.equals(bt.get("id")) && bt.containsKey("name")) data.put(bt.get("name"), bt.getOrDefault("value", ""));
            }
            if (button == null) {
                data.put("display_name", name);
                data.put("email", email);
            }
            List<String> pairs = new ArrayList<>();
            for (Map.Entry<String, String> e : data.entrySet())
                pairs.add(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            String action = URI.create(url).resolve(form.getOrDefault("action", "")).toString();
            java.net.http.HttpRequest post = java.net.http.HttpRequest.newBuilder(URI.create(action))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(String.join("&", pairs))).build();
            java.net.http.HttpResponse<String> r = Emulator.HTTP.send(post, java.net.http.HttpResponse.BodyHandlers.ofString());
            String location = r.headers().firstValue("Location").orElse(null);
            if (r.statusCode() < 300 || r.statusCode() >= 400 || location == null)
                throw new AssertionError("the provider did not redirect: " + r.statusCode() + " " + r.body());
            return URI.create(action).resolve(location).toString();
        }
        throw new AssertionError("no form with #" + id + " on " + url);
    }

    /** The browser: finish on the provider, then land on the listener; the landing page's status. */
    static int browse(String url, String name, String email) throws Exception {
        String landing = finish(url, name, email, null);
        return (int) Emulator.call("GET", landing, null)[0];
    }

    /** $BROWSER for the loopback example: FakeIdP URL. */
    public static void main(String[] args) throws Exception {
        String email = "browser-" + java.util.UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        System.exit(browse(args[args.length - 1], "Ex Ample", email) == 200 ? 0 : 1);
    }
}
