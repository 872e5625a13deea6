import { Form, Link, useFetcher, useLocation, useSearchParams } from "@remix-run/react";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import { FOLDER_TYPES, isExperience, typeLabel } from "../../../worker/features/folders/folders.constants";
import { Dialog } from "../Dialog";
import { Field, FieldError, SubmitRow } from "../Field";
import { Icon } from "../Icon";

export interface FolderResult {
  ok: boolean;
  message?: string | null;
  fields?: Record<string, string>;
  values?: Record<string, string>;
}

/** What an experience's role is called, by type (LinkedIn's words). */
const ROLE_LABELS: Record<string, [string, string]> = {
  company: ["Title", "e.g. Software Engineer"],
  school: ["Degree", "e.g. BSc, Computer Science"],
  organization: ["Role", "e.g. Volunteer mentor"],
  project: ["Your role", "e.g. Lead developer"],
  course: ["Provider", "e.g. Coursera"],
  certification: ["Issuing organisation", "e.g. AWS"],
};

/** An experience's role and months (Start and End; a certification's Issued and Expires). */
function ExperienceFields({
  type,
  folder,
  values,
  errors,
}: {
  type: string;
  folder?: FolderJson | null;
  values: Record<string, string>;
  errors: Record<string, string>;
}) {
  const t = type.toLowerCase();
  const [label, placeholder] = ROLE_LABELS[t] ?? ["Role", ""];
  const cert = t === "certification";
  return (
    <>
      <Field
        label={`${label} (optional)`}
        name="role"
        defaultValue={values.role ?? folder?.role ?? ""}
        error={errors.role}
        placeholder={placeholder}
        maxLength={200}
      />
      <div className="field-pair">
        {(
          [
            ["start_month", cert ? "Issued" : "Start", undefined],
            [
              "end_month",
              cert ? "Expires" : "End",
              cert ? "Empty if it does not expire" : "Empty while it is ongoing (Present)",
            ],
          ] as const
        ).map(([name, text, hint]) => (
          <Field
            key={name}
            label={text}
            name={name}
            type="month"
            defaultValue={values[name] ?? folder?.[name] ?? ""}
            error={errors[name]}
            hint={hint}
          />
        ))}
      </div>
    </>
  );
}

/** Step 2: the details (also the edit form, prefilled). */
export function FolderForm({
  type,
  folder,
  result,
}: {
  type: string;
  folder?: FolderJson | null;
  result?: FolderResult;
}) {
  const fetcher = useFetcher<FolderResult>({ key: "folder" });
  const r = fetcher.data ?? result;
  const v = r?.values ?? {};
  const f = r?.fields ?? {};
  return (
    <fetcher.Form method="post" action="/actions/folder" encType="multipart/form-data" noValidate>
      <input type="hidden" name="intent" value={folder ? "edit" : "create"} />
      {folder && <input type="hidden" name="id" value={folder.id} />}
      {r?.message && (
        <p className="form-error" role="alert">
          {r.message}
        </p>
      )}
      <Field label="Type" name="type" defaultValue={v.type ?? type} error={f.type} maxLength={60} />
      <Field
        label="Name"
        name="name"
        defaultValue={v.name ?? folder?.name ?? ""}
        error={f.name}
        maxLength={400}
        data-autofocus
      />
      <div className="field">
        <label htmlFor="folder-descr">Description</label>
        <textarea
          id="folder-descr"
          name="descr"
          rows={3}
          defaultValue={v.descr ?? folder?.descr ?? ""}
          aria-invalid={f.descr ? true : undefined}
        />
        <FieldError error={f.descr} />
      </div>
      {isExperience(type) && <ExperienceFields type={type} folder={folder} values={v} errors={f} />}
      <Field label="Link" name="link" defaultValue={v.link ?? folder?.link ?? ""} error={f.link} maxLength={600} />
      <div className="field">
        <label htmlFor="folder-logo">Logo</label>
        <input id="folder-logo" type="file" name="logo" accept="image/png,image/jpeg,image/webp,image/gif" />
        <FieldError error={f["upload.file_size"]} />
      </div>
      <SubmitRow label="Save" busy={fetcher.state !== "idle"} />
    </fetcher.Form>
  );
}

/** Spec 4: type selection, then details; editing prefills and skips the first step. */
export function FolderDialog({ folder }: { folder?: FolderJson | null }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const type = params.get("ftype");
  if (folder) {
    return (
      <Dialog title="Edit x-folder" guard>
        <FolderForm type={folder.type} folder={folder} />
      </Dialog>
    );
  }
  if (!type) {
    const pick = (t: string) => {
      const p = new URLSearchParams(location.search);
      p.set("ftype", t);
      return `${location.pathname}?${p}`;
    };
    return (
      <Dialog title="New x-folder">
        <p>Choose a type</p>
        <ul className="type-grid">
          {FOLDER_TYPES.map((t) => (
            <li key={t}>
              <Link to={pick(t)} className="btn block" preventScrollReset replace>
                {typeLabel(t)}
              </Link>
            </li>
          ))}
        </ul>
        <Form method="get" action={location.pathname} className="row custom-type" preventScrollReset>
          {[...new URLSearchParams(location.search)].map(([k, v]) =>
            k === "ftype" ? null : <input key={k} type="hidden" name={k} value={v} />,
          )}
          <label htmlFor="custom-type" className="sr-only">
            Custom type
          </label>
          <input id="custom-type" name="ftype" placeholder="or enter a type" maxLength={30} required />
          <button type="submit" className="btn">
            Next
          </button>
        </Form>
      </Dialog>
    );
  }
  const back = new URLSearchParams(location.search);
  back.delete("ftype");
  return (
    <Dialog title={`New ${typeLabel(type)}`} guard>
      <Link to={`${location.pathname}?${back}`} replace preventScrollReset>
        <Icon name="arrow-left" size={16} /> Back
      </Link>
      <FolderForm type={type} />
    </Dialog>
  );
}
