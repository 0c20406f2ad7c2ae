export default {
  providers: [
    {
      // Set by Convex on every deployment (and by the local backend); auth's tokens are issued by it.
      // eslint-disable-next-line @convex-dev/no-process-env
      domain: process.env.CONVEX_SITE_URL,
      applicationID: "convex",
    },
  ],
};
