import { useConvexAuth, useQuery } from "convex/react";
import { Navigate } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import { partAfterPaint } from "@/components/ui/part-placeholder";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

// as tall as the form (at 360-1280 px)
const SigninForm = partAfterPaint(
  () => import("@/features/professional/signin-form"),
  "mt-6 min-h-[13.3rem]",
);

export default function ProfessionalSigninPage() {
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  if (viewer?.role === "professional")
    return <Navigate to={paths.professionalDashboard()} replace />;
  return <SigninPage />;
}

function SigninPage() {
  return (
    <main className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-center text-2xl font-semibold text-slate-900">{m.signin_title()}</h1>
        <SigninForm />
        <div className="mt-4 flex flex-col text-center text-sm">
          <Link
            to={paths.codeSignin("professional")}
            className="inline-flex min-h-11 items-center justify-center font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            {m.code_signin_link()}
          </Link>
          <Link
            to={paths.forgotPassword("professional")}
            className="inline-flex min-h-11 items-center justify-center text-brand-700 underline-offset-2 hover:underline"
          >
            {m.reset_forgot_link()}
          </Link>
          <Link
            to={paths.customerSignup()}
            className="inline-flex min-h-11 items-center justify-center text-brand-700 underline-offset-2 hover:underline"
          >
            {m.signin_register_user()}
          </Link>
          <Link
            to={paths.professionalSignup()}
            className="inline-flex min-h-11 items-center justify-center text-brand-700 underline-offset-2 hover:underline"
          >
            {m.signin_register_professional()}
          </Link>
        </div>
      </div>
    </main>
  );
}
