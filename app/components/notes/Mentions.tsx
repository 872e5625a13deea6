// @-mention suggestions while a note, a reply or a quote is typed (issue 18): the rich editor and
// the plain textareas (the composer's without its editor, replies, quotes) report the @name before
// the caret; this asks GET /v1/search?t=users&suggest=1 and shows
// the people as a listbox under it. The field keeps focus throughout (as on Mastodon and GitHub):
// arrows move the active option (aria-activedescendant), Enter or Tab picks, Escape closes, a
// status line says how many people were found. ARIA's combobox role is single-line and a textarea
// may carry no other role, so the field stays a multi-line textbox with aria-autocomplete="list",
// aria-controls and aria-activedescendant, the attributes a textbox takes for a popup list.
// Loaded with the composer and quote dialogs (lazy chunks) and with the pages that show a reply
// box (a note, a reply), never with the first load of a feed.
import {
  type CSSProperties,
  type KeyboardEvent,
  type RefObject,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import type { Suggestion } from "../../../worker/features/search/search.people";
import { MENTION_TYPING } from "../../../worker/features/mentions/mentions.constants";
import { PeopleOptions, optionIdOf } from "../PeopleOptions";

/** An @name being typed: the name so far, and where "@name" starts and ends in the field. */
export interface MentionAt {
  query: string;
  from: number;
  to: number;
}

/** The @name that ends `before` (the text up to the caret), with its start offset there; null if none. */
export function mentionAt(before: string): { query: string; start: number } | null {
  const m = MENTION_TYPING.exec(before);
  if (!m?.[2]) return null;
  return { query: m[2], start: before.length - m[2].length - 1 };
}

/** Keys the list answers to; anything else is the field's. */
export interface Key {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  isComposing: boolean;
}

const DEBOUNCE_MS = 120;

// Answers kept for the page's life, so typing back over a name asks nothing again. A plain fetch
// with the session cookie (not ~/lib/client): importing that here moved it out of the chunk a
// page's first load shares, and a stale cookie is just a visitor's search.
const answers = new Map<string, Promise<Suggestion[]>>();
function suggestions(query: string): Promise<Suggestion[]> {
  const key = query.toLowerCase();
  let hit = answers.get(key);
  if (!hit) {
    hit = fetch(`/v1/search?t=users&suggest=1&q=${encodeURIComponent(key)}`, { credentials: "same-origin" })
      .then((r) => (r.ok ? (r.json() as Promise<{ users: Suggestion[] }>) : { users: [] }))
      .then((r) => r.users);
    // A failure is not kept: the next letter asks again.
    hit.catch(() => answers.delete(key));
    answers.set(key, hit);
  }
  return hit;
}

/** Whether one name so far extends the other (the same name typed on or back), case aside. */
const related = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x.startsWith(y) || y.startsWith(x);
};

/**
 * The suggestion list's state for one field. `insert` writes "@username " over the typed @name.
 * Returns the attributes the field carries, the key handler (true: the key was the list's) and
 * the list itself, positioned by the caller.
 */
export function useMentions(insert: (username: string, at: MentionAt) => void) {
  const id = useId();
  const listId = `${id}-list`;
  const [at, setAt] = useState<MentionAt | null>(null);
  const [found, setFound] = useState<{ query: string; users: Suggestion[] } | null>(null);
  const [active, setActive] = useState(0);
  // Escape closes the list for the name as typed; another letter opens it again.
  const [dismissed, setDismissed] = useState<string | null>(null);
  const query = at?.query ?? null;

  useEffect(() => {
    if (query === null) return;
    let live = true;
    const t = setTimeout(() => {
      suggestions(query)
        .then((users) => {
          if (!live) return;
          setFound({ query, users });
          setActive(0);
        })
        .catch(() => live && setFound({ query, users: [] }));
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [query]);

  // The last answer stays up while a letter more or less is asked about (no flicker), never for another name.
  const users = at && found && related(at.query, found.query) ? found.users : [];
  const open = !!at && users.length > 0 && dismissed !== at.query;
  const pick = (u: Suggestion) => {
    if (!at) return;
    insert(u.username, at);
    setAt(null);
    setFound(null);
  };

  const onKey = (e: Key): boolean => {
    if (!open || !at || e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
    const n = users.length;
    switch (e.key) {
      case "ArrowDown":
        setActive((a) => (a + 1) % n);
        return true;
      case "ArrowUp":
        setActive((a) => (a - 1 + n) % n);
        return true;
      case "Enter":
      case "Tab":
        if (e.shiftKey) return false;
        pick(users[Math.min(active, n - 1)]);
        return true;
      case "Escape":
        setDismissed(at.query);
        return true;
      default:
        return false;
    }
  };

  const status =
    !at || !found || found.query !== at.query
      ? ""
      : found.users.length
        ? `${found.users.length} ${found.users.length === 1 ? "person" : "people"} found. Up and down to choose, Enter to mention.`
        : `No one found for @${at.query}.`;

  const fieldAttrs = {
    "aria-autocomplete": "list" as const,
    "aria-controls": open ? listId : undefined,
    "aria-activedescendant": open ? optionIdOf(listId, Math.min(active, users.length - 1)) : undefined,
  };

  const list = (style?: CSSProperties) => (
    <>
      <span role="status" className="sr-only">
        {status}
      </span>
      {open && (
        <PeopleOptions
          listId={listId}
          label="People to mention"
          className="mention-list"
          people={users}
          active={active}
          avatarSize={28}
          style={style}
          onPick={pick}
          onActive={setActive}
        />
      )}
    </>
  );

  return { at, setAt, open, onKey, fieldAttrs, list };
}

/**
 * Mentions for a plain textarea: reads the @name before the caret on input, caret moves and focus,
 * closes on blur, and puts "@username " in place (the caret after it) through `setValue`.
 */
export function useTextareaMentions(ref: RefObject<HTMLTextAreaElement>, setValue: (v: string) => void) {
  const m = useMentions((username, at) => {
    const el = ref.current;
    if (!el) return;
    const v = el.value;
    // The rest of a name the caret stood inside goes too.
    const tail = /^[A-Za-z0-9_]*/.exec(v.slice(at.to))?.[0].length ?? 0;
    const after = v.slice(at.to + tail);
    const text = `@${username}${/^\s/.test(after) ? "" : " "}`;
    const caret = at.from + text.length;
    const next = v.slice(0, at.from) + text + after;
    setValue(next);
    // Now, and again after a render that may have moved it; never once the person typed on (a
    // late move would put their next keys in the wrong place).
    const place = () => el.value === next && el.setSelectionRange(caret, caret);
    place();
    requestAnimationFrame(place);
  });
  const sync = () => {
    const el = ref.current;
    if (!el || el.selectionStart !== el.selectionEnd) return m.setAt(null);
    const found = mentionAt(el.value.slice(0, el.selectionStart));
    m.setAt(found ? { query: found.query, from: found.start, to: el.selectionStart } : null);
  };
  const fieldProps = {
    ...m.fieldAttrs,
    onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => {
      if (!m.onKey(e.nativeEvent)) return;
      e.preventDefault();
      // Escape, Enter and Tab are the list's here: the dialog must not close or move focus.
      e.stopPropagation();
      e.nativeEvent.stopImmediatePropagation();
    },
    onSelect: sync,
    onFocus: sync,
    onBlur: () => m.setAt(null),
  };
  return { sync, fieldProps, list: m.list };
}

/**
 * A textarea that suggests people to @mention, the list under it: controlled through `onText`
 * (the composer), or left to the browser (reply and quote boxes, whose forms read the field on
 * submit and reset it), when a pick writes the field's value itself.
 */
export function MentionTextarea({
  onText,
  ...props
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "onChange"> & { onText?: (text: string) => void }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const mentions = useTextareaMentions(
    ref,
    onText ??
      ((text) => {
        if (ref.current) ref.current.value = text;
      }),
  );
  return (
    <div className="mention-field">
      <textarea
        ref={ref}
        {...props}
        {...mentions.fieldProps}
        onChange={(e) => {
          onText?.(e.target.value);
          mentions.sync();
        }}
      />
      {mentions.list()}
    </div>
  );
}
