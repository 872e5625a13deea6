/**
 * A profile picture's file field, with the picture it would replace beside it. Without
 * JavaScript the chosen file is sent as it is and the server keeps it whole.
 */
export function ImagePicker({
  name,
  label,
  current,
  shape,
}: {
  name: "avatar" | "cover";
  label: string;
  current: string;
  shape: "square" | "wide";
}) {
  return (
    <div className={`field image-picker ${shape}`}>
      <label htmlFor={name}>{label}</label>
      <div className="image-picker-row">
        {current ? <img className="image-picker-now" src={current} alt="" /> : <span className="image-picker-now" />}
        <input id={name} type="file" name={name} accept="image/*" />
      </div>
    </div>
  );
}
