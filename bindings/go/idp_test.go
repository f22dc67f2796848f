package jump

// A browser without a browser: the emulator's fake identity provider pages driven over HTTP (as
// bindings/python/tests/conftest.py's FakeIdP and the C# tests' Web.cs do).

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

type idpForm struct {
	action  string
	inputs  []map[string]string
	buttons []map[string]string
}

var (
	formTag   = regexp.MustCompile(`(?is)<form\b([^>]*)>(.*?)</form>`)
	inputTag  = regexp.MustCompile(`(?i)<input\b([^>]*)>`)
	buttonTag = regexp.MustCompile(`(?is)<button\b([^>]*)>(.*?)</button>`)
	attribute = regexp.MustCompile(`([\w-]+)\s*=\s*"([^"]*)"`)
	anyTag    = regexp.MustCompile(`<[^>]*>`)
)

func attributes(text string) map[string]string {
	out := map[string]string{}
	for _, m := range attribute.FindAllStringSubmatch(text, -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

func idpForms(base, page string) []idpForm {
	var forms []idpForm
	for _, f := range formTag.FindAllStringSubmatch(page, -1) {
		action := attributes(f[1])["action"]
		u, _ := url.Parse(base)
		ref, _ := url.Parse(action)
		form := idpForm{action: u.ResolveReference(ref).String()}
		for _, i := range inputTag.FindAllStringSubmatch(f[2], -1) {
			form.inputs = append(form.inputs, attributes(i[1]))
		}
		for _, b := range buttonTag.FindAllStringSubmatch(f[2], -1) {
			button := attributes(b[1])
			button["text"] = html.UnescapeString(anyTag.ReplaceAllString(b[2], ""))
			form.buttons = append(form.buttons, button)
		}
		forms = append(forms, form)
	}
	return forms
}

// finishAtIdP opens the provider's start URL and creates an identity (name, email), or cancels; it returns
// where the provider sends the browser (the completion URL).
func finishAtIdP(t testing.TB, start, name, email string, cancel bool) string {
	status, _, body := httpCall(t, "GET", start, nil, nil)
	if status != 200 {
		t.Fatalf("GET %s -> %d", start, status)
	}
	id := "create-identity"
	fields := map[string]string{"display_name": name, "email": email}
	if cancel {
		id, fields = "cancel", nil
	}
	for _, form := range idpForms(start, string(body)) {
		clicked := -1
		for i, b := range form.buttons {
			if b["id"] == id {
				clicked = i
			}
		}
		if clicked < 0 {
			continue
		}
		data := url.Values{}
		for _, in := range form.inputs {
			if in["name"] != "" {
				data.Set(in["name"], in["value"])
			}
		}
		for k, v := range fields {
			data.Set(k, v)
		}
		if b := form.buttons[clicked]; b["name"] != "" {
			data.Set(b["name"], b["value"])
		}
		status, header, answer := httpCall(t, "POST", form.action, []byte(data.Encode()),
			map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		if status < 300 || status >= 400 || header.Get("Location") == "" {
			t.Fatalf("the provider answered %d: %.300s", status, answer)
		}
		u, _ := url.Parse(start)
		ref, _ := url.Parse(header.Get("Location"))
		return u.ResolveReference(ref).String()
	}
	t.Fatalf("no #%s on the provider's page: %.500s", id, strings.TrimSpace(string(body)))
	return ""
}
