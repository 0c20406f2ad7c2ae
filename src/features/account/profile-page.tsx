export default function ProfilePage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">My Profile</h1></main>;
}
