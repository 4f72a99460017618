/**
 * A browser's part of an OIDC sign-in, driven with fetch: a cookie jar (cookies, like a browser's,
 * are shared by every port of a host), redirects followed one by one, and the provider's own HTML
 * forms (login, consent) filled in and posted as a person would.
 */
export class OidcTestBrowser {
  readonly cookies = new Map<string, string>();

  /** One request with this browser's cookies; keeps the cookies it sets; never follows redirects. */
  async request(url: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const res = await fetch(url, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: { ...(cookie ? { cookie } : {}), ...(init.body ? { origin: new URL(url).origin } : {}) },
      ...(init.body ? { body: init.body } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const gone = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1).trim());
    }
    return res;
  }

  /**
   * From `location` (the provider's authorization URL) through its login and consent pages, signed
   * in as `login`, until the provider sends the browser to `callbackPrefix`: returns that URL.
   */
  async signInAtProvider(location: string, login: string, callbackPrefix: string): Promise<string> {
    let url = location;
    for (let step = 0; step < 20; step++) {
      if (url.startsWith(callbackPrefix)) return url;
      const res = await this.request(url);
      if (res.status >= 300 && res.status < 400) {
        url = new URL(res.headers.get("location") ?? "", url).href;
        continue;
      }
      const page = await res.text();
      const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
      if (!form?.[1]) throw new Error(`the provider answered ${res.status} without a form:\n${page}`);
      const fields = new URLSearchParams();
      for (const input of (form[2] ?? "").matchAll(/<input[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?/g)) {
        const name = input[1] ?? "";
        fields.set(name, name === "login" ? login : name === "password" ? "any password" : (input[2] ?? ""));
      }
      const posted = await this.request(new URL(form[1], url).href, { method: "POST", body: fields });
      url = new URL(posted.headers.get("location") ?? "", url).href;
    }
    throw new Error("the provider never sent the browser back");
  }
}
