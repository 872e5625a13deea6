import { MAX_LABEL, PRESET_LABELS } from "../../../worker/features/notes/notes.constants";
import { Icon } from "../Icon";

/**
 * The note's x-label as a compact chip after the text: a preset chosen for you, which you can
 * change, or your own word in the small field beside it (which wins when filled). Both are plain
 * form fields, so it works the same without JavaScript.
 */
export function LabelChip({
  preset,
  setPreset,
  custom,
  setCustom,
  invalid,
}: {
  preset: string;
  setPreset: (l: string) => void;
  custom: string;
  setCustom: (l: string) => void;
  invalid: boolean;
}) {
  return (
    <div className="label-chip">
      <span className={custom ? "chip-select overridden" : "chip-select"}>
        <Icon name="tag" size={16} />
        <select
          id="note-label"
          name="label"
          aria-label="X-label"
          value={preset}
          onChange={(e) => setPreset(e.target.value)}
          aria-invalid={invalid ? true : undefined}
        >
          {PRESET_LABELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </span>
      <label htmlFor="note-custom-label" className="sr-only">
        or a custom x-label
      </label>
      <input
        id="note-custom-label"
        name="custom_label"
        value={custom}
        maxLength={MAX_LABEL}
        placeholder="or your own"
        onChange={(e) => setCustom(e.target.value.toLowerCase())}
        aria-describedby="label-count"
      />
      <small id="label-count" className={custom ? "muted" : "sr-only"}>
        {custom.length}/{MAX_LABEL}
      </small>
    </div>
  );
}
