// A local account as its ActivityPub actor (a Person): what its actor URL answers, and what an
// Update(Person) carries when its profile changes (outbox.ts).
import type { Context } from "@fedify/fedify";
import { Endpoints, Image, Person, PropertyValue } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { escapeHtml } from "../../lib/text";
import type { FedData } from "./context";
import type { LocalUser } from "./data";
import { moveState } from "../moves/state";
import { profileFields } from "../users/profile-fields";

export async function personOf(ctx: Context<FedData>, identifier: string, user: LocalUser): Promise<Person> {
  const keys = await ctx.getActorKeyPairs(identifier);
  const origin = new URL(ctx.canonicalOrigin);
  const moves = await moveState(ctx.data.env, ctx.canonicalOrigin, user.id);
  return new Person({
    id: ctx.getActorUri(identifier),
    preferredUsername: user.username,
    name: user.fullname,
    summary: user.descr ? `<p>${escapeHtml(user.descr)}</p>` : null,
    url: new URL(`/${user.username}`, origin),
    // The profile's fields, as Mastodon shows them under the bio: links, the printable CV, the place.
    attachments: profileFields(new URL(`/${user.username}`, origin).href, user).map(
      (f) => new PropertyValue({ name: f.name, value: f.value }),
    ),
    icon: user.avatar ? new Image({ url: new URL(user.avatar, origin) }) : null,
    image: user.cover ? new Image({ url: new URL(user.cover, origin) }) : null,
    published: Temporal.Instant.fromEpochMilliseconds(user.created_at),
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((k) => k.multikey),
    manuallyApprovesFollowers: false,
    discoverable: true,
    // Public notes may be found by Mastodon's full-text search (it leaves out actors without this).
    indexable: true,
    // Account migration (features/moves): the accounts it came from, and where it went.
    aliases: moves.aliases.map((a) => new URL(a.uri)),
    successor: moves.moved_to ? new URL(moves.moved_to.uri) : null,
  });
}
