// Kept apart from the zod schemas so pages can import them without zod.

/** Spec 3 folder types offered (Folder is shown as Simple Folder); any other text is a custom type. */
export const FOLDER_TYPES = [
  "Folder",
  "Album",
  "Skill",
  "Project",
  "Company",
  "School",
  "Subject",
  "Course",
  "Organization",
  "Certification",
  "Language",
  "Travel",
];
export const typeLabel = (t: string) => (t === "Folder" ? "Simple Folder" : t);
