// The platform calls a bench row's request makes besides D1 (twins.ts records and replays them):
// the session read (KV), the per-account budgets (rate limits), the queue send, the live hub's
// publish (a Durable Object). A row's bare twin makes the same calls, so its time is the floor of
// what the product requires of the platform, not of D1 alone.

/** One call on a binding: `name` is the Durable Object's name when the binding is a namespace. */
export interface Call {
  binding: string;
  method: string;
  args: unknown[];
  name?: string;
}

type Record = (call: Call, run: () => Promise<unknown>) => Promise<unknown>;
type Bindings = { [name: string]: unknown };

const isObject = (v: unknown): v is object => typeof v === "object" && v !== null;
const isKv = (v: object) => "getWithMetadata" in v && "list" in v;
const isRateLimit = (v: object) => "limit" in v && !("get" in v);
const isQueue = (v: object) => "send" in v && "sendBatch" in v;
const isNamespace = (v: object) => "idFromName" in v && "get" in v;

/** `target`'s methods, each call recorded (then made) by `record`. */
function recorded<T extends object>(binding: string, target: T, record: Record, name?: string): T {
  return new Proxy(target, {
    get(t, method) {
      // A stub or binding is not a promise: nothing awaits it as one.
      if (method === "then" || typeof method !== "string") return undefined;
      const v = Reflect.get(t, method) as unknown;
      if (typeof v !== "function") return v;
      return (...args: unknown[]) =>
        record({ binding, method, args, ...(name === undefined ? {} : { name }) }, () =>
          Promise.resolve(Reflect.apply(v, t, args)),
        );
    },
  });
}

/** A Durable Object namespace whose stubs record their calls (by the object's name). */
function recordedNamespace(binding: string, ns: DurableObjectNamespace, record: Record): DurableObjectNamespace {
  const names = new WeakMap<DurableObjectId, string>();
  return new Proxy(ns, {
    get(t, prop) {
      if (prop === "idFromName")
        return (name: string) => {
          const id = t.idFromName(name);
          names.set(id, name);
          return id;
        };
      if (prop === "get")
        return (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
          const stub = t.get(id, options);
          const name = names.get(id);
          return name === undefined ? stub : recorded(binding, stub, record, name);
        };
      const v = Reflect.get(t, prop) as unknown;
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
}

/** The env's KV, rate-limit, queue and Durable Object bindings, each call recorded by `record`. */
export function recordedBindings(env: Bindings, record: Record): Bindings {
  const out: Bindings = {};
  for (const [binding, v] of Object.entries(env)) {
    if (!isObject(v)) continue;
    if (isNamespace(v)) out[binding] = recordedNamespace(binding, v as DurableObjectNamespace, record);
    else if (isKv(v) || isRateLimit(v) || isQueue(v)) out[binding] = recorded(binding, v, record);
  }
  return out;
}

/** Makes `call` again on the env's own binding (its answer is not kept). */
export async function replayCall(env: Bindings, call: Call): Promise<null> {
  const b = env[call.binding] as { [method: string]: (...args: unknown[]) => unknown };
  const target =
    call.name === undefined
      ? b
      : ((b as unknown as DurableObjectNamespace).get(
          (b as unknown as DurableObjectNamespace).idFromName(call.name),
        ) as unknown as typeof b);
  await target[call.method](...(call.method === "limit" ? twinBudget(call.args) : call.args));
  return null;
}

/**
 * A rate limit's arguments with a key of the twin's own: the same call, which must not spend the
 * budget of the person whose request was captured (their next request in the row would meet a 429).
 */
const twinBudget = ([options, ...rest]: unknown[]) =>
  isObject(options) && "key" in options
    ? [{ ...options, key: `bench-twin:${String(options.key)}` }, ...rest]
    : [options, ...rest];

/** What a capture's calls were, for the bench's table ("SESSIONS.get", "FED_QUEUE.send"…). */
export const callName = (c: Call) => `${c.binding}.${c.method}`;
