import type { FolderJson } from "../../../worker/features/folders/folders.service";
import { MAX_FOLDERS } from "../../../worker/features/notes/notes.constants";
import { typeLabel } from "../../../worker/features/folders/folders.constants";

/** Select Folders in the composer: checkboxes (no JS needed), up to 20 (the API says so if more). */
export function FolderPicker({
  selected,
  name = "folders",
  folders = [],
}: {
  selected: number[];
  name?: string;
  folders?: FolderJson[];
}) {
  if (!folders.length) return null;
  return (
    <fieldset className="folder-picker">
      <legend>Select Folders (up to {MAX_FOLDERS})</legend>
      {folders.map((f) => (
        <label key={f.id} className="radio">
          <input type="checkbox" name={name} value={f.id} defaultChecked={selected.includes(f.id)} /> {f.name}{" "}
          <small className="muted">{typeLabel(f.type)}</small>
        </label>
      ))}
    </fieldset>
  );
}
