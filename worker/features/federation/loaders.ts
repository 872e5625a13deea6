// How Fedify fetches other servers' documents outside APP_ENV=local: the plain loader goes through
// the outbound gate (lib/outbound.ts: https, ports, public addresses, every redirect checked again),
// each request timed out, cached in the key-value store as Fedify's default is. (The signed loader
// is still Fedify's, with its own private-address check.) Locally none of this applies: instances
// federate over plain http on loopback. Everywhere, JSON-LD contexts are never fetched: only the
// ones Fedify ships are known (preloadedContextLoader).
import { getAuthenticatedDocumentLoader, type KvStore, kvCache } from "@fedify/fedify";
import {
  createActivityPubRequest,
  type DocumentLoader,
  type GetUserAgentOptions,
  getDocumentLoader,
  getRemoteDocument,
  preloadedContexts,
} from "@fedify/vocab-runtime";
import { guardedHops, type OutboundDeps } from "../../lib/outbound";

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

/** Fedify's loader factories for local instances (plain http on loopback), cached as Fedify's default. */
export function localLoaders(kv: KvStore, userAgent: GetUserAgentOptions) {
  return {
    documentLoaderFactory: () => kvCache({ loader: getDocumentLoader({ allowPrivateAddress: true, userAgent }), kv }),
    contextLoaderFactory: () => preloadedContextLoader,
    authenticatedDocumentLoaderFactory: (identity: { keyId: URL; privateKey: CryptoKey }) =>
      getAuthenticatedDocumentLoader(identity, { allowPrivateAddress: true, userAgent }),
  };
}

/** Fedify's loader factories for production (FederationOptions). */
export function productionLoaders(kv: KvStore, userAgent: GetUserAgentOptions) {
  const plain = () => httpsOnly(kvCache({ loader: timed(guardedLoader(userAgent)), kv }));
  return {
    documentLoaderFactory: plain,
    contextLoaderFactory: () => preloadedContextLoader,
    authenticatedDocumentLoaderFactory: (identity: { keyId: URL; privateKey: CryptoKey }) =>
      httpsOnly(timed(getAuthenticatedDocumentLoader(identity, { allowPrivateAddress: false, userAgent }))),
  };
}
