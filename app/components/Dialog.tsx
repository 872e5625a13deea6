import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { pageOf } from "~/lib/scroll";
import { Icon } from "./Icon";

const focusables = (el: HTMLElement) =>
  Array.from(
    el.querySelectorAll<HTMLElement>(
      "a[href],button:not([disabled]),input:not([type=hidden]),select,textarea,[tabindex]:not([tabindex='-1']),[contenteditable=true]",
    ),
  );

/**
 * A modal driven by the URL (?dialog=name): it opens and closes by plain links without JavaScript;
 * with JavaScript it traps focus, closes on Escape and returns focus where it was.
 */
export function Dialog({
  title,
  children,
  closeTo,
  full,
  guard,
}: {
  title: string;
  children: ReactNode;
  closeTo?: string;
  /** A form with a footer that stays in view (the composer): fills a phone's screen. */
  full?: boolean;
  /** Closing with something typed asks "Discard changes?" first (with JavaScript). */
  guard?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const navigate = useNavigate();
  // Closing leaves the page as it was under the dialog: none of the dialog's parameters stay behind.
  const close = closeTo ?? pageOf(location);

  const closeRef = useRef(close);
  closeRef.current = close;
  const [asking, setAsking] = useState(false);
  const askingRef = useRef(asking);
  askingRef.current = asking;
  // A close that would lose typed text asks first; answers whether it did.
  const held = () => {
    if (!guard || !ref.current || !edited(ref.current)) return false;
    setAsking(true);
    return true;
  };
  const heldRef = useRef(held);
  heldRef.current = held;
  const onCloseClick = (e: MouseEvent) => {
    if (held()) e.preventDefault();
  };

  // Focus moves in when the dialog opens or moves to its next step (a new title: to the field marked
  // data-autofocus, else the first field), and back where it was when it closes; other URL changes
  // while it is open leave it alone.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const before = document.activeElement as HTMLElement | null;
    if (!el.contains(document.activeElement)) {
      (
        el.querySelector<HTMLElement>("[data-autofocus],[autofocus]") ??
        el.querySelector<HTMLElement>("input:not([type=hidden]),textarea,select") ??
        focusables(el)[0]
      )?.focus();
    }
    return () => {
      if (before?.isConnected) before.focus({ preventScroll: true });
    };
  }, [title]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        if (askingRef.current) setAsking(false);
        else if (!heldRef.current()) navigate(closeRef.current, { replace: true, preventScrollReset: true });
      } else if (e.key === "Tab") {
        const f = focusables(el);
        if (!f.length) return;
        const first = f[0];
        const last = f[f.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [navigate]);

  return (
    <div className={full ? "overlay full" : "overlay"}>
      <Link
        className="overlay-bg"
        to={close}
        replace
        preventScrollReset
        aria-label="Close dialog"
        tabIndex={-1}
        onClick={onCloseClick}
      />
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="dialog-title" ref={ref}>
        <div className="dialog-head">
          <h2 id="dialog-title">{title}</h2>
          <Link to={close} replace preventScrollReset className="icon-btn" aria-label="Close" onClick={onCloseClick}>
            <Icon name="x" size={20} />
          </Link>
        </div>
        {children}
        {asking && <DiscardAsk close={close} keep={() => setAsking(false)} />}
      </div>
    </div>
  );
}

/** Whether any field inside `el` differs from what it was rendered with. */
function edited(el: HTMLElement) {
  for (const f of el.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")) {
    if (f.type === "hidden" || f.type === "submit") continue;
    if (f instanceof HTMLInputElement && f.type === "file" ? f.files?.length : false) return true;
    if (f instanceof HTMLInputElement && (f.type === "checkbox" || f.type === "radio")) {
      if (f.checked !== f.defaultChecked) return true;
    } else if (f.type !== "file" && f.value !== f.defaultValue) return true;
  }
  return false;
}

/** "Discard changes?" over a guarded dialog: Keep editing (focused) or Discard (closes). */
function DiscardAsk({ close, keep }: { close: string; keep: () => void }) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  return (
    <div className="discard" role="alertdialog" aria-labelledby="discard-title" aria-describedby="discard-text">
      <h3 id="discard-title">Discard changes?</h3>
      <p id="discard-text">What you typed here will be lost.</p>
      <div className="row">
        <button type="button" className="btn" onClick={keep} ref={keepRef}>
          Keep editing
        </button>
        <Link to={close} replace preventScrollReset className="btn danger">
          Discard
        </Link>
      </div>
    </div>
  );
}

/**
 * Spec 2 confirm dialogs: a question, No (closes) and Yes (posts the form). `keepPlace`: Yes returns
 * to the page under the dialog, so with JavaScript it stays where it was scrolled.
 */
export function ConfirmDialog({
  title,
  question,
  action,
  fields = {},
  keepPlace = false,
  danger = false,
}: {
  title: string;
  question: string;
  action: string;
  fields?: Record<string, string>;
  keepPlace?: boolean;
  /** Yes destroys something: drawn red. */
  danger?: boolean;
}) {
  const location = useLocation();
  // Otherwise a plain form post: the page it lands on (home, after a logout) loads afresh.
  const how = keepPlace ? { preventScrollReset: true, replace: true } : { reloadDocument: true };
  return (
    <Dialog title={title}>
      <p>{question}</p>
      <Form method="post" action={action} className="row" {...how}>
        {Object.entries(fields).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <Link to={pageOf(location)} className="btn" replace preventScrollReset>
          No
        </Link>
        <button className={danger ? "btn danger" : "btn primary"} type="submit">
          Yes
        </button>
      </Form>
    </Dialog>
  );
}

/**
 * Deleting asks first (spec 2): "Delete {what}", then Yes posts intent=delete for `id` to
 * `action`, which goes on to `goneTo` when given.
 */
export function DeleteDialog({
  what,
  action,
  id,
  goneTo,
  keepPlace,
}: {
  what: string;
  action: string;
  id: string;
  goneTo?: string;
  keepPlace?: boolean;
}) {
  return (
    <ConfirmDialog
      title={`Delete ${what}`}
      question="Are you sure you want to delete?"
      action={action}
      fields={{ intent: "delete", id, ...(goneTo === undefined ? {} : { redirectTo: goneTo }) }}
      keepPlace={keepPlace}
      danger
    />
  );
}
