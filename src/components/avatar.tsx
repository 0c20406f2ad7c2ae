import defaultAvatar from "@/assets/default-avatar.svg";

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
      alt={`${name}'s profile photo`}
      width={size}
      height={size}
      className="shrink-0 rounded-full bg-brand-100 object-cover"
      style={{ width: size, height: size }}
    />
  );
}
