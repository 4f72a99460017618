import { workspaceId } from "@coder/protocol";
import { notFound } from "next/navigation";
import { WorkspaceIde } from "../../../components/ide/WorkspaceIde";

export default async function WorkspacePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!workspaceId.safeParse(id).success) notFound();
  // Keyed by id: each workspace gets a fresh editor, tree and terminals.
  return <WorkspaceIde key={id} workspaceId={id} />;
}
