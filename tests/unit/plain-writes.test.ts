// A write's answer and its counters come from rows read, never from a statement's neighbour or an
// error provoked on purpose: no SQL names changes() (a counter moves in a statement whose own
// `where` decides, or by a trigger), and no refusal is raised inside SQL ("bad JSON path" from
// json_extract in a CASE used to roll a batch back). Service code only: tests may probe SQLite.
import { describe, expect, it } from "vitest";
import { oneLine, SOURCES } from "./sources";

const offenders = (pattern: RegExp) => [...SOURCES].filter(([, text]) => pattern.test(text)).map(([file]) => file);

describe("plain writes", () => {
  it("no counter moves by changes() of another statement", () => {
    expect(offenders(/changes\(\)/)).toEqual([]);
  });

  it("an insert names its columns: one row goes through insertWhere (db/insert.ts), not a SELECT of values by place", () => {
    // A row per element of a JSON list (a note's tags) is the one INSERT … SELECT of values left.
    const byPlace = /\.insert\([^()]*\)\s*\.select\(\s*sql`select (?![^`]*from json_each)/;
    expect([...SOURCES].filter(([, text]) => byPlace.test(oneLine(text))).map(([file]) => file)).toEqual([]);
  });

  it("no refusal is an error provoked inside SQL", () => {
    expect(offenders(/json_extract\(\s*'\{\}'|bad JSON path/)).toEqual([]);
  });
});
