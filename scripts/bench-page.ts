/** Loads a page in Chromium and records every request from the DevTools protocol's network events. */
import type { Browser } from "playwright-core";

export interface LoadedResource {
  url: string;
  /** DevTools resource type: Document, Script, Stylesheet, Font, Image, Fetch… */
  type: string;
  mimeType: string;
  status: number;
  /** Bytes received for the response, headers included, as Chromium counted them (compressed). */
  transferredBytes: number;
  /** Set when the request failed (blocked, aborted, network error). */
  failed?: string;
}

/**
 * Chromium asks for /favicon.ico on its own after some loads and not others (it remembers
 * answers per browser): left out of counts so they stay deterministic.
 */
export function isImplicitFavicon(resource: LoadedResource): boolean {
  return resource.type === "Other" && new URL(resource.url).pathname === "/favicon.ico";
}

export interface PageLoad {
  finalUrl: string;
  /** Every request the page made, Chromium's own favicon request left out. */
  resources: LoadedResource[];
  implicitFavicon: boolean;
  /** Stylesheets and classic synchronous scripts in the document that come from another origin. */
  renderBlockingOtherOrigin: string[];
}

export interface LoadOptions {
  /** Browser locale, which sets Accept-Language: Spanish for `/` so there is no redirect. */
  locale: string;
  /** Scroll to the end and wait again, so lazily loaded resources show up too. */
  scroll?: boolean;
}

export async function loadPage(browser: Browser, url: string, options: LoadOptions): Promise<PageLoad> {
  const context = await browser.newContext({ locale: options.locale, viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const byId = new Map<string, LoadedResource>();
    cdp.on("Network.requestWillBeSent", (event) => {
      if (event.request.url.startsWith("data:") || event.request.url.startsWith("blob:")) return;
      // A redirect reuses the request id: keep the hop that was answered as its own entry.
      const previous = byId.get(event.requestId);
      if (previous && event.redirectResponse) byId.set(`${event.requestId}#${byId.size}`, previous);
      byId.set(event.requestId, {
        url: event.request.url,
        type: event.type ?? "Other",
        mimeType: "",
        status: 0,
        transferredBytes: 0,
      });
    });
    cdp.on("Network.responseReceived", (event) => {
      const resource = byId.get(event.requestId);
      if (!resource) return;
      resource.type = event.type;
      resource.mimeType = event.response.mimeType;
      resource.status = event.response.status;
    });
    cdp.on("Network.loadingFinished", (event) => {
      const resource = byId.get(event.requestId);
      if (resource) resource.transferredBytes = event.encodedDataLength;
    });
    cdp.on("Network.loadingFailed", (event) => {
      const resource = byId.get(event.requestId);
      if (resource) resource.failed = event.blockedReason ?? event.errorText;
    });
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });

    await page.goto(url, { waitUntil: "networkidle" });
    if (options.scroll) {
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      await page.waitForLoadState("networkidle");
    }
    // loadingFinished can trail the idle signal by a moment.
    await page.waitForTimeout(200);

    const origin = new URL(url).origin;
    const renderBlockingOtherOrigin = await page.evaluate((ownOrigin) => {
      const blocking = [
        ...Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel~="stylesheet"]'), (link) => link.href),
        ...Array.from(
          document.querySelectorAll<HTMLScriptElement>("script[src]:not([async]):not([defer]):not([type=module])"),
          (script) => script.src,
        ),
      ];
      return blocking.filter((href) => href && new URL(href, location.href).origin !== ownOrigin);
    }, origin);
    const resources = [...byId.values()];
    return {
      finalUrl: page.url(),
      resources: resources.filter((r) => !isImplicitFavicon(r)),
      implicitFavicon: resources.some(isImplicitFavicon),
      renderBlockingOtherOrigin,
    };
  } finally {
    await context.close();
  }
}
