// How Fedify fetches other servers' documents outside APP_ENV=local: https only (private and
// loopback addresses are refused by Fedify's own loaders with allowPrivateAddress off), each
// request timed out, and the plain loader cached in the key-value store as Fedify's default is.
// Locally none of this applies: instances federate over plain http on loopback.
import { getAuthenticatedDocumentLoader, type KvStore, kvCache } from "@fedify/fedify";
import { type DocumentLoader, type GetUserAgentOptions, getDocumentLoader } from "@fedify/vocab-runtime";

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

/** Fedify's loader factories for production (FederationOptions). */
export function productionLoaders(kv: KvStore, userAgent: GetUserAgentOptions) {
  const plain = () =>
    httpsOnly(kvCache({ loader: timed(getDocumentLoader({ allowPrivateAddress: false, userAgent })), kv }));
  return {
    documentLoaderFactory: plain,
    contextLoaderFactory: plain,
    authenticatedDocumentLoaderFactory: (identity: { keyId: URL; privateKey: CryptoKey }) =>
      httpsOnly(timed(getAuthenticatedDocumentLoader(identity, { allowPrivateAddress: false, userAgent }))),
  };
}
