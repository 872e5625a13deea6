import { z } from "zod";
import { Email, Password } from "../users/users.schema";

export const ForgotInput = z.object({ email: Email });
export const ResetInput = z.object({ token: z.string().max(200).default(""), password: Password });
/** The reset page's form adds a confirmation that never leaves the page. */
export const ResetForm = ResetInput.extend({ confirm: z.string().default("") }).refine(
  (v) => v.password === v.confirm,
  { path: ["confirm"], message: "password and confirm password does not match" },
);
export const TokenInput = z.object({ token: z.string().max(200).default("") });
export const DeleteAccountInput = z.object({
  password: z.string().max(200).optional(),
  username: z.string().max(100).optional(),
});
export const OutboxQuery = z.object({ to: z.string().trim().toLowerCase().min(1).max(254) });

export const FORGOT_SENT = "If an account uses that address, we have sent it a link to choose a new password.";
