// The rich note editor (spec 2 Note editor). Loaded lazily, only when a composer opens with
// JavaScript on, so first page loads stay small; without JavaScript the composer keeps its textarea.
import { Extension } from "@tiptap/core";
import { Plugin, PluginKey } from "@tiptap/pm/state";
import { Decoration, DecorationSet } from "@tiptap/pm/view";
import Bold from "lucide-react/icons/bold";
import Italic from "lucide-react/icons/italic";
import List from "lucide-react/icons/list";
import { EditorContent, type Editor, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Placeholder } from "@tiptap/extensions";
import { type KeyboardEvent, type ReactNode, useId, useState } from "react";
import { youtubeId } from "../../../worker/features/notes/notes.constants";
import { normaliseLink } from "../../../worker/lib/links";

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

export interface RichEditorProps {
  initialHtml: string;
  placeholder: string;
  invalid?: boolean;
  videoDisabled: boolean;
  onChange: (html: string, text: string) => void;
  onVideo: (link: string) => void;
}

type Panel = "link" | "video" | null;

export default function RichEditor({
  initialHtml,
  placeholder,
  invalid,
  videoDisabled,
  onChange,
  onVideo,
}: RichEditorProps) {
  const [panel, setPanel] = useState<Panel>(null);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: { openOnClick: false, autolink: true, HTMLAttributes: { rel: "nofollow noopener ugc" } },
      }),
      Placeholder.configure({ placeholder }),
      Hashtags,
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

  return (
    <div className="editor" data-editor>
      <div className="editor-tools" role="toolbar" aria-label="Formatting">
        <Tool editor={editor} label="Bold" run={(e) => e.chain().focus().toggleBold().run()} active="bold">
          <Bold size={18} />
        </Tool>
        <Tool editor={editor} label="Italic" run={(e) => e.chain().focus().toggleItalic().run()} active="italic">
          <Italic size={18} />
        </Tool>
        <Tool
          editor={editor}
          label="Bulleted list"
          run={(e) => e.chain().focus().toggleBulletList().run()}
          active="bulletList"
        >
          <List size={18} />
        </Tool>
        <button type="button" className="tool" onClick={() => setPanel("link")} aria-haspopup="dialog">
          Add Link
        </button>
        <button
          type="button"
          className="tool"
          onClick={() => setPanel("video")}
          disabled={videoDisabled}
          aria-haspopup="dialog"
        >
          YouTube
        </button>
      </div>
      <EditorContent editor={editor} />
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
    <button
      type="button"
      className="tool"
      aria-label={label}
      aria-pressed={editor?.isActive(active) ?? false}
      disabled={!editor}
      onClick={() => editor && run(editor)}
    >
      {children}
    </button>
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
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
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
