import { AdminPage } from "../../components/admin/AdminPage";

export default function AdministrationPage() {
  return <AdminPage />;
}
