import { Link } from "@remix-run/react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { ReplyJson } from "../../../worker/features/replies/replies.service";
import type { UserJson } from "../../../worker/features/users/users.service";
import { ReplyCard, ReplyForm } from "./ReplyCard";

export interface RepliesData {
  replies: ReplyJson[];
  paginator: { page: number; is_end: boolean };
  cursor: string | null;
}

/** The note page's "Write your reply" bar and its replies (oldest first, a More link for the rest). */
export function Replies({ note, viewer, data }: { note: NoteJson; viewer: UserJson | null; data: unknown }) {
  const d = data as RepliesData | null;
  return (
    <section id="replies" className="replies" aria-label="Replies">
      <ReplyForm parent={-note.id} viewer={viewer} />
      {d?.replies.map((r) => (
        <ReplyCard key={r.id} reply={r} viewer={viewer} />
      ))}
      {d && !d.paginator.is_end && d.cursor && (
        <div className="more">
          <Link to={`?page=${d.paginator.page + 1}&cursor=${d.cursor}#replies`} rel="next">
            More replies
          </Link>
        </div>
      )}
    </section>
  );
}
