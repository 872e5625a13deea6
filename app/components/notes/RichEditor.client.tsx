// The rich note editor (spec 2 Note editor). Loaded lazily, only when a composer opens with
// JavaScript on, so first page loads stay small; without JavaScript the composer keeps its textarea.
import { Extension } from "@tiptap/core";
import { Plugin, PluginKey } from "@tiptap/pm/state";
import { Decoration, DecorationSet, type EditorView } from "@tiptap/pm/view";
import { EditorContent, type Editor, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Placeholder } from "@tiptap/extensions";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import { youtubeId } from "../../../worker/features/notes/notes.constants";
import { normaliseLink } from "../../../worker/lib/links";
import { type Key, type MentionAt, mentionAt, useMentions } from "./Mentions";
import { Icon } from "../Icon";
import { FieldError } from "../Field";

/** Same shape the server links: a letter first, then letters or digits. */
const HASHTAG = /(^|[^\p{L}\p{N}_&])(#\p{L}[\p{L}\p{N}]*)/gu;

/** Highlights #hashtags as they are typed (decorations only; the server makes the links). */
const Hashtags = Extension.create({
  name: "hashtags",
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey("hashtags"),
        props: {
          decorations(state) {
            const marks: Decoration[] = [];
            state.doc.descendants((node, pos) => {
              if (!node.isText || !node.text) return;
              for (const m of node.text.matchAll(HASHTAG)) {
                const from = pos + (m.index ?? 0) + m[1].length;
                marks.push(Decoration.inline(from, from + m[2].length, { class: "hashtag" }));
              }
            });
            return DecorationSet.create(state.doc, marks);
          },
        },
      }),
    ];
  },
});

/** Where an @name is being typed, and the caret's box on screen (for the list under it). */
type Typing = (MentionAt & { left: number; bottom: number }) | null;

/**
 * Reports the @name before the caret after every change, caret move and focus (null on blur or a
 * selection), and gives keys to the suggestion list first while it is open. Priority above the
 * keymaps: Enter and Tab pick a person instead of splitting the paragraph or leaving the field.
 */
const MentionTyping = Extension.create<{ report: (t: Typing) => void; onKey: (e: Key) => boolean }>({
  name: "mentionTyping",
  priority: 1000,
  addOptions: () => ({ report: () => {}, onKey: () => false }),
  addProseMirrorPlugins() {
    const { report, onKey } = this.options;
    const read = (view: EditorView) => {
      const { $from, empty } = view.state.selection;
      if (!empty || !view.hasFocus() || !$from.parent.isTextblock) return report(null);
      const m = mentionAt($from.parent.textBetween(0, $from.parentOffset, undefined, "\ufffc"));
      if (!m) return report(null);
      const from = $from.start() + m.start;
      const box = view.coordsAtPos(from);
      report({ query: m.query, from, to: $from.pos, left: box.left, bottom: box.bottom });
    };
    return [
      new Plugin({
        key: new PluginKey("mentionTyping"),
        view: () => ({ update: read }),
        props: {
          handleKeyDown: (_view, event) => {
            if (!onKey(event)) return false;
            // Escape closes the list only, not the composer's dialog.
            event.stopPropagation();
            return true;
          },
          handleDOMEvents: {
            focus: (view) => {
              read(view);
              return false;
            },
            blur: () => {
              report(null);
              return false;
            },
          },
        },
      }),
    ];
  },
});

export interface RichEditorProps {
  initialHtml: string;
  placeholder: string;
  invalid?: boolean;
  videoDisabled: boolean;
  imagesDisabled: boolean;
  /** Opens the composer's image picker. */
  onImages: () => void;
  onChange: (html: string, text: string) => void;
  onVideo: (link: string) => void;
}

type Panel = "link" | "video" | null;

export default function RichEditor({
  initialHtml,
  placeholder,
  invalid,
  videoDisabled,
  imagesDisabled,
  onImages,
  onChange,
  onVideo,
}: RichEditorProps) {
  const [panel, setPanel] = useState<Panel>(null);
  const box = useRef<HTMLDivElement>(null);
  const [caret, setCaret] = useState<{ left: number; top: number } | null>(null);
  const editorRef = useRef<Editor | null>(null);
  const mentions = useMentions((username, at) => {
    // Plain text: the server links @username on save, as it does for a typed one.
    editorRef.current
      ?.chain()
      .focus()
      .command(({ tr }) => {
        tr.insertText(`@${username} `, at.from, at.to);
        return true;
      })
      .run();
  });
  // The plugin is made once; it reaches this render's state through refs.
  const live = useRef(mentions);
  live.current = mentions;
  const typing = useMemo(
    () =>
      MentionTyping.configure({
        report: (t) => {
          const { setAt, at } = live.current;
          if (!t) return at && setAt(null);
          const outer = box.current?.getBoundingClientRect();
          if (outer)
            setCaret({
              left: Math.max(0, Math.min(t.left - outer.left, outer.width - 288)),
              top: t.bottom - outer.top + 4,
            });
          if (!at || at.query !== t.query || at.from !== t.from || at.to !== t.to)
            setAt({ query: t.query, from: t.from, to: t.to });
        },
        onKey: (e) => live.current.onKey(e),
      }),
    [],
  );
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: { openOnClick: false, autolink: true, HTMLAttributes: { rel: "nofollow noopener ugc" } },
      }),
      Placeholder.configure({ placeholder }),
      Hashtags,
      typing,
    ],
    content: initialHtml,
    immediatelyRender: false,
    // The composer opens to write: the caret goes to the end of the note body (issue 21).
    autofocus: "end",
    // The toolbar shows Bold/Italic/list as pressed where the caret is: re-render on each change.
    shouldRerenderOnTransaction: true,
    editorProps: {
      attributes: {
        class: "editor-body",
        role: "textbox",
        "aria-multiline": "true",
        id: "note-text",
        "aria-label": "Note",
        ...(invalid ? { "aria-invalid": "true" } : {}),
      },
    },
    onCreate: ({ editor: e }) => onChange(e.isEmpty ? "" : e.getHTML(), e.getText()),
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? "" : e.getHTML(), e.getText()),
  });

  editorRef.current = editor;
  // The field carries the list's ARIA state (ProseMirror leaves attributes it did not set alone).
  const { fieldAttrs } = mentions;
  useEffect(() => {
    const dom = editor?.view.dom;
    if (!dom) return;
    for (const [name, value] of Object.entries(fieldAttrs)) {
      if (value === undefined) dom.removeAttribute(name);
      else dom.setAttribute(name, value);
    }
  }, [editor, fieldAttrs]);

  return (
    <div className="editor" data-editor ref={box}>
      <EditorContent editor={editor} />
      {/* Under the text, as Mastodon's and Bluesky's composers: one row of icons, each named. */}
      <div className="editor-tools" role="toolbar" aria-label="Formatting">
        <Tool editor={editor} label="Bold" run={(e) => e.chain().focus().toggleBold().run()} active="bold">
          <Icon name="bold" size={18} />
        </Tool>
        <Tool editor={editor} label="Italic" run={(e) => e.chain().focus().toggleItalic().run()} active="italic">
          <Icon name="italic" size={18} />
        </Tool>
        <Tool
          editor={editor}
          label="Bulleted list"
          run={(e) => e.chain().focus().toggleBulletList().run()}
          active="bulletList"
        >
          <Icon name="list" size={18} />
        </Tool>
        <IconTool label="Add Link" onClick={() => setPanel("link")} popup>
          <Icon name="link" size={18} />
        </IconTool>
        <span className="tools-gap" />
        <IconTool label="Add images" onClick={onImages} disabled={imagesDisabled}>
          <Icon name="image-plus" size={18} />
        </IconTool>
        <IconTool label="YouTube" onClick={() => setPanel("video")} disabled={videoDisabled} popup>
          <Icon name="square-play" size={18} />
        </IconTool>
      </div>
      {mentions.list(caret ?? undefined)}
      {panel === "link" && editor && <LinkPanel editor={editor} close={() => setPanel(null)} />}
      {panel === "video" && (
        <VideoPanel
          close={() => setPanel(null)}
          onVideo={(link) => {
            onVideo(link);
            setPanel(null);
          }}
        />
      )}
    </div>
  );
}

/** A toolbar button that is an icon with a name (and the name as a tooltip). */
function IconTool({
  label,
  onClick,
  disabled,
  popup,
  pressed,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  popup?: boolean;
  pressed?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="tool"
      aria-label={label}
      title={label}
      // A pointer press keeps the focus (and the selection) in the editor, as editors' toolbars do:
      // otherwise the button holds it until the command's own focus lands, and a key typed in
      // between goes to the button.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      disabled={disabled}
      aria-haspopup={popup ? "dialog" : undefined}
      aria-pressed={pressed}
    >
      {children}
    </button>
  );
}

/** A formatting toggle: pressed while the caret is inside that mark or node. */
function Tool({
  editor,
  label,
  run,
  active,
  children,
}: {
  editor: Editor | null;
  label: string;
  run: (e: Editor) => void;
  active: string;
  children: ReactNode;
}) {
  return (
    <IconTool
      label={label}
      pressed={editor?.isActive(active) ?? false}
      disabled={!editor}
      onClick={() => editor && run(editor)}
    >
      {children}
    </IconTool>
  );
}

/**
 * A small dialog inside the composer's form: plain elements and type="button" (forms cannot nest),
 * Enter applies, Escape closes this one only.
 */
function Panel({
  title,
  error,
  onApply,
  close,
  children,
}: {
  title: string;
  error: string | null;
  onApply: () => void;
  close: () => void;
  children: ReactNode;
}) {
  const id = useId();
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Enter") {
      e.preventDefault();
      onApply();
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.nativeEvent.stopImmediatePropagation();
      e.stopPropagation();
      close();
    }
  };
  return (
    <div className="panel" role="dialog" aria-labelledby={`${id}-t`} onKeyDown={onKeyDown}>
      <h3 id={`${id}-t`}>{title}</h3>
      {children}
      <FieldError error={error} />
      <div className="row">
        <button type="button" className="btn" onClick={close}>
          Cancel
        </button>
        <button type="button" className="btn primary" onClick={onApply}>
          Add
        </button>
      </div>
    </div>
  );
}

function LinkPanel({ editor, close }: { editor: Editor; close: () => void }) {
  const { from, to } = editor.state.selection;
  const selected = editor.state.doc.textBetween(from, to, " ");
  const [url, setUrl] = useState("");
  const [text, setText] = useState(selected);
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const href = url.trim() ? normaliseLink(url) : null;
    if (!url.trim()) return setError("Please enter your link.");
    if (!href) return setError("Invalid link.");
    // Spec 5: the link text defaults to the URL.
    const label = text.trim() || url.trim();
    const chain = editor.chain().focus();
    if (from !== to && label === selected) chain.setLink({ href }).run();
    else chain.insertContent({ type: "text", text: label, marks: [{ type: "link", attrs: { href } }] }).run();
    close();
  };
  return (
    <Panel title="Add Link" error={error} onApply={apply} close={close}>
      <label>
        Link
        <input value={url} onChange={(e) => setUrl(e.target.value)} autoFocus inputMode="url" />
      </label>
      <label>
        Text
        <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
    </Panel>
  );
}

function VideoPanel({ close, onVideo }: { close: () => void; onVideo: (link: string) => void }) {
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);
  const apply = () => (youtubeId(url) ? onVideo(url.trim()) : setError("Invalid YouTube link."));
  return (
    <Panel title="YouTube link" error={error} onApply={apply} close={close}>
      <label>
        YouTube link
        <input value={url} onChange={(e) => setUrl(e.target.value)} autoFocus inputMode="url" />
      </label>
    </Panel>
  );
}
