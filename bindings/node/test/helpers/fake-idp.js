'use strict';
// The emulator's fake identity provider, driven over plain HTTP the way a browser would (the Python suite's
// FakeIdP, bindings/python/tests/conftest.py): open the provider's page, then create an identity, continue as an
// existing one, or cancel; the provider's redirect is where the browser lands next. No browser, no DOM: the
// pages are the emulator's own, simple HTML.

/** One HTTP request, redirects not followed (a 302 is an answer like any other). form: fields to POST. */
async function httpCall(url, form = undefined, method = undefined) {
  const response = await fetch(url, {
    method: method ?? (form === undefined ? 'GET' : 'POST'),
    redirect: 'manual',
    headers: form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
    body: form === undefined ? undefined : new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(15000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, location: response.headers.get('location'), text };
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };
const unescape = (text) => text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name) => ENTITIES[name]);

function attributes(text) {
  const found = {};
  for (const m of text.matchAll(/([\w-]+)(?:\s*=\s*"([^"]*)")?/g)) found[m[1]] = unescape(m[2] ?? '');
  return found;
}

/** A provider page: its title and forms (action, inputs, buttons with their text). */
class IdpPage {
  constructor(url, answer) {
    this.url = url;
    this.status = answer.status;
    this.text = answer.text;
    this.title = unescape(/<title>([^<]*)<\/title>/.exec(answer.text)?.[1] ?? '');
    this.forms = [];
    for (const m of answer.text.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
      const attrs = attributes(m[1]);
      this.forms.push({
        action: new URL(attrs.action ?? '', url).href,
        inputs: [...m[2].matchAll(/<input\b([^>]*)>/g)].map((input) => attributes(input[1])),
        buttons: [...m[2].matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map((button) => ({
          ...attributes(button[1]),
          text: unescape(button[2].replace(/<[^>]*>/g, '')).trim(),
        })),
      });
    }
  }

  formWith(id) {
    const form = this.forms.find((f) => f.buttons.some((b) => b.id === id) || f.inputs.some((i) => i.id === id));
    if (!form) throw new Error(`no form with #${id} on the page ${JSON.stringify(this.title)}: ${this.text.slice(0, 2000)}`);
    return form;
  }

  identityButtons() {
    return this.forms.flatMap((f) => f.buttons).filter((b) => String(b.id ?? '').startsWith('identity-'));
  }

  /** Submits the form holding #id as a browser would: its inputs (fields for the visible ones) plus the clicked
   * button's name=value. */
  submit(id, fields = {}) {
    const form = this.formWith(id);
    const data = {};
    for (const input of form.inputs) if (input.name) data[input.name] = input.value ?? '';
    Object.assign(data, fields);
    for (const button of form.buttons) if (button.id === id && button.name) data[button.name] = button.value ?? '';
    return httpCall(form.action, data, 'POST');
  }
}

class FakeIdP {
  /** @param {{url: string, admin: Function}} emu the test file's emulator */
  constructor(emu) {
    this.emu = emu;
  }

  async open(url) {
    const answer = await httpCall(url);
    if (answer.status !== 200) throw new Error(`GET ${url} -> ${answer.status}: ${answer.text.slice(0, 500)}`);
    return new IdpPage(url, answer);
  }

  /** Opens the start URL, then creates an identity ({name, email}), continues as an existing one ({identity}:
   * an email or name on its button) or cancels ({cancel: true}). Resolves to the URL the provider redirects the
   * browser to (the completion URL). */
  async finish(url, { name, email, identity, cancel = false } = {}) {
    const page = await this.open(url);
    let answer;
    if (cancel) {
      answer = await page.submit('cancel');
    } else if (identity !== undefined) {
      const match = page.identityButtons().find((b) => b.text.includes(identity));
      if (!match) throw new Error(`no identity button for ${identity} among ${page.identityButtons().map((b) => b.text)}`);
      answer = await page.submit(match.id);
    } else {
      answer = await page.submit('create-identity', { display_name: name, email });
    }
    if (![301, 302, 303, 307].includes(answer.status) || !answer.location) {
      throw new Error(`the provider answered ${answer.status}: ${answer.text.slice(0, 500)}`);
    }
    return new URL(answer.location, url).href;
  }

  async identities(provider) {
    const query = provider ? `?provider=${encodeURIComponent(provider)}` : '';
    return (await this.emu.admin('GET', `/emulator/identities${query}`)).identities ?? [];
  }

  async identityByEmail(provider, email) {
    const found = (await this.identities(provider)).filter((i) => (i.profile ?? {}).email === email || i.email === email);
    if (found.length !== 1) throw new Error(`${provider} identities with ${email}: ${JSON.stringify(found)}`);
    return found[0];
  }

  createIdentity(provider, fields) {
    return this.emu.admin('POST', '/emulator/identities', { provider, ...fields });
  }
}

/**
 * The "system browser" of a loopback sign-in: openUrl for socialSignInLoopback. It returns at once, as a browser
 * does, then (on the same event loop) fills in the provider's page as `page` says (FakeIdP.finish) and lands on
 * libjump's listener. `done` settles once it landed; `landing` is {url, status, text} there.
 */
class LoopbackBrowser {
  constructor(idp, page) {
    this.idp = idp;
    this.page = page;
    this.urls = [];
    this.landing = null;
    this.done = Promise.resolve();
  }

  get openUrl() {
    return (url) => {
      this.urls.push(url);
      this.done = (async () => {
        const location = await this.idp.finish(url, this.page);
        const answer = await httpCall(location); // the browser lands on the loopback listener
        this.landing = { url: location, status: answer.status, text: answer.text };
      })();
      this.done.catch(() => {}); // awaited by the test; not an unhandled rejection meanwhile
    };
  }
}

/** Where a sign-in URL sends the browser back to (its token_url): the loopback listener. */
function listenerOf(url) {
  return new URL(url).searchParams.get('token_url');
}

module.exports = { FakeIdP, IdpPage, LoopbackBrowser, httpCall, listenerOf };
