import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useSignedInUser } from '../../lib/signed-in';

/** The spec's super admin dashboard is a heading over an empty grid; we add two signposts. */
export function SuperDashboardPage() {
  const user = useSignedInUser();
  return (
    <>
      <PageHeader title="Super Admin Dashboard" />
      <p className="mb-6 text-slate-600">Welcome, {user.name}.</p>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <Link
          to="/superAdmin-dashboard/users"
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-indigo-300"
        >
          <span className="block font-semibold text-slate-900">Users Management</span>
          <span className="mt-1 block text-sm text-slate-600">
            Create admin accounts, list and remove users.
          </span>
        </Link>
        <Link
          to="/superAdmin-dashboard/profile"
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-indigo-300"
        >
          <span className="block font-semibold text-slate-900">Profile</span>
          <span className="mt-1 block text-sm text-slate-600">Your name, email, address and password.</span>
        </Link>
      </div>
    </>
  );
}
