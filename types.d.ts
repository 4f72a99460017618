// Text assets bundled into the build: tool descriptions and built-in skills.
declare module "*.txt" {
  const text: string;
  export default text;
}
declare module "*.md" {
  const text: string;
  export default text;
}
