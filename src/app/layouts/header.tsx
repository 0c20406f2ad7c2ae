import { Link } from "react-router-dom";
import { paths } from "@/lib/paths";

export function Header() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3" aria-label="Main">
        <Link to={paths.home()} className="flex items-center gap-2 font-semibold text-brand-700">
          <img src="/logo.svg" alt="" className="h-8 w-8" />
          GharSewa
        </Link>
        <div className="flex gap-4 text-sm">
          <Link to={paths.about()}>About US</Link>
          <Link to={paths.login()}>Login</Link>
          <Link to={paths.signup()}>Signup</Link>
        </div>
      </nav>
    </header>
  );
}
