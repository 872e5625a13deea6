// What every federation callback gets, and the tiny message types that travel in the queue beside
// Fedify's own. This module imports nothing from Fedify, so the request path can enqueue without
// loading it (the delivery work happens in the queue consumer).
import type { Env } from "../../env";
import { ROW_KINDS, type RowKindName } from "../interactions/counted";
import type { Reach } from "./reach";
import type { ReplyParent } from "../replies/parent";

/** Page paths that also name an ActivityPub object: /{name}, /{name}/note/{id}, /{name}/rep/{id}. */
export const OBJECT_PAGE = /^\/([^/.@]+)(?:\/(note|rep)\/(\d+))?\/?$/;

export interface FedData {
  env: Env;
}

/**
 * NoteX's own queue messages: "this happened; tell the fediverse". The consumer turns each into
 * activities and hands them to Fedify (which enqueues one delivery per inbox). Ids only, never a
 * secret or a key; `origin` is the site's public origin the activity ids are built from.
 */
export type OutMessage =
  // A delete names who else must hear of it (reach.ts): its rows are gone by the time it is sent.
  | ({ notex: "note"; op: "create" | "update" | "delete"; uid: number; id: number; origin: string } & Reach)
  | ({
      notex: "reply";
      op: "create" | "update" | "delete";
      uid: number;
      id: number;
      origin: string;
      parent?: ReplyParent;
    } & Reach)
  | { notex: "renote"; op: "create" | "delete"; uid: number; target: number; origin: string }
  // A counted interaction with a table of its own (interactions/counted.ts: a like) on a note or reply.
  | { notex: RowKindName; op: "create" | "delete"; uid: number; kind: "note" | "reply"; id: number; origin: string }
  | { notex: "follow"; op: "create" | "delete"; uid: number; target: number; origin: string }
  | { notex: "block"; op: "create" | "delete"; uid: number; target: number; origin: string }
  // Followers elsewhere that `uid` removed (a block of their server): each one's server gets a
  // Reject(Follow). Their follows are gone by the time it is sent, so the message names them.
  | { notex: "reject"; op: "create"; uid: number; followers: number[]; origin: string }
  // The account itself: its profile changed (Update(Person)) or it was deleted (Delete(Person),
  // signed with the keys kept for it, to the servers kept with them: farewell.ts) or suspended
  // (Delete(Person) to the servers that know it, its keys still its own).
  | { notex: "account"; op: "update" | "delete" | "suspend"; uid: number; origin: string }
  // Someone elsewhere just found here for the first time: their recent public posts are read in.
  | { notex: "backfill"; op: "create"; uid: number; origin: string }
  // An account moved (features/moves): "create" tells its followers' servers (a local account
  // moving out); "followers" moves the follows of people here, a chunk at a time.
  | { notex: "move"; op: "create"; uid: number; target: number; origin: string }
  | { notex: "move"; op: "followers"; from: number; to: number; after: number; origin: string }
  // A report forwarded to the reported content's server: sent by the instance actor, so the
  // reporter is not named (no uid in the message).
  | {
      notex: "flag";
      op: "create";
      kind: "note" | "reply" | "user";
      id: number;
      reason: number;
      /** The reporter's own words for the moderators, if any. */
      note?: string;
      /** The report's other posts by the same person (a Mastodon app reports several at once): one Flag. */
      more?: { kind: "note" | "reply"; id: number }[];
      origin: string;
    };

/**
 * The instance actor's identifier (/ap/users/instance, an Application named after the host, as
 * Mastodon's instance actor): it signs what the server itself sends, such as forwarded reports.
 * Account identifiers are numeric ids, so it can never name a person.
 */
export const INSTANCE = "instance";

/** A message as a route hands it over (the origin is added by federate()). */
export type OutEvent = OutMessage extends infer M ? (M extends OutMessage ? Omit<M, "origin"> : never) : never;

export type RowMessage = Extract<OutMessage, { notex: RowKindName }>;

/** A counted interaction with a table of its own (a like), or its undoing. */
export const isRowMessage = (m: OutMessage): m is RowMessage => ROW_KINDS.some((k) => k.name === m.notex);

export const isOutMessage = (body: unknown): body is OutMessage =>
  typeof body === "object" && body !== null && "notex" in body;

/** The site's public origin: APP_ORIGIN, else (locally) the request's own. */
export const siteOriginOf = (env: Env, requestUrl: string) =>
  (env.APP_ORIGIN || new URL(requestUrl).origin).replace(/\/$/, "");
