import type { ReactNode } from "react";
import { partAfterPaint } from "@/components/ui/part-placeholder";

export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <main className="mx-auto w-full max-w-lg px-4 py-8 sm:py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <h1 id="auth-heading" className="text-2xl font-bold text-slate-900">
          {title}
        </h1>
        {subtitle && <p className="mt-1 text-slate-600">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

// The forms that go in the card, their boxes as tall as they are with no role chosen (the card is
// as wide from 640 px on).
export const LoginForm = partAfterPaint(() => import("@/features/auth/login-form"), "min-h-96");

export const SignupForm = partAfterPaint(
  () => import("@/features/auth/signup-form").then(({ SignupForm }) => ({ default: SignupForm })),
  "min-h-[50.9rem] sm:min-h-[45.6rem]",
);
