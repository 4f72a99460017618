import type { NextConfig } from "next";

const config: NextConfig = {
  // The shared schemas are TypeScript sources, not a built package.
  transpilePackages: ["@coder/protocol"],
  // The root `tsc -p .` type-checks apps/web/src with the rest of the repository.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
};

export default config;
