// Owned by the folders feature: "Select Folders" in the note composer (up to 20), posting `folders`.
export function FolderPicker(_props: { selected: number[]; name?: string }) {
  return null;
}
