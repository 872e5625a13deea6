// A note's picture as a Document that also says its blurhash, as Mastodon's attachments do:
// Fedify's Document knows width and height but not blurhash, so this one adds it to each form
// Fedify writes. Mastodon reads the plain key `blurhash` off the JSON; Fedify compacts what it
// serves and sends against a context with the toot: prefix and no blurhash term (a toot: IRI came
// out as "toot:blurhash"), so the expanded form names it under ActivityStreams' `@vocab` ("_:"),
// which compacts back to the bare `blurhash`.
import { Document } from "@fedify/vocab";

const BLURHASH = "_:blurhash";

type DocumentValues = ConstructorParameters<typeof Document>[0];
type JsonLdOptions = Parameters<Document["toJsonLd"]>[0];

export class Picture extends Document {
  readonly blurhash: string | null;

  constructor(values: DocumentValues & { blurhash?: string | null }) {
    const { blurhash, ...rest } = values;
    super(rest);
    this.blurhash = blurhash ?? null;
  }

  override async toJsonLd(options?: JsonLdOptions): Promise<unknown> {
    const json = await super.toJsonLd(options);
    if (!this.blurhash) return json;
    if (options?.format === "expand" && Array.isArray(json) && json[0])
      json[0][BLURHASH] = [{ "@value": this.blurhash }];
    else if (json && typeof json === "object" && !Array.isArray(json))
      (json as Record<string, unknown>).blurhash = this.blurhash;
    return json;
  }
}
