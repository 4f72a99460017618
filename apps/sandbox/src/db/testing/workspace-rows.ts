import type { Db } from "../database";

/** A workspace row as the workspace service writes it, without a container: for tests of what refers to one. */
export async function addWorkspaceRow(
  db: Db,
  id: string,
  { ownerId, state = "running" }: { ownerId?: string; state?: "running" | "stopped" } = {},
): Promise<void> {
  await db
    .insertInto("workspaces")
    .values({
      id,
      name: id,
      ...(ownerId ? { owner_id: ownerId } : {}),
      egress: 0,
      image: "img",
      created_at: new Date().toISOString(),
      desired_state: state,
      import_record: null,
    })
    .execute();
}
