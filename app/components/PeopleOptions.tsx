// The list of people under a field that suggests them (the search field, @mentions). The field
// keeps focus throughout and points at the active option with aria-activedescendant, so options
// are never reached by Tab, and a press picks without blurring the field first.
import type { CSSProperties } from "react";
import { Avatar } from "./Avatar";

export interface PersonOption {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  following?: boolean;
}

/** The id of the `i`th option of the list `listId` (the field's aria-activedescendant). */
export const optionIdOf = (listId: string, i: number) => `${listId}-${i}`;

export function PeopleOptions<P extends PersonOption>({
  listId,
  label,
  className,
  people,
  active,
  avatarSize,
  style,
  onPick,
  onActive,
}: {
  listId: string;
  label: string;
  className: string;
  people: P[];
  active: number;
  avatarSize: number;
  style?: CSSProperties;
  onPick: (person: P) => void;
  onActive: (i: number) => void;
}) {
  return (
    <div role="listbox" id={listId} aria-label={label} className={className} style={style}>
      {people.map((p, i) => (
        <div
          key={p.id}
          id={optionIdOf(listId, i)}
          role="option"
          aria-selected={i === active}
          tabIndex={-1}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(p);
          }}
          onMouseMove={() => i !== active && onActive(i)}
        >
          <Avatar name={p.fullname} src={p.avatar} size={avatarSize} />
          <span className="option-who">
            <strong>{p.fullname}</strong>
            <small>@{p.username}</small>
          </span>
          {p.following && <small className="option-tag">Following</small>}
        </div>
      ))}
    </div>
  );
}
