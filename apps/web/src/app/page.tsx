import { WorkspaceList } from "../components/workspaces/WorkspaceList";

export default function HomePage() {
  return <WorkspaceList />;
}
