import { InviteForm } from "../../../components/session/InviteForm";

export const metadata = { title: "Set your password · coder" };

/** An invitation or reset link's page: the person sets their password (and, invited, their name). */
export default async function InvitePage({ params }: { params: Promise<{ secret: string }> }) {
  const { secret } = await params;
  return <InviteForm secret={secret} />;
}
