// Owned by the folders feature: the profile's X-Folders tab (filter, sort, New, rows, More folders).
export function ProfileFoldersTab({ data }: { data: unknown }) {
  void data;
  return <p className="empty">No folders yet</p>;
}
