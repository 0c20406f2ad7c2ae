export default function UsersPage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">Users</h1></main>;
}
