import { LoginForm } from "../../components/session/LoginForm";
import { OidcSignIn } from "../../components/session/OidcSignIn";
import { PasswordLoginForm } from "../../components/session/PasswordLoginForm";

export const metadata = { title: "Log in · coder" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // The service sends an expired one-time login link here with `?expired=1`.
  const { expired } = await searchParams;
  return (
    <LoginForm linkExpired={expired !== undefined}>
      <OidcSignIn />
      <PasswordLoginForm />
    </LoginForm>
  );
}
