import { z } from "zod";

export const IdParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export interface UserRef {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  me: boolean;
}
