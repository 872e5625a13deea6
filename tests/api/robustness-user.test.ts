// Issue 8 §1–2 for a signed-in stranger: the same barrage as a visitor's, with a session.
import { describe } from "vitest";
import { user } from "../factories";
import { hammer } from "../fuzz";

describe("hostile input from a signed-in stranger", () => {
  hammer(() => user(), "user");
});
