import type { IconName } from "../icons";
import { Icon } from "../Icon";

// A folder is a job, a school, a project…, never a person: without a logo of its own it shows its
// type's icon on a rounded square, never a letter in a circle (which reads as someone's avatar).
const TYPE_ICONS: Record<string, IconName> = {
  company: "building-2",
  school: "graduation-cap",
  organization: "users",
  project: "folder-kanban",
  course: "book-open",
  certification: "award",
  skill: "sparkles",
  language: "languages",
  travel: "plane",
  album: "images",
  subject: "library",
};

export const typeIcon = (type: string): IconName => TYPE_ICONS[type.toLowerCase()] ?? "folder";

export function FolderLogo({ type, logo, size }: { type: string; logo: string; size: number }) {
  if (logo) return <img className="folder-logo" src={logo} alt="" width={size} height={size} loading="lazy" />;
  return (
    <span className="folder-logo" style={{ width: size, height: size }} aria-hidden="true">
      <Icon name={typeIcon(type)} size={Math.round(size / 2)} />
    </span>
  );
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const monthText = (m: string) => `${MONTHS[Number(m.slice(5, 7)) - 1]} ${m.slice(0, 4)}`;

/** "Mar 2021 – Present", "Sep 2015 – Jun 2019", or "" without dates; a certification was issued. */
export function monthRange(f: { type: string; start_month: string; end_month: string }): string {
  if (!f.start_month) return "";
  const start = monthText(f.start_month);
  if (f.type.toLowerCase() === "certification")
    return f.end_month ? `Issued ${start} · Expires ${monthText(f.end_month)}` : `Issued ${start}`;
  return `${start} – ${f.end_month ? monthText(f.end_month) : "Present"}`;
}
