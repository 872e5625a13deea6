// The lucide icons the app draws, by lucide's file name. vite.config.ts builds app/icons.svg (one
// <symbol> each) from this list, and <Icon name> only takes these names, so an icon missing from
// the sprite fails typecheck rather than drawing nothing.
export const ICONS = [
  "arrow-left",
  "at-sign",
  "bell",
  "bold",
  "chevron-left",
  "chevron-right",
  "circle",
  "circle-check",
  "ellipsis",
  "eye",
  "eye-off",
  "heart",
  "house",
  "image-plus",
  "italic",
  "link",
  "list",
  "mail",
  "menu",
  "message-circle",
  "monitor",
  "moon",
  "plus",
  "repeat-2",
  "search",
  "square-play",
  "sun",
  "tag",
  "user-plus",
  "x",
] as const;

export type IconName = (typeof ICONS)[number];
