import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../tests/support/memory-storage.ts";
import { colorModeScript, flipColorModeFunction } from "../lib/color-mode";
import { storageItem } from "../lib/storage";
import {
  deferredModuleId,
  hydrateOnInteraction,
  hydrateOnInteractionScript,
  interactionEvents,
} from "./hydrate-on-interaction";

const moduleBody =
  'import "/assets/manifest-1.js";\nimport * as route0 from "/assets/root-1.js";\nimport("/assets/entry.client-1.js");';
const page = [
  '<html><head><link rel="modulepreload" href="/assets/manifest-1.js" nonce="N"/>',
  '<link rel="modulepreload" href="/assets/root-1.js" nonce="N"/>',
  '<link nonce="N" rel="stylesheet" href="/assets/root-1.css"/></head><body><p>text</p>',
  '<script nonce="N">window.__reactRouterContext = {};</script>',
  `<script nonce="N" type="module" async="">${moduleBody}</script></body></html>`,
].join("");

describe("hydrateOnInteraction", () => {
  it("drops the preloads and turns the module script inert, with the loader after it", () => {
    const html = hydrateOnInteraction(page);
    const withoutLoader = html.replace(hydrateOnInteractionScript, "");
    expect(withoutLoader).not.toContain('rel="modulepreload"');
    expect(withoutLoader).not.toContain('type="module"');
    expect(html).toContain('<link nonce="N" rel="stylesheet" href="/assets/root-1.css"/>');
    expect(html).toContain(
      `<script nonce="N" type="text/x-deferred-module" id="${deferredModuleId}" data-modulepreload="/assets/manifest-1.js /assets/root-1.js">${moduleBody}</script><script nonce="N">${hydrateOnInteractionScript}</script></body>`,
    );
  });

  it("leaves a page it does not recognise alone", () => {
    const noModule = page.replace(/<script nonce="N" type="module"[\s\S]*?<\/script>/, "");
    expect(hydrateOnInteraction(noModule)).toBe(noModule);
    const noPreloads = page.replace(/<link rel="modulepreload"[^>]*>/g, "");
    expect(hydrateOnInteraction(noPreloads)).toBe(noPreloads);
  });
});

describe("the loader", () => {
  /** Runs the loader against a stub page; returns what it listens to and a way to fire an event. */
  function runLoader() {
    const listeners = new Map<string, ((event: unknown) => void)[]>();
    const appended: { tag: string; props: Record<string, unknown> }[] = [];
    const element = (tag: string) => {
      const props: Record<string, unknown> = { tag };
      appended.push({ tag, props });
      return props;
    };
    const inert = {
      textContent: moduleBody,
      getAttribute: (name: string) => (name === "data-modulepreload" ? "/a.js /b.js" : null),
    };
    const window = {
      addEventListener: (type: string, listener: (event: unknown) => void) =>
        listeners.set(type, [...(listeners.get(type) ?? []), listener]),
      removeEventListener: (type: string, listener: (event: unknown) => void) =>
        listeners.set(
          type,
          (listeners.get(type) ?? []).filter((l) => l !== listener),
        ),
    };
    const document = {
      currentScript: { nonce: "N" },
      getElementById: (id: string) => (id === deferredModuleId ? inert : null),
      querySelector: () => null,
      createElement: element,
      head: { appendChild: () => {} },
      body: { appendChild: () => {} },
      addEventListener: () => {},
    };
    runInNewContext(hydrateOnInteractionScript, {
      window,
      document,
      JSON,
      Promise,
    });
    const fire = (type: string) => {
      for (const listener of listeners.get(type) ?? []) listener({ type, target: null });
    };
    return { listeners, appended, fire };
  }

  it("fetches nothing until a first interaction, then the preloads and the module, once", () => {
    const { listeners, appended, fire } = runLoader();
    expect(appended).toEqual([]);
    for (const type of interactionEvents) expect(listeners.get(type)?.length ?? 0).toBeGreaterThan(0);
    fire("wheel");
    expect(appended.map((a) => [a.tag, a.props.href ?? a.props.type])).toEqual([
      ["link", "/a.js"],
      ["link", "/b.js"],
      ["script", "module"],
    ]);
    expect(appended[2]?.props).toMatchObject({ nonce: "N", textContent: moduleBody });
    // The listeners are gone: a second interaction adds nothing.
    fire("keydown");
    fire("pointerdown");
    expect(appended).toHaveLength(3);
  });
});

describe("the colour toggle before hydration", () => {
  it("switches the mode as the app's toggle does, and the head script reads it back", () => {
    const store = memoryStorage();
    const attributes: Record<string, string> = { "data-bs-theme": "dark" };
    const button: Record<string, string> = {};
    const documentElement = {
      classList: { add: () => {} },
      getAttribute: (name: string) => attributes[name] ?? null,
      setAttribute: (name: string, value: string) => {
        attributes[name] = value;
      },
    };
    const context = {
      document: { documentElement },
      localStorage: store,
      window: { matchMedia: () => ({ matches: true }) },
      Date,
      JSON,
      button: { setAttribute: (name: string, value: string) => (button[name] = value) },
    };
    runInNewContext(`(${flipColorModeFunction})(button)`, context);
    expect(attributes["data-bs-theme"]).toBe("light");
    expect(button["aria-pressed"]).toBe("false");
    expect(storageItem<string>("color-mode", { storage: () => store }).get()).toBe("light");
    // A reload: the head script applies the remembered mode, not the system's dark.
    delete attributes["data-bs-theme"];
    runInNewContext(colorModeScript, context);
    expect(attributes["data-bs-theme"]).toBe("light");
    runInNewContext(`(${flipColorModeFunction})(button)`, context);
    expect(attributes["data-bs-theme"]).toBe("dark");
    expect(button["aria-pressed"]).toBe("true");
  });
});
