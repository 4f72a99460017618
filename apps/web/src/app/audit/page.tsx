import { AuditPage } from "../../components/audit/AuditPage";

export default function AuditRoute() {
  return <AuditPage />;
}
