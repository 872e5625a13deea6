// Sound production configuration for tests that run the worker outside APP_ENV=local: every var
// and secret worker/lib/secrets.js asks for, none of them a value the repository ships.
export const PRODUCTION_ENV = {
  APP_ENV: "production",
  APP_ORIGIN: "https://notex.test",
  MAIL_FROM: "NoteX <no-reply@notex.test>",
  UPLOAD_MODE: "s3",
  TOKEN_SECRET: "a-long-random-production-secret-0123456789",
  UPLOAD_SECRET: "another-long-random-production-secret-0123",
  FEDERATION_SECRET: "a-third-long-random-production-secret-0123",
  GOOGLE_CLIENT_ID: "id.apps.googleusercontent.com",
  GOOGLE_CLIENT_SECRET: "GOCSPX-real",
  R2_S3_ENDPOINT: "https://acct.r2.cloudflarestorage.com/notex-images",
  R2_ACCESS_KEY_ID: "key",
  R2_SECRET_ACCESS_KEY: "secret",
};
