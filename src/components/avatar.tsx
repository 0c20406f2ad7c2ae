import defaultAvatar from "@/assets/default-avatar.svg";
import { m } from "@/i18n/paraglide/messages";

/** A round profile photo, falling back to the default avatar image. */
export function Avatar({
  src,
  name,
  size = 40,
}: {
  src?: string | null;
  name: string;
  size?: number;
}) {
  return (
    <img
      src={src || defaultAvatar}
      alt={m.avatar_alt({ name })}
      width={size}
      height={size}
      className="shrink-0 rounded-full bg-brand-100 object-cover"
      style={{ width: size, height: size }}
    />
  );
}
