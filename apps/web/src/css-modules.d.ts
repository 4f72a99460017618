// CSS modules for the root `tsc -p .`. Next's own program gets the same declaration from
// next-env.d.ts, so apps/web/tsconfig.json excludes this file.
declare module "*.module.css" {
  const classes: { readonly [className: string]: string };
  export default classes;
}
