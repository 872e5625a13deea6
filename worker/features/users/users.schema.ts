import { z } from "zod";
import { multiLineText } from "../../lib/params";
import { CONTROL_MESSAGE, hasControl, oneLine, stripInvisible } from "../../lib/text";
import { ImageUpload } from "../uploads/uploads.schema";
import { ProfileExtras } from "./profile.schema";

// Limits and messages of spec section 5, side by side; shared by the API and the forms.
const required = (message: string) => ({
  error: (iss: { input: unknown }) =>
    iss.input === undefined || iss.input === null ? message : `${message.split(" ")[0]} must be text`,
});
/** Text that must be given and not be empty: the spec's one `message` for both. */
const filled = (message: string) => z.string(required(message)).min(1, message);
/** The same for a name or an address, compared without surrounding spaces and in lower case. */
const filledLower = (message: string) => z.string(required(message)).trim().toLowerCase().min(1, message);

export const RESERVED = new Set([
  "help",
  "tag",
  "tags",
  "callback",
  "login",
  "signup",
  "signin",
  "register",
  "bookmark",
  "bookmarks",
  "saved",
  "notification",
  "notifications",
  "policy",
  "terms",
  "connection",
  "connections",
  "about",
  "project",
  "projects",
  "company",
  "companies",
  "skill",
  "skills",
  "setting",
  "settings",
  "search",
  "note",
  "notes",
  "reply",
  "replies",
  "notex",
  "note-x",
  "notexapp",
  "note_x",
  "notex_app",
  "new-company",
  "new-project",
  "new-skill",
  "actions",
  "img",
  "xlabel",
  "admin",
  "api",
  "uploads",
  "images",
  // Top-level paths of the site (issue 20 §6): a profile at /logout could never be reached, and a
  // link to "@settings" would look like the site's own. tests/api/spoofing.test.ts checks that every
  // route in app/routes is here; the rest are the worker's paths and ones the site is likely to add.
  "logout",
  "signout",
  "discover",
  "explore",
  "home",
  "feed",
  "feeds",
  "moderation",
  "mod",
  "safety",
  "report",
  "reports",
  "reset",
  "password",
  "forgot",
  "welcome",
  "confirm",
  "verify",
  "invite",
  "invitations",
  "dev",
  "v1",
  "v2",
  "auth",
  "oauth",
  "google",
  "refresh",
  "health",
  "status",
  "docs",
  "openapi",
  "assets",
  "static",
  "build",
  "favicon",
  "rss",
  "sitemap",
  "sitemap.xml",
  "robots",
  "robots.txt",
  "user",
  "users",
  "label",
  "labels",
  "likes",
  "follows",
  "renotes",
  "blocks",
  "mutes",
  "security",
  "support",
  "root",
  "administrator",
]);

export const Username = filledLower("username is required")
  .min(5, "username must be at least 5 characters")
  .max(34, "username must be less than 35 characters")
  .regex(/^[a-z]/, "first character must be a letter (a-z)")
  .regex(/^[a-z0-9_]*$/, "username must contain only alphanumeric and underscore characters")
  .refine((u) => !RESERVED.has(u), "username is already taken");

export const Password = filled("password is required")
  .min(6, "password must be at least 6 characters")
  .max(44, "password must be less than 45 characters")
  .regex(/[a-zA-Z]/, "password must contain at least 1 letter (a-z)")
  .regex(/[0-9]/, "password must contain at least 1 number (0-9)");

export const Email = filledLower("email is required")
  .max(254, "email is not valid")
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "email is not valid");

/** "ada  lovelace" → "Ada Lovelace": the spec auto-capitalises each word of the display name. */
export const capitalise = (s: string) =>
  s
    .trim()
    .replace(/\s+/g, " ")
    .replace(/(^|\s)(\p{Ll})/gu, (_m, sp: string, ch: string) => sp + ch.toUpperCase());

export const SignupName = z
  .string(required("name is required"))
  .transform((s) => capitalise(stripInvisible(s)))
  .pipe(
    z
      .string()
      .min(1, "name is required")
      .max(35, "name must be less than 35 character")
      .refine((s) => !hasControl(s), `name ${CONTROL_MESSAGE}`),
  );

export const SignupStep1 = z.object({ email: Email, name: SignupName });
export const SignupStep2 = z
  .object({
    username: Username,
    password: Password,
    confirm: filled("confirm password is required"),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "confirm password does not match" });

export const SignupInput = z.object({ email: Email, name: SignupName, username: Username, password: Password });

export const LoginInput = z.object({
  username: filledLower("username is required").max(254),
  password: filled("password is required").max(200),
});

export const ChangeUsername = z.object({ username: Username });
/** The current password proves it is the person (an account without one: a fresh sign-in, see changeEmail). */
export const ChangeEmail = z.object({ email: Email, password: z.string().max(200).optional() });
export const ChangePassword = z.object({
  password: filled("current password is required").max(200),
  new_password: Password,
});
/** The settings form adds a confirmation that never leaves the page. */
export const ChangePasswordForm = ChangePassword.extend({ confirm: z.string().default("") }).refine(
  (v) => v.new_password === v.confirm,
  { path: ["confirm"], message: "password and confirm password does not match" },
);

/** Spec 5 profile edit. */
export const ProfileEdit = z.object({
  name: z
    .string({ error: "Name is required" })
    .transform(oneLine)
    .pipe(
      z
        .string()
        .min(1, "Name is required")
        .max(99, "Name must be less than 100")
        .refine((s) => !hasControl(s), `Name ${CONTROL_MESSAGE}`),
    ),
  descr: multiLineText("Description", 299, "Description must be less than 300"),
  avatar: ImageUpload.optional(),
  cover: ImageUpload.optional(),
  ...ProfileExtras,
});
