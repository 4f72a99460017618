"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../lib/trpc/client";

/** The header's way to the administration page: shown to admins only (the service refuses anyone else there). */
export function AdminLink() {
  const trpc = useTRPC();
  const admin = useQuery(trpc.workspace.whoami.queryOptions()).data?.siteRole === "admin";
  if (!admin) return null;
  return (
    <Link className="button" href="/admin" data-testid="admin-link">
      Admin
    </Link>
  );
}
