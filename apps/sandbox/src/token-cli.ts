import { AuthService } from "./auth/auth-service";
import { loadConfig } from "./config";
import { openDatabase } from "./db/database";

/** `npm run token`: replaces the admin token (for a lost one) and prints the new one once. */
const config = loadConfig({ CODER_IMAGE: "unused", ...process.env });
const db = await openDatabase(config);
const token = await new AuthService(db).rotateAdminToken();
await db.destroy();
console.log(
  `new admin login token (the old one no longer works, and everyone logged in is logged out): ${token}`,
);
