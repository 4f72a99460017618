// Text assets bundled into the build: tool descriptions, built-in skills and job scripts.
declare module "*.txt" {
  const text: string;
  export default text;
}
declare module "*.md" {
  const text: string;
  export default text;
}
declare module "*.py" {
  const text: string;
  export default text;
}
