// A real OpenID provider on 127.0.0.1 standing in for Google (local runs and e2e). Sign in with any
// login and password; the account's email is <login>@example.test, verified unless the login
// starts with "unverified". Opt in with `npm run dev:oidc` (see README, "Google sign-in").
import Provider from "oidc-provider";

const port = Number(process.env.OIDC_PORT ?? 9450);
const appOrigins = (process.env.OIDC_APP_ORIGINS ?? "http://127.0.0.1:8787,http://localhost:5173").split(",");
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.OIDC_CLIENT_ID ?? "notex-local",
      client_secret: process.env.OIDC_CLIENT_SECRET ?? "notex-local-secret",
      redirect_uris: appOrigins.map((o) => `${o.trim()}/callback/google`),
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ],
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return {
          sub: `local-${id}`,
          email: `${id}@example.test`,
          email_verified: !id.startsWith("unverified"),
          name: id.replace(/[._-]+/g, " "),
        };
      },
    };
  },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  // Put the scope's claims in the ID token itself, as Google does.
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ["notex-local-oidc-cookie-key"] },
});
// The local issuer is plain http on loopback; nothing else would accept it.
provider.proxy = false;

provider.listen(port, "127.0.0.1", () => {
  console.log(`oidc-provider: ${issuer} (client ${process.env.OIDC_CLIENT_ID ?? "notex-local"})`);
  console.log(`  set in .dev.vars: GOOGLE_AUTH_URL=${issuer}/auth GOOGLE_TOKEN_URL=${issuer}/token`);
  console.log(
    `  GOOGLE_ISSUER=${issuer} GOOGLE_JWKS_URL=${issuer}/jwks GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET as above`,
  );
});
