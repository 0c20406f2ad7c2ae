// The fixture deployment's auth providers: its own Convex Auth issuer (CONVEX_SITE_URL, as GharSewa's
// convex/auth.config.ts), and the providers conformance-auth-config.test.ts serves keys for when it
// sets their variables.
const env = process.env;

export default {
  providers: [
    { domain: env.CONVEX_SITE_URL, applicationID: "convex" },
    ...(env.TEST_CUSTOM_JWT_ISSUER
      ? [
          {
            type: "customJwt",
            issuer: env.TEST_CUSTOM_JWT_ISSUER,
            jwks: env.TEST_CUSTOM_JWKS_URL,
            algorithm: "RS256",
            applicationID: "fixture-app",
          },
        ]
      : []),
    ...(env.TEST_ES256_ISSUER
      ? [
          {
            type: "customJwt",
            issuer: env.TEST_ES256_ISSUER,
            jwks: env.TEST_ES256_JWKS,
            algorithm: "ES256",
          },
        ]
      : []),
    ...(env.TEST_OIDC_DOMAIN
      ? [{ domain: env.TEST_OIDC_DOMAIN, applicationID: "fixture-oidc" }]
      : []),
  ],
};
