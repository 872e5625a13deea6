/** Spec 3 report kinds (shared by the API and the Report dialog). */
export const REPORT_KINDS = {
  1: "Spam",
  2: "Misleading Content",
  3: "Unwanted Sexual or Violent Content",
  4: "Illegal and Urgent",
  5: "Other",
} as const;

/** The longest free-text note a report may carry. */
export const REPORT_NOTE_MAX = 1000;
