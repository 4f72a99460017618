// The one place the UI names the service's router type: the shape of every call is checked
// against the server's own definition.
export type { AppRouter } from "@coder/sandbox/router";
