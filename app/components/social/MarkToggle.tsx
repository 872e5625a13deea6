import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { get } from "~/lib/client";
import { type MARK_TOGGLES, useSerialToggle } from "~/lib/toggle";
import { ToggleForm } from "./ToggleForm";

type Mark = (typeof MARK_TOGGLES)[number];

/**
 * One private mark (Save) in a note's menu, as lib/toggle.ts MARK_TOGGLES describes it. Spec 4:
 * its state is looked up when the menu opens (`known`: already read with the page, as the menu's
 * dialog is); it toggles with a toast (Bookmarked / Unbookmarked), and a failed toggle sets the
 * state off. `back`: where the form returns without JavaScript (this page by default).
 */
export function MarkToggle({
  mark,
  id,
  known,
  back,
  onToast,
}: {
  mark: Mark;
  id: number;
  known?: boolean;
  back?: string;
  onToast: (text: string) => void;
}) {
  const item = useRef<HTMLLIElement>(null);
  const fetcher = useFetcher<{ ok: boolean; data?: Record<string, boolean> }>();
  const [on, setOn] = useState<boolean | null>(known ?? null);

  useEffect(() => {
    // The dialog knows the state already; a dropdown reads it each time it opens.
    const details = known === undefined ? item.current?.closest("details") : null;
    if (!details) return;
    const onToggle = () => {
      if (details.open) {
        get<Record<string, boolean>>(`${mark.path}/${id}?t=note`, { fresh: true })
          .then((r) => setOn(r[mark.state]))
          .catch(() => setOn(false));
      }
    };
    details.addEventListener("toggle", onToggle);
    // A menu asked for before its module had loaded mounts open.
    if (details.open) onToggle();
    return () => details.removeEventListener("toggle", onToggle);
  }, [id, known, mark]);

  const toggle = useSerialToggle(fetcher, on ?? false, (d) => d.data?.[mark.state]);
  useEffect(() => {
    if (!fetcher.data) return;
    const now = fetcher.data.ok ? fetcher.data.data?.[mark.state] : undefined;
    if (now === undefined) return setOn(false);
    setOn(now);
    onToast(now ? mark.toast.on : mark.toast.off);
  }, [fetcher.data]);

  return (
    <li ref={item}>
      <ToggleForm of={mark.of} fetcher={fetcher} toggle={toggle} id={id} t="note" back={back} inMenu>
        <button type="submit">{toggle.shown ? mark.label.on : mark.label.off}</button>
      </ToggleForm>
    </li>
  );
}
