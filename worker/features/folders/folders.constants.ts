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

/** Types that are experience on a CV: they take a role and start/end months. */
export const EXPERIENCE_TYPES = ["Company", "School", "Organization", "Project", "Course", "Certification", "Award"];
export const isExperience = (type: string) => EXPERIENCE_TYPES.some((t) => t.toLowerCase() === type.toLowerCase());

/**
 * The sections of a CV, in the order one reads: each folder type's section (matched without
 * case); any other type falls under Other.
 */
export const CV_SECTIONS: { title: string; types: string[] }[] = [
  { title: "Experience", types: ["Company", "Organization"] },
  { title: "Education", types: ["School", "Course", "Subject"] },
  { title: "Licenses & certifications", types: ["Certification"] },
  { title: "Projects", types: ["Project"] },
  { title: "Honors & awards", types: ["Award"] },
  { title: "Skills", types: ["Skill", "Language"] },
];
export const cvSection = (type: string) =>
  CV_SECTIONS.findIndex((s) => s.types.some((t) => t.toLowerCase() === type.toLowerCase()));
