// Owned by the notes feature: the profile's Notes tab (x-label filter l=, Take a note, list, empty state).
export function ProfileNotesTab({ data }: { data: unknown }) {
  void data;
  return <p className="empty">No notes yet</p>;
}
