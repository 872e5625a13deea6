import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

// An import's upload form in Settings → Import (Mastodon's CSVs, a LinkedIn export): a multipart
// form that works without JavaScript, its heading and where to find the file, the choices it takes
// (`children`), the file and the button.

export function UploadForm({
  title,
  intro,
  file,
  accept,
  busy,
  submit,
  busyWord,
  className,
  children,
}: {
  title: string;
  intro: ReactNode;
  /** The file field's label: what file, and how large it may be. */
  file: string;
  accept: string;
  busy: boolean;
  submit: string;
  busyWord: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className={className ? `import-upload ${className}` : "import-upload"}
    >
      <h2>{title}</h2>
      <p className="muted">{intro}</p>
      {children}
      <label className="file-pick">
        <span>{file}</span>
        <input type="file" name="file" accept={accept} required />
      </label>
      <button type="submit" className="btn primary" disabled={busy}>
        {busy ? busyWord : submit}
      </button>
    </Form>
  );
}
