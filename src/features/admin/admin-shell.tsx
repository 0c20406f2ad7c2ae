import { Outlet } from "react-router-dom";

export default function AdminShell() {
  return <Outlet />;
}
