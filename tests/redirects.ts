// Issue 20 §2: redirect targets an attacker can put in a form's redirectTo. Each must end on this
// site whatever the browser does with it (tabs and newlines dropped, "\" read as "/", dot segments
// and percent escapes resolved). Shared by the unit test of the guard and the e2e form fuzz.
export const HOSTILE_REDIRECTS = [
  "https://evil.example/",
  "http://evil.example",
  "//evil.example",
  "///evil.example",
  "////evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "\t//evil.example",
  " //evil.example",
  "/.//evil.example",
  "/./\\evil.example",
  "/..//evil.example",
  "/a/../../\\evil.example",
  "/%2f/evil.example",
  "/%2F%2Fevil.example",
  "/%5c/evil.example",
  "%2f%2fevil.example",
  "http://x//",
  "http:/evil.example",
  "https:evil.example",
  "javascript:alert(1)",
  "/javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "/\u0000/evil.example",
  "/\u3002/evil.example",
  "//evil.example@notex.test",
  "/@evil.example",
  "//evil%2eexample",
  "/%09/evil.example",
  "/\r\nSet-Cookie: x=1",
];

/** Same-site targets that must survive the guard unchanged. */
export const SAME_SITE = ["/", "/settings?saved=email", "/ada_lovelace/note/12?dialog=quote&id=3#r", "/tag/caf%C3%A9"];
