import { GitTokensPage } from "../../../components/git-tokens/GitTokensPage";

export default function GitTokensRoute() {
  return <GitTokensPage />;
}
