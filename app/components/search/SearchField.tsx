// The search field of the top bar and of /search, with people suggested as you type (a name, a
// surname, a username: the same people search as the People tab). The form stays a plain GET to
// /search, so without JavaScript it works the same, only without the list. As in Mentions, the
// field keeps focus: arrows move the active suggestion, Enter opens it (or searches when none is
// active), Escape closes the list.
import { useNavigate } from "@remix-run/react";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import type { UserHit } from "../../../worker/features/search/search.people";
import { profilePath } from "~/lib/url";
import { PeopleOptions, optionIdOf } from "../PeopleOptions";

const DEBOUNCE_MS = 200;
const SHOWN = 5;

// Answers kept for the page's life: typing back over a name asks nothing again. Each ask spends
// one search of the person's budget, so only a settled word of two letters or more is asked.
const answers = new Map<string, Promise<UserHit[]>>();
function people(q: string): Promise<UserHit[]> {
  const key = q.trim().toLowerCase();
  let hit = answers.get(key);
  if (!hit) {
    hit = fetch(`/v1/search?${new URLSearchParams({ t: "users", q: key })}`, { credentials: "same-origin" })
      .then((r) => (r.ok ? (r.json() as Promise<{ users: UserHit[] }>) : { users: [] }))
      .then((r) => r.users.slice(0, SHOWN));
    hit.catch(() => answers.delete(key));
    answers.set(key, hit);
  }
  return hit;
}

type Props = {
  id?: string;
  defaultValue: string;
  placeholder: string;
  label?: string;
};

export function SearchField({ id, defaultValue, placeholder, label }: Props) {
  const navigate = useNavigate();
  const listId = useId();
  const [q, setQ] = useState("");
  const [found, setFound] = useState<{ q: string; users: UserHit[] } | null>(null);
  const [active, setActive] = useState(-1);
  const [closed, setClosed] = useState(true);

  useEffect(() => {
    const key = q.trim();
    if ([...key].length < 2) return setFound(null);
    let live = true;
    const t = setTimeout(() => {
      people(key)
        .then((users) => live && setFound({ q: key, users }))
        .catch(() => live && setFound(null));
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q]);

  const users = found?.users ?? [];
  const open = !closed && users.length > 0;
  const go = (u: UserHit) => {
    setClosed(true);
    navigate(profilePath(u.username));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!open || e.nativeEvent.isComposing) return;
    const n = users.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => (e.key === "ArrowDown" ? (a + 1) % n : (a <= 0 ? n : a) - 1));
    } else if (e.key === "Enter" && active >= 0 && active < n) {
      e.preventDefault();
      go(users[active]);
    } else if (e.key === "Escape") setClosed(true);
  };

  return (
    <span className="search-field">
      <input
        id={id}
        type="search"
        name="q"
        aria-label={label}
        defaultValue={defaultValue}
        placeholder={placeholder}
        maxLength={500}
        autoComplete="off"
        enterKeyHint="search"
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open && active >= 0 ? optionIdOf(listId, active) : undefined}
        onChange={(e) => {
          setQ(e.currentTarget.value);
          setActive(-1);
          setClosed(false);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setClosed(true)}
        onFocus={() => setClosed(false)}
      />
      <span role="status" className="sr-only">
        {open ? `${users.length} ${users.length === 1 ? "person" : "people"} suggested. Up and down to choose.` : ""}
      </span>
      {open && (
        <PeopleOptions
          listId={listId}
          label="People"
          className="search-suggest"
          people={users}
          active={active}
          avatarSize={32}
          onPick={go}
          onActive={setActive}
        />
      )}
    </span>
  );
}
