// How Fedify fetches other servers' documents: every hop through the outbound gate
// (lib/outbound.ts: outside APP_ENV=local https, ports, public addresses, every redirect checked
// again), each request timed out. Documents are signed (draft-cavage, which every server reads)
// by the instance actor, or by the account a fetch is made for, so servers in secure mode answer
// (signed-fetch.ts); plain ones are cached in the key-value store as Fedify's default is. Locally
// instances federate over plain http on loopback. Everywhere, JSON-LD contexts are never fetched:
// only the ones Fedify ships are known (preloadedContextLoader).
import { type KvStore, kvCache } from "@fedify/fedify";
import {
  createActivityPubRequest,
  type DocumentLoader,
  type GetUserAgentOptions,
  getRemoteDocument,
  preloadedContexts,
} from "@fedify/vocab-runtime";
import type { Env } from "../../env";
import { guardedHops, type OutboundDeps, outboundFor } from "../../lib/outbound";
import { type Identity, instanceSender, signingSender } from "./signed-fetch";

export const FETCH_TIMEOUT_MS = 10_000;

const timeout = (signal?: AbortSignal) =>
  signal ? AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]) : AbortSignal.timeout(FETCH_TIMEOUT_MS);

/** Refuses anything but https, before any cache is asked. */
export function httpsOnly(loader: DocumentLoader): DocumentLoader {
  return async (url, options) => {
    if (new URL(url).protocol !== "https:") throw new TypeError(`Refused to fetch ${url}: only https is allowed`);
    return loader(url, options);
  };
}

/** Gives up after FETCH_TIMEOUT_MS. */
const timed =
  (loader: DocumentLoader): DocumentLoader =>
  (url, options) =>
    loader(url, { ...options, signal: timeout(options?.signal) });

/** Fedify's document loader with every hop through the outbound gate; preloaded contexts never fetched. */
export function guardedLoader(userAgent: GetUserAgentOptions, deps: OutboundDeps = {}): DocumentLoader {
  const load: DocumentLoader = async (url, options) => {
    if (url in preloadedContexts) return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    const request = createActivityPubRequest(url, { userAgent });
    const hops = await guardedHops(new Request(request, { signal: options?.signal }), deps);
    return getRemoteDocument(hops.url.href, hops.response, load);
  };
  return load;
}

/**
 * Contexts Fedify ships (ActivityStreams, security, Mastodon's, GoToSocial's…) and nothing else:
 * any other context URL, which anyone can put in a body, reads as an empty context instead of being
 * fetched and stored (its terms are then unknown and dropped, the way an unknown property is).
 */
export const preloadedContextLoader: DocumentLoader = async (url) => ({
  contextUrl: null,
  documentUrl: url,
  document: Object.hasOwn(preloadedContexts, url) ? preloadedContexts[url] : { "@context": {} },
});

/** Fedify's loader factories (FederationOptions) for one environment. */
export function loadersFor(env: Env, kv: KvStore, userAgent: GetUserAgentOptions) {
  const guard = env.APP_ENV === "local" ? (l: DocumentLoader) => l : httpsOnly;
  const through = (send?: (r: Request) => Promise<Response>) =>
    timed(guardedLoader(userAgent, outboundFor(env, send ? { send } : {})));
  return {
    documentLoaderFactory: () =>
      guard(kvCache({ loader: through(env.APP_ORIGIN ? instanceSender(env, env.APP_ORIGIN) : undefined), kv })),
    contextLoaderFactory: () => preloadedContextLoader,
    authenticatedDocumentLoaderFactory: (identity: Identity) => guard(through(signingSender(async () => identity))),
  };
}
