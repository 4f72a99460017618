import { JoinForm } from "../../../components/session/JoinForm";

export const metadata = { title: "Join · coder" };

/** A share link's page: the guest picks a display name and joins the workspace the link opens. */
export default async function JoinPage({ params }: { params: Promise<{ secret: string }> }) {
  const { secret } = await params;
  return <JoinForm secret={secret} />;
}
