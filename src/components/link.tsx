import { forwardRef, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from "react";
import {
  useHref,
  useLinkClickHandler,
  useLocation,
  useResolvedPath,
  type To,
} from "react-router-dom";

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: To;
  replace?: boolean;
  state?: unknown;
};

/**
 * react-router's Link for this app's declarative router: an anchor whose click navigates in place.
 * react-router-dom's own Link also serves its framework mode (route prefetching, forms, view
 * transitions), and referencing it put that code (~4 KB gzip) in the landing's initial JS.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, target, onClick, ...rest },
  ref,
) {
  const href = useHref(to);
  const navigate = useLinkClickHandler(to, { replace, state, target });
  return (
    <a
      {...rest}
      ref={ref}
      href={href}
      target={target}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
});

type NavLinkProps = Omit<LinkProps, "className" | "children"> & {
  className?: string | ((state: { isActive: boolean }) => string);
  /** Active only on this very path, not below it. */
  end?: boolean;
  children?: ReactNode;
};

/** A Link that knows whether it points at the current page (`aria-current="page"`, `isActive`). */
export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(
  { to, end = false, className, ...rest },
  ref,
) {
  const target = useResolvedPath(to).pathname.toLowerCase();
  const here = useLocation().pathname.toLowerCase();
  const isActive =
    here === target ||
    (!end && target !== "/" && here.startsWith(target.endsWith("/") ? target : target + "/"));
  return (
    <Link
      {...rest}
      ref={ref}
      to={to}
      aria-current={isActive ? "page" : undefined}
      className={typeof className === "function" ? className({ isActive }) : className}
    />
  );
});
